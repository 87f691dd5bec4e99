import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect } from 'vitest';
import { curriculumV1, http, newTenant } from '../kit.ts';
import { platformTest } from '../platform-test.ts';
import { addPrerequisite, createKc, expectProblem, key } from './helpers.ts';

const it = platformTest();

const prerequisites = `${curriculumV1}/kc-prerequisites`;

describe('POST /kc-prerequisites', () => {
  it('adds an edge once, answers the same edge again, and filters by either endpoint', async ({ platform }) => {
    const caller = await newTenant(platform);
    const [a, b, c] = await Promise.all([1, 2, 3].map(() => createKc(platform, caller)));
    const ab = await addPrerequisite(platform, caller, a.kc_id, b.kc_id);
    expect(ab.status).toBe(201);
    expect(ab.body).toMatchObject({ prerequisite_kc_id: a.kc_id, dependent_kc_id: b.kc_id, status: 'active' });
    const again = await addPrerequisite(platform, caller, a.kc_id, b.kc_id);
    expect([again.status, again.body.prerequisite_id]).toEqual([200, ab.body.prerequisite_id]);
    expect((await addPrerequisite(platform, caller, b.kc_id, c.kc_id)).status).toBe(201);
    const ids = async (query: string) =>
      (await http(platform, 'GET', `${prerequisites}?${query}`, { token: caller.token })).body.data
        .map((edge: any) => `${edge.prerequisite_kc_id}>${edge.dependent_kc_id}`)
        .sort();
    expect(await ids(`kcId=${b.kc_id}`)).toEqual([`${a.kc_id}>${b.kc_id}`, `${b.kc_id}>${c.kc_id}`].sort());
    expect(await ids(`prerequisiteKcId=${b.kc_id}`)).toEqual([`${b.kc_id}>${c.kc_id}`]);
    expect(await ids(`dependentKcId=${b.kc_id}`)).toEqual([`${a.kc_id}>${b.kc_id}`]);
    expect(await ids(`updated_since=2999-01-01T00:00:00Z`)).toEqual([]);
    const first = await http(platform, 'GET', `${prerequisites}?limit=1`, { token: caller.token });
    const second = await http(platform, 'GET', `${prerequisites}?limit=1&cursor=${first.body.next_cursor}`, {
      token: caller.token,
    });
    expect(second.body.data).toHaveLength(1);
    expect(second.body.data[0].prerequisite_id).not.toBe(first.body.data[0].prerequisite_id);
    expect(second.body.next_cursor).toBeNull();
  });

  it('refuses cycles of any length, self edges, unknown or retired KCs and a missing key', async ({ platform }) => {
    const caller = await newTenant(platform);
    const [a, b, c, d] = await Promise.all([1, 2, 3, 4].map(() => createKc(platform, caller)));
    await addPrerequisite(platform, caller, a.kc_id, b.kc_id);
    await addPrerequisite(platform, caller, b.kc_id, c.kc_id);
    await addPrerequisite(platform, caller, c.kc_id, d.kc_id);
    expectProblem(await addPrerequisite(platform, caller, b.kc_id, a.kc_id), 409, 'curriculum:prerequisite_cycle');
    expectProblem(await addPrerequisite(platform, caller, d.kc_id, a.kc_id), 409, 'curriculum:prerequisite_cycle');
    expectProblem(await addPrerequisite(platform, caller, a.kc_id, a.kc_id), 400, 'curriculum:validation_failed');
    expectProblem(await addPrerequisite(platform, caller, a.kc_id, randomUUID()), 422, 'curriculum:kc_not_active');
    const stranger = await newTenant(platform);
    const foreign = await createKc(platform, stranger);
    expectProblem(await addPrerequisite(platform, caller, a.kc_id, foreign.kc_id), 422, 'curriculum:kc_not_active');
    const missingKey = await http(platform, 'POST', prerequisites, {
      token: caller.token,
      body: { prerequisite_kc_id: a.kc_id, dependent_kc_id: d.kc_id },
    });
    expectProblem(missingKey, 400, 'curriculum:idempotency_key_required');
    expect((await http(platform, 'GET', prerequisites, { token: caller.token })).body.data).toHaveLength(3);
  });

  it('a KC id written in upper case names the same KC: refs are kept in lower case and guard the KC', async ({
    platform,
  }) => {
    const caller = await newTenant(platform);
    const [a, b] = await Promise.all([1, 2].map(() => createKc(platform, caller)));
    const edge = await addPrerequisite(platform, caller, a.kc_id.toUpperCase(), b.kc_id);
    expect(edge.status, JSON.stringify(edge.body)).toBe(201);
    expect(edge.body).toMatchObject({ prerequisite_kc_id: a.kc_id, dependent_kc_id: b.kc_id });
    expectProblem(
      await addPrerequisite(platform, caller, b.kc_id.toUpperCase(), b.kc_id),
      400,
      'curriculum:validation_failed',
    );
    const unit = await http(platform, 'POST', `${curriculumV1}/components`, {
      token: caller.token,
      body: { component_id: `unit-${randomUUID()}`, kind: 'unit', alpha: { scope_kc_refs: [b.kc_id.toUpperCase()] } },
    });
    expect(unit.status, JSON.stringify(unit.body)).toBe(201);
    expect(unit.body.alpha.scope_kc_refs).toEqual([b.kc_id]);
    const retire = await http(platform, 'DELETE', `${curriculumV1}/kcs/${b.kc_id}`, {
      token: caller.token,
      headers: { ...key(), 'if-match': b.etag },
    });
    expectProblem(retire, 409, 'curriculum:kc_in_use');
  });

  it('two concurrent edges that would close a cycle together: exactly one is accepted', async ({ platform }) => {
    const caller = await newTenant(platform);
    const [a, b] = await Promise.all([1, 2].map(() => createKc(platform, caller)));
    const replies = await Promise.all([
      addPrerequisite(platform, caller, a.kc_id, b.kc_id),
      addPrerequisite(platform, caller, b.kc_id, a.kc_id),
    ]);
    expect(replies.map((reply) => reply.status).sort()).toEqual([201, 409]);
  });

  it('property: any sequence of edges keeps the graph acyclic and accepts exactly the edges a model accepts', async ({
    platform,
  }) => {
    const nodes = 5;
    const edge = fc
      .tuple(fc.integer({ min: 0, max: nodes - 1 }), fc.integer({ min: 0, max: nodes - 1 }))
      .filter(([from, to]) => from !== to);
    await fc.assert(
      fc.asyncProperty(fc.array(edge, { minLength: 1, maxLength: 12 }), async (edges) => {
        const caller = await newTenant(platform);
        const kcIds: string[] = [];
        for (let index = 0; index < nodes; index += 1) kcIds.push((await createKc(platform, caller)).kc_id);
        const model = new Set<string>();
        const reaches = (from: number, to: number): boolean => {
          const seen = new Set<number>();
          const stack = [from];
          while (stack.length > 0) {
            const node = stack.pop() as number;
            if (node === to) return true;
            if (seen.has(node)) continue;
            seen.add(node);
            for (const next of model) {
              const [x, y] = next.split('>').map(Number);
              if (x === node) stack.push(y);
            }
          }
          return false;
        };
        for (const [from, to] of edges) {
          const reply = await addPrerequisite(platform, caller, kcIds[from], kcIds[to]);
          if (model.has(`${from}>${to}`)) expect(reply.status).toBe(200);
          else if (reaches(to, from)) expect(reply.body.code).toBe('curriculum:prerequisite_cycle');
          else {
            expect(reply.status).toBe(201);
            model.add(`${from}>${to}`);
          }
        }
        const stored = await http(platform, 'GET', `${prerequisites}?limit=200`, { token: caller.token });
        expect(stored.body.data).toHaveLength(model.size);
      }),
      { numRuns: 12 },
    );
  });
});

describe('KC review decisions and firming events', () => {
  it('records immutable review decisions on an exact version, filterable by version', async ({ platform }) => {
    const caller = await newTenant(platform);
    const kc = await createKc(platform, caller);
    const url = `${curriculumV1}/kc-review-decisions`;
    const versionId = kc.current_version_id;
    const decision = await http(platform, 'POST', url, {
      token: caller.token,
      headers: key(),
      body: { kc_version_id: versionId, decision: 'approved', reason: 'clear' },
    });
    expect(decision.status).toBe(201);
    expect(decision.body).toMatchObject({
      kc_id: kc.kc_id,
      kc_version_id: versionId,
      decision: 'approved',
      reviewer_ref: expect.any(String),
    });
    await http(platform, 'POST', url, {
      token: caller.token,
      headers: key(),
      body: { kc_version_id: (await createKc(platform, caller)).current_version_id, decision: 'rejected' },
    });
    const filtered = await http(platform, 'GET', `${url}?kc_version_id=${versionId}`, { token: caller.token });
    expect(filtered.body.data.map((row: any) => row.decision_id)).toEqual([decision.body.decision_id]);
    expect((await http(platform, 'GET', url, { token: caller.token })).body.data).toHaveLength(2);
    expectProblem(
      await http(platform, 'POST', url, {
        token: caller.token,
        headers: key(),
        body: { kc_version_id: versionId, decision: 'maybe' },
      }),
      400,
      'curriculum:validation_failed',
    );
    expectProblem(
      await http(platform, 'POST', url, {
        token: caller.token,
        headers: key(),
        body: { kc_version_id: randomUUID(), decision: 'approved' },
      }),
      404,
      'curriculum:not_found',
    );
    expectProblem(
      await http(platform, 'POST', url, {
        token: caller.token,
        body: { kc_version_id: versionId, decision: 'approved' },
      }),
      400,
      'curriculum:idempotency_key_required',
    );
  });

  it('firms a draft version once by first genuine response; course-approval events only come from approval', async ({
    platform,
  }) => {
    const caller = await newTenant(platform);
    const kc = await createKc(platform, caller);
    const url = `${curriculumV1}/kc-firming-events`;
    const versionId = kc.current_version_id;
    const refused = await http(platform, 'POST', url, {
      token: caller.token,
      headers: key(),
      body: { kc_version_id: versionId, source: 'course_approval' },
    });
    expectProblem(refused, 422, 'curriculum:firming_source_refused');
    const firmed = await http(platform, 'POST', url, {
      token: caller.token,
      headers: key(),
      body: { kc_version_id: versionId, source: 'first_genuine_response', evidence: { response_id: 'r-1' } },
    });
    expect(firmed.status).toBe(201);
    expect(firmed.body).toMatchObject({
      kc_version_id: versionId,
      source: 'first_genuine_response',
      evidence: { response_id: 'r-1' },
    });
    const version = await http(platform, 'GET', `${curriculumV1}/kcs/${kc.kc_id}/versions/${versionId}`, {
      token: caller.token,
    });
    expect(version.body).toMatchObject({ state: 'firm', firming_event_id: firmed.body.firming_event_id });
    const twice = await http(platform, 'POST', url, {
      token: caller.token,
      headers: key(),
      body: { kc_version_id: versionId, source: 'first_genuine_response' },
    });
    expectProblem(twice, 409, 'curriculum:kc_version_already_firm');
    expectProblem(
      await http(platform, 'POST', url, {
        token: caller.token,
        headers: key(),
        body: { kc_version_id: versionId, source: 'other' },
      }),
      400,
      'curriculum:validation_failed',
    );
    expectProblem(
      await http(platform, 'POST', url, {
        token: caller.token,
        headers: key(),
        body: { kc_version_id: randomUUID(), source: 'first_genuine_response' },
      }),
      404,
      'curriculum:not_found',
    );
    const listed = await http(platform, 'GET', `${url}?kc_version_id=${versionId}`, { token: caller.token });
    expect(listed.body.data).toHaveLength(1);
    const next = await http(platform, 'POST', `${curriculumV1}/kcs/${kc.kc_id}/versions`, {
      token: caller.token,
      headers: key(),
      body: { definition: 'v2' },
    });
    expect(next.body.state).toBe('draft');
  });
});
