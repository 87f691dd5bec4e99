import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect } from 'vitest';
import { curriculumV1, eligibleVersion, http, newTenant, tenantRoot, type Caller } from '../kit.ts';
import { filePlatform, platformTest } from '../platform-test.ts';
import { createComponent, createKc, expectProblem, key, pinOf, readComponent, tenantRowCounts } from './helpers.ts';

const it = platformTest();

const componentsUrl = `${curriculumV1}/components`;

function patch(
  caller: Caller,
  componentId: string,
  etag: string | undefined,
  body: unknown,
  idempotencyKey: string | null = randomUUID(),
) {
  const headers: Record<string, string> = {};
  if (etag !== undefined) headers['x-curriculum-if-match'] = etag;
  if (idempotencyKey !== null) headers['idempotency-key'] = idempotencyKey;
  return http(filePlatform(), 'PATCH', `${componentsUrl}/${componentId}`, { token: caller.token, headers, body });
}

function retire(caller: Caller, componentId: string, etag: string) {
  return http(filePlatform(), 'DELETE', `${componentsUrl}/${componentId}`, {
    token: caller.token,
    headers: { ...key(), 'x-curriculum-if-match': etag },
  });
}

async function course(caller: Caller) {
  await createComponent(filePlatform(), caller, {
    component_id: 'course',
    kind: 'course',
    alpha: { publication_status: 'draft' },
  });
  await createComponent(filePlatform(), caller, {
    component_id: 'unit-a',
    kind: 'unit',
    parent_component_id: 'course',
  });
  await createComponent(filePlatform(), caller, {
    component_id: 'unit-b',
    kind: 'unit',
    parent_component_id: 'course',
  });
  return createComponent(filePlatform(), caller, {
    component_id: 'lesson-1',
    kind: 'lesson',
    parent_component_id: 'unit-a',
    name: 'First',
  });
}

describe('PATCH /components/{id}: mutable fields', () => {
  it('changes mutable fields, keeps the rest of alpha, advances the version and replays by key', async ({
    platform,
  }) => {
    const caller = await newTenant(platform);
    const kc = await createKc(platform, caller);
    const lesson = await course(caller);
    // Read first, so the read's reused statement is the one that must see the change below.
    expect((await readComponent(platform, caller, 'lesson-1')).body).toMatchObject({ name: 'First', version: 1 });
    const idempotencyKey = randomUUID();
    const body = {
      name: 'Renamed',
      alpha: { scope_kc_refs: [kc.kc_id], expected_xp: 20, source_course_ref: 'vendor-7' },
    };
    const changed = await patch(caller, 'lesson-1', lesson.etag, body, idempotencyKey);
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({
      name: 'Renamed',
      version: 2,
      alpha: { publication_status: 'draft', scope_kc_refs: [kc.kc_id], expected_xp: 20 },
    });
    const bySource = await http(platform, 'GET', `${componentsUrl}?sourceCourseRef=vendor-7`, { token: caller.token });
    expect(bySource.body.data.map((row: any) => row.component_id)).toEqual(['lesson-1']);
    expect(changed.headers.get('etag')).toBe(changed.body.etag);
    const reread = await readComponent(platform, caller, 'lesson-1');
    expect([reread.headers.get('etag'), reread.body.name, reread.body.version]).toEqual([
      changed.body.etag,
      'Renamed',
      2,
    ]);
    const replay = await patch(caller, 'lesson-1', lesson.etag, body, idempotencyKey);
    expect([replay.status, replay.headers.get('idempotency-replayed'), replay.body.version]).toEqual([200, 'true', 2]);
    expectProblem(
      await patch(caller, 'lesson-1', lesson.etag, { name: 'Other' }, idempotencyKey),
      409,
      'curriculum:idempotency_conflict',
    );
  });

  it('refuses a missing or stale precondition, a missing key, unknown ids, immutable fields and rule breaks', async ({
    platform,
  }) => {
    const caller = await newTenant(platform);
    const lesson = await course(caller);
    expectProblem(await patch(caller, 'lesson-1', undefined, { name: 'x' }), 428, 'curriculum:precondition_required');
    expectProblem(await patch(caller, 'lesson-1', '"stale"', { name: 'x' }), 412, 'curriculum:precondition_failed');
    expectProblem(
      await patch(caller, 'lesson-1', lesson.etag, { name: 'x' }, null),
      400,
      'curriculum:idempotency_key_required',
    );
    expectProblem(await patch(caller, 'nope', lesson.etag, { name: 'x' }), 404, 'curriculum:not_found');
    expectProblem(await patch(caller, 'lesson-1', lesson.etag, { kind: 'unit' }), 400, 'curriculum:validation_failed');
    expectProblem(await patch(caller, 'lesson-1', lesson.etag, {}), 400, 'curriculum:validation_failed');
    expectProblem(
      await patch(caller, 'lesson-1', lesson.etag, { alpha: { grade_level: 13 } }),
      400,
      'curriculum:validation_failed',
    );
    expectProblem(
      await patch(caller, 'lesson-1', lesson.etag, { alpha: { scope_kc_refs: [randomUUID()] } }),
      422,
      'curriculum:kc_not_active',
    );
    expectProblem(
      await patch(caller, 'lesson-1', lesson.etag, { alpha: { renderer_ref: 'renderer:nope' } }),
      422,
      'curriculum:renderer_unknown',
    );
    // [] scope only on an exact content-bearing lesson with authoritative_no_kc: this lesson has no pin.
    expectProblem(
      await patch(caller, 'lesson-1', lesson.etag, {
        alpha: { scope_kc_refs: [], kc_scope_decision: 'authoritative_no_kc' },
      }),
      400,
      'curriculum:validation_failed',
    );
    const reader = await newTenant(platform, { tenantId: caller.tenantId, scopes: ['curriculum:read'] });
    expectProblem(await patch(reader, 'lesson-1', lesson.etag, { name: 'x' }), 403, 'curriculum:forbidden');
    expect((await readComponent(platform, caller, 'lesson-1')).body.version).toBe(1);
  });

  it('two writers with the same ETag: one wins, one gets 412', async ({ platform }) => {
    const caller = await newTenant(platform);
    const lesson = await course(caller);
    const replies = await Promise.all(['A', 'B'].map((name) => patch(caller, 'lesson-1', lesson.etag, { name })));
    expect(replies.map((reply) => reply.status).sort()).toEqual([200, 412]);
    expect((await readComponent(platform, caller, 'lesson-1')).body.version).toBe(2);
  });

  it('patching the lesson target asks content for the exact version and fails closed when ineligible', async ({
    platform,
  }) => {
    const caller = await newTenant(platform);
    const lesson = await course(caller);
    const untrusted = await http(platform, 'POST', `${tenantRoot(caller.tenantId)}/items`, {
      token: caller.token,
      headers: key(),
      body: { content_kind: 'article', title: 'Untrusted', status: 'published' },
    });
    const refused = await patch(caller, 'lesson-1', lesson.etag, {
      alpha: {
        target_ref: {
          content_kind: 'article',
          content_id: untrusted.body.content_id,
          content_version_id: untrusted.body.latest_version_id ?? randomUUID(),
        },
      },
    });
    expectProblem(refused, 409, 'curriculum:target_not_serveable');
    expect((await readComponent(platform, caller, 'lesson-1')).body.version).toBe(1);
    const version = await eligibleVersion(platform, caller);
    const pinned = await patch(caller, 'lesson-1', lesson.etag, {
      alpha: { target_ref: pinOf(version), renderer_kind: 'interactive_lesson' },
    });
    expect(pinned.status).toBe(200);
    expect(pinned.body.alpha).toMatchObject({
      target_ref: pinOf(version),
      renderer_ref: 'renderer:interactive-lesson',
    });
    expect(pinned.body.alpha).not.toHaveProperty('renderer_kind');
    expectProblem(
      await patch(caller, 'lesson-1', pinned.body.etag, {
        alpha: { target_ref: { content_kind: 'article', content_id: 'not-a-uuid', content_version_id: randomUUID() } },
      }),
      400,
      'curriculum:validation_failed',
    );
  });
});

describe('PATCH /components/{id}: isolated reparent', () => {
  it('moves the component keeping component and edge identity; loops and unknown parents are refused', async ({
    platform,
  }) => {
    const caller = await newTenant(platform);
    const lesson = await course(caller);
    const [edge] = (
      await http(platform, 'GET', `${curriculumV1}/associations?originId=lesson-1&associationType=isChildOf`, {
        token: caller.token,
      })
    ).body.data;
    expectProblem(
      await patch(caller, 'lesson-1', lesson.etag, { parent_component_id: 'unit-b', name: 'x' }),
      400,
      'curriculum:validation_failed',
    );
    expectProblem(
      await patch(caller, 'lesson-1', lesson.etag, { parent_component_id: 'ghost' }),
      422,
      'curriculum:parent_not_found',
    );
    const moved = await patch(caller, 'lesson-1', lesson.etag, { parent_component_id: 'unit-b', position: 0 });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({
      component_id: 'lesson-1',
      parent_component_id: 'unit-b',
      position: 0,
      name: 'First',
    });
    const edges = (
      await http(platform, 'GET', `${curriculumV1}/associations?originId=lesson-1&includeRetired=true`, {
        token: caller.token,
      })
    ).body.data;
    expect(edges).toHaveLength(1);
    expect(edges[0]).toMatchObject({
      association_id: edge.association_id,
      destinationId: 'unit-b',
      sequence_number: 0,
    });
    const tree = await http(platform, 'GET', `${curriculumV1}/courses/course/tree`, { token: caller.token });
    expect(
      tree.body.children.map((unit: any) => [unit.component_id, unit.children.map((child: any) => child.component_id)]),
    ).toEqual([
      ['unit-a', []],
      ['unit-b', ['lesson-1']],
    ]);
    const root = (await readComponent(platform, caller, 'course')).body;
    expectProblem(
      await patch(caller, 'course', root.etag, { parent_component_id: 'lesson-1' }),
      409,
      'curriculum:containment_cycle',
    );
    expectProblem(
      await patch(caller, 'course', root.etag, { parent_component_id: 'course' }),
      400,
      'curriculum:validation_failed',
    );
  });
});

describe('containment property', () => {
  it('any sequence of reparents keeps one loop-free tree whose edges mirror parent and position', async ({
    platform,
  }) => {
    const size = 5;
    const op = fc.tuple(fc.integer({ min: 0, max: size - 1 }), fc.integer({ min: -1, max: size - 1 }));
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 10 }), async (ops) => {
        const caller = await newTenant(platform);
        const name = (index: number) => (index < 0 ? 'root' : `n${index}`);
        await createComponent(platform, caller, { component_id: 'root', kind: 'course' });
        const parent = new Map<string, string>();
        for (let index = 0; index < size; index += 1) {
          await createComponent(platform, caller, {
            component_id: name(index),
            kind: 'unit',
            parent_component_id: 'root',
          });
          parent.set(name(index), 'root');
        }
        const inside = (node: string, ancestor: string): boolean => {
          for (let at: string | undefined = node; at; at = parent.get(at)) if (at === ancestor) return true;
          return false;
        };
        for (const [child, target] of ops) {
          const current = (await readComponent(platform, caller, name(child))).body;
          const reply = await patch(caller, name(child), current.etag, { parent_component_id: name(target) });
          if (inside(name(target), name(child))) {
            expect(reply.status, JSON.stringify(reply.body)).toBe(name(target) === name(child) ? 400 : 409);
          } else {
            expect(reply.status, JSON.stringify(reply.body)).toBe(200);
            parent.set(name(child), name(target));
          }
        }
        const edges = (
          await http(platform, 'GET', `${curriculumV1}/associations?associationType=isChildOf`, { token: caller.token })
        ).body.data;
        expect(edges).toHaveLength(size);
        for (let index = 0; index < size; index += 1) {
          const component = (await readComponent(platform, caller, name(index))).body;
          const edge = edges.find((row: any) => row.originId === name(index));
          expect([component.parent_component_id, edge.destinationId, edge.sequence_number]).toEqual([
            parent.get(name(index)),
            parent.get(name(index)),
            component.position,
          ]);
        }
        const tree = (await http(platform, 'GET', `${curriculumV1}/courses/root/tree`, { token: caller.token })).body;
        const count = (node: any): number =>
          1 + node.children.reduce((sum: number, child: any) => sum + count(child), 0);
        expect(count(tree)).toBe(size + 1);
      }),
      { numRuns: 10 },
    );
  });
});

describe('DELETE /components/{id} and reactivation', () => {
  it('soft-retires with incident isChildOf edges, hides it unless includeRetired, and re-POST reactivates', async ({
    platform,
  }) => {
    const caller = await newTenant(platform);
    await course(caller);
    const unit = (await readComponent(platform, caller, 'unit-a')).body;
    expectProblem(
      await http(platform, 'DELETE', `${componentsUrl}/unit-a`, { token: caller.token, headers: key() }),
      428,
      'curriculum:precondition_required',
    );
    expectProblem(
      await http(platform, 'DELETE', `${componentsUrl}/unit-a`, {
        token: caller.token,
        headers: { 'x-curriculum-if-match': unit.etag },
      }),
      400,
      'curriculum:idempotency_key_required',
    );
    expectProblem(await retire(caller, 'unit-a', '"stale"'), 412, 'curriculum:precondition_failed');
    const retired = await retire(caller, 'unit-a', unit.etag);
    expect(retired.status).toBe(200);
    expect(retired.body).toMatchObject({ status: 'retired', version: 2, retired_at: expect.any(String) });
    const active = await http(platform, 'GET', `${curriculumV1}/associations?componentId=unit-a`, {
      token: caller.token,
    });
    expect(active.body.data).toEqual([]);
    const all = await http(platform, 'GET', `${curriculumV1}/associations?componentId=unit-a&includeRetired=true`, {
      token: caller.token,
    });
    expect(all.body.data.map((edge: any) => edge.status)).toEqual(['retired', 'retired']);
    const list = await http(platform, 'GET', `${componentsUrl}?parentId=course`, { token: caller.token });
    expect(list.body.data.map((row: any) => row.component_id)).toEqual(['unit-b']);
    const withRetired = await http(platform, 'GET', `${componentsUrl}?parentId=course&includeRetired=true`, {
      token: caller.token,
    });
    expect(withRetired.body.data.map((row: any) => row.component_id)).toEqual(['unit-a', 'unit-b']);
    const tree = await http(platform, 'GET', `${curriculumV1}/components/course/tree`, { token: caller.token });
    expect(tree.body.children.map((row: any) => row.component_id)).toEqual(['unit-b']);
    const fullTree = await http(platform, 'GET', `${curriculumV1}/components/course/tree?includeRetired=true`, {
      token: caller.token,
    });
    expect(fullTree.body.children.map((row: any) => row.component_id)).toEqual(['unit-a', 'unit-b']);
    expectProblem(await patch(caller, 'unit-a', retired.body.etag, { name: 'x' }), 409, 'curriculum:component_retired');
    // Its child lost its edge, so it lost its parent too: a root with a new version, in no list of the course.
    const orphan = (await readComponent(platform, caller, 'lesson-1')).body;
    expect(orphan).toMatchObject({ parent_component_id: null, position: null, version: 2, status: 'active' });
    const listed = async (query: string) =>
      (await http(platform, 'GET', `${componentsUrl}?${query}`, { token: caller.token })).body.data.map(
        (row: any) => row.component_id,
      );
    expect(await listed('parentId=unit-a')).toEqual([]);
    expect(await listed('courseId=course')).toEqual(['course', 'unit-b']);

    const repost = (body: Record<string, unknown>) =>
      http(platform, 'POST', componentsUrl, { token: caller.token, body });
    expectProblem(await repost({ component_id: 'unit-a', kind: 'lesson' }), 400, 'curriculum:validation_failed');
    expect((await readComponent(platform, caller, 'unit-a')).body).toMatchObject({ kind: 'unit', version: 2 });
    const personal = await createComponent(platform, caller, {
      component_id: 'mine',
      kind: 'course',
      student_id: 's1',
    });
    await retire(caller, 'mine', personal.etag);
    for (const studentId of ['s2', undefined]) {
      const body = { component_id: 'mine', kind: 'course', ...(studentId ? { student_id: studentId } : {}) };
      expectProblem(await repost(body), 400, 'curriculum:validation_failed');
    }
    expect((await readComponent(platform, caller, 'mine')).body).toMatchObject({ student_id: 's1', status: 'retired' });
    const again = await http(platform, 'POST', componentsUrl, {
      token: caller.token,
      body: { component_id: 'unit-a', kind: 'unit', parent_component_id: 'course' },
    });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ status: 'active', version: 3 });
    const read = await readComponent(platform, caller, 'unit-a');
    expect(read.headers.get('etag')).toBe(again.body.etag);
    expect(
      (await http(platform, 'GET', `${curriculumV1}/associations?originId=unit-a`, { token: caller.token })).body.data,
    ).toHaveLength(1);
    // Reactivation brings the parent back alone; the former child stays a root until it is reparented.
    expect(await listed('parentId=unit-a')).toEqual([]);
    expect((await readComponent(platform, caller, 'lesson-1')).body).toEqual(orphan);
    const back = await patch(caller, 'lesson-1', orphan.etag, { parent_component_id: 'unit-a' });
    expect(back.body).toMatchObject({ parent_component_id: 'unit-a', version: 3 });
    expect(await listed('courseId=course')).toEqual(['course', 'lesson-1', 'unit-a', 'unit-b']);
  });
});

describe('retire racing a move into the retiring parent', () => {
  it.skipIf(!process.env.DATABASE_URL)(
    'never deadlocks and leaves one truth (PostgreSQL only: PGlite has one connection)',
    async ({ platform }) => {
      for (let round = 0; round < 8; round += 1) {
        const caller = await newTenant(platform);
        const parent = await createComponent(platform, caller, { component_id: 'p', kind: 'unit' });
        const child = await createComponent(platform, caller, {
          component_id: 'x',
          kind: 'lesson',
          parent_component_id: 'p',
        });
        const [retired, moved] = await Promise.all([
          retire(caller, 'p', parent.etag),
          patch(caller, 'x', child.etag, { parent_component_id: 'p', position: 3 }),
        ]);
        expect(retired.status, JSON.stringify(retired.body)).toBe(200);
        expect([200, 412], JSON.stringify(moved.body)).toContain(moved.status);
        const after = (await readComponent(platform, caller, 'x')).body;
        const edges = await http(platform, 'GET', `${curriculumV1}/associations?originId=x`, { token: caller.token });
        expect([after.parent_component_id, edges.body.data]).toEqual([null, []]);
      }
    },
  );
});

describe('rule 8: several items under one lesson', () => {
  it('adds one practice child per item in sibling order, each with its own pin and the lesson KC', async ({
    platform,
  }) => {
    const caller = await newTenant(platform);
    const kc = await createKc(platform, caller);
    const lessonPin = await eligibleVersion(platform, caller);
    await createComponent(platform, caller, {
      component_id: 'lesson',
      kind: 'lesson',
      alpha: { scope_kc_refs: [kc.kc_id], target_ref: pinOf(lessonPin) },
    });
    const items = [];
    for (let index = 0; index < 3; index += 1)
      items.push(await eligibleVersion(platform, caller, { content_kind: 'question' }));
    for (const [position, item] of items.entries()) {
      await createComponent(platform, caller, {
        component_id: `lesson.practice-${position}`,
        kind: position === 2 ? 'review' : 'practice',
        parent_component_id: 'lesson',
        position,
        alpha: { scope_kc_refs: [kc.kc_id], target_ref: pinOf(item), renderer_ref: 'renderer:qti-test' },
      });
    }
    const children = await http(platform, 'GET', `${componentsUrl}?parentId=lesson`, { token: caller.token });
    expect(children.body.data.map((row: any) => row.alpha.target_ref.content_id)).toEqual(
      items.map((item) => item.contentId),
    );
    const tree = await http(platform, 'GET', `${curriculumV1}/components/lesson/tree`, { token: caller.token });
    expect(tree.body.children.map((row: any) => [row.component_id, row.position])).toEqual([
      ['lesson.practice-0', 0],
      ['lesson.practice-1', 1],
      ['lesson.practice-2', 2],
    ]);
    expect(tree.body.alpha.target_ref).toEqual(pinOf(lessonPin));
  });
});

describe('components: the data written by a refused command', () => {
  it('a refused create leaves no row behind', async ({ platform }) => {
    const caller = await newTenant(platform);
    const before = await tenantRowCounts(platform, caller.tenantId);
    const refused = await http(platform, 'POST', componentsUrl, {
      token: caller.token,
      body: {
        component_id: 'lesson',
        kind: 'lesson',
        alpha: { target_ref: { content_kind: 'article', content_id: randomUUID(), content_version_id: randomUUID() } },
      },
    });
    expectProblem(refused, 409, 'curriculum:target_not_serveable');
    expect(await tenantRowCounts(platform, caller.tenantId)).toEqual(before);
  });
});
