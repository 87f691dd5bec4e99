import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { curriculumV1, graphql, http, newTenant, sameTenant } from '../kit.ts';
import { filePlatform, platformTest } from '../platform-test.ts';
import { addPrerequisite, createComponent, createKc, expectProblem, kcBody, key, tenantRowCounts } from './helpers.ts';

const it = platformTest();

const kcs = `${curriculumV1}/kcs`;

describe('POST /kcs (rule 5)', () => {
  it('creates a KC with a first draft version, repeats stored_as, returns no name and no document_id', async ({
    platform,
  }) => {
    const caller = await newTenant(platform);
    const kcId = randomUUID();
    const created = await http(platform, 'POST', kcs, {
      token: caller.token,
      body: kcBody({ kc_id: kcId, source_kc_id: 'vendor-kc-1' }),
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('etag')).toBe(created.body.etag);
    expect(created.body).toMatchObject({
      kc_id: kcId,
      stored_as: 'alpha.knowledge_component',
      source_kc_id: 'vendor-kc-1',
      publication_status: 'draft',
      status: 'active',
      current_version: { version_number: 1, state: 'draft', kc_id: kcId },
    });
    expect(created.body.current_version_id).toBe(created.body.current_version.version_id);
    expect(created.body).not.toHaveProperty('name');
    expect(created.body).not.toHaveProperty('document_id');
  });

  it.each([
    ['a name field', { name: 'Fractions' }, 'name'],
    ['a CASE document_id', { document_id: randomUUID() }, 'document_id'],
    ['another stored_as (legacy CASE KC)', { stored_as: 'case.cf_item' }, 'stored_as'],
    ['no definition', { definition: undefined }, 'definition'],
    ['a name inside alpha', { alpha: { name: 'x' } }, 'alpha.name'],
  ])('refuses %s with 400 and writes nothing', async (_label, overrides, field) => {
    const caller = await newTenant(filePlatform());
    const reply = await http(filePlatform(), 'POST', kcs, { token: caller.token, body: kcBody(overrides) });
    expectProblem(reply, 400, 'curriculum:validation_failed');
    expect(reply.body.fieldErrors.map((error: { field: string }) => error.field).join(' ')).toContain(field);
    expect((await tenantRowCounts(filePlatform(), caller.tenantId)).knowledge_components).toBe(0);
  });

  it('retries by Idempotency-Key (replay) or by the exact kc_id (same KC), never twice', async ({ platform }) => {
    const caller = await newTenant(platform);
    const headers = key();
    const body = kcBody();
    const first = await http(platform, 'POST', kcs, { token: caller.token, headers, body });
    const replay = await http(platform, 'POST', kcs, { token: caller.token, headers, body });
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotency-replayed')).toBe('true');
    expect(replay.body.kc_id).toBe(first.body.kc_id);
    const changed = await http(platform, 'POST', kcs, {
      token: caller.token,
      headers,
      body: { ...body, definition: 'Other' },
    });
    expectProblem(changed, 409, 'curriculum:idempotency_conflict');
    const untrimmed = await http(platform, 'POST', kcs, {
      token: caller.token,
      headers,
      body: { ...body, definition: `${body.definition}  ` },
    });
    expectProblem(untrimmed, 409, 'curriculum:idempotency_conflict');

    const exact = { ...kcBody(), kc_id: randomUUID() };
    expect((await http(platform, 'POST', kcs, { token: caller.token, body: exact })).status).toBe(201);
    const again = await http(platform, 'POST', kcs, { token: caller.token, body: exact });
    expect([again.status, again.body.kc_id]).toEqual([200, exact.kc_id]);
    const other = await http(platform, 'POST', kcs, {
      token: caller.token,
      body: { ...exact, definition: 'Something else' },
    });
    expectProblem(other, 409, 'curriculum:kc_exists');
    expect((await tenantRowCounts(platform, caller.tenantId)).knowledge_components).toBe(2);
  });

  it('refuses a reused source_kc_id under another or a server-minted kc_id without partial rows', async ({
    platform,
  }) => {
    const caller = await newTenant(platform);
    await createKc(platform, caller, { kc_id: randomUUID(), source_kc_id: 'src-7' });
    const before = await tenantRowCounts(platform, caller.tenantId);
    for (const body of [kcBody({ source_kc_id: 'src-7' }), kcBody({ source_kc_id: 'src-7', kc_id: randomUUID() })]) {
      const reply = await http(platform, 'POST', kcs, { token: caller.token, body });
      expectProblem(reply, 409, 'curriculum:source_kc_id_taken');
    }
    expect(await tenantRowCounts(platform, caller.tenantId)).toEqual(before);
    // source_kc_id is never a lookup.
    expectProblem(await http(platform, 'GET', `${kcs}/src-7`, { token: caller.token }), 404, 'curriculum:not_found');
  });

  it('creates once under parallel identical Idempotency-Keys', async ({ platform }) => {
    const caller = await newTenant(platform);
    const headers = key();
    const body = kcBody();
    const replies = await Promise.all(
      Array.from({ length: 5 }, () => http(platform, 'POST', kcs, { token: caller.token, headers, body })),
    );
    expect(replies.map((reply) => reply.status).sort()).toEqual([200, 200, 200, 200, 201]);
    expect(new Set(replies.map((reply) => reply.body.kc_id)).size).toBe(1);
    expect((await tenantRowCounts(platform, caller.tenantId)).knowledge_components).toBe(1);
  });

  it('needs a token and curriculum:write', async ({ platform }) => {
    const caller = await newTenant(platform);
    expectProblem(await http(platform, 'POST', kcs, { body: kcBody() }), 401, 'curriculum:unauthenticated');
    const reader = await sameTenant(platform, caller, { scopes: ['curriculum:read'] });
    expectProblem(
      await http(platform, 'POST', kcs, { token: reader.token, body: kcBody() }),
      403,
      'curriculum:forbidden',
    );
    const writerOnly = await sameTenant(platform, caller, { scopes: ['curriculum:write'] });
    expectProblem(await http(platform, 'GET', kcs, { token: writerOnly.token }), 403, 'curriculum:forbidden');
  });
});

describe('GET /kcs and /kcs/{kcId}', () => {
  it('reads a KC with its current version and ETag; other tenants see 404', async ({ platform }) => {
    const caller = await newTenant(platform);
    const kc = await createKc(platform, caller);
    const read = await http(platform, 'GET', `${kcs}/${kc.kc_id}`, { token: caller.token });
    expect(read.status).toBe(200);
    expect(read.headers.get('etag')).toBe(kc.etag);
    expect(read.body.current_version.version_id).toBe(kc.current_version_id);
    const stranger = await newTenant(platform);
    expectProblem(
      await http(platform, 'GET', `${kcs}/${kc.kc_id}`, { token: stranger.token }),
      404,
      'curriculum:not_found',
    );
    expectProblem(
      await http(platform, 'GET', `${kcs}/${randomUUID()}`, { token: caller.token }),
      404,
      'curriculum:not_found',
    );
  });

  it('lists with subject_id, kc_kind, publication_status and updated_since filters and cursor paging', async ({
    platform,
  }) => {
    const caller = await newTenant(platform);
    const math = await Promise.all([1, 2, 3].map(() => createKc(platform, caller)));
    const reading = await createKc(platform, caller, { alpha: { subject_id: 'reading', kc_kind: 'procedural' } });
    const bySubject = await http(platform, 'GET', `${kcs}?subject_id=math`, { token: caller.token });
    expect(bySubject.body.data.map((kc: any) => kc.kc_id).sort()).toEqual(math.map((kc) => kc.kc_id).sort());
    const byKind = await http(platform, 'GET', `${kcs}?kc_kind=procedural`, { token: caller.token });
    expect(byKind.body.data.map((kc: any) => kc.kc_id)).toEqual([reading.kc_id]);
    const published = await http(platform, 'GET', `${kcs}?publication_status=published`, { token: caller.token });
    expect(published.body.data).toEqual([]);
    const future = await http(platform, 'GET', `${kcs}?updated_since=2999-01-01T00:00:00Z`, { token: caller.token });
    expect(future.body.data).toEqual([]);

    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: any = await http(platform, 'GET', `${kcs}?limit=3${cursor ? `&cursor=${cursor}` : ''}`, {
        token: caller.token,
      });
      expect(page.status).toBe(200);
      seen.push(...page.body.data.map((kc: any) => kc.kc_id));
      cursor = page.body.next_cursor;
    } while (cursor);
    expect(seen.sort()).toEqual([...math, reading].map((kc) => kc.kc_id).sort());
    expectProblem(
      await http(platform, 'GET', `${kcs}?cursor=forged.cursor`, { token: caller.token }),
      400,
      'curriculum:validation_failed',
    );
    expectProblem(
      await http(platform, 'GET', `${kcs}?limit=-1`, { token: caller.token }),
      400,
      'curriculum:validation_failed',
    );
  });

  it('refuses a limit that is not written in decimal digits (an empty one answered an empty page)', async ({
    platform,
  }) => {
    const caller = await newTenant(platform);
    await createKc(platform, caller);
    for (const limit of ['', '%205', '0x10', '1e2']) {
      const reply = await http(platform, 'GET', `${kcs}?limit=${limit}`, { token: caller.token });
      expectProblem(reply, 400, 'curriculum:validation_failed');
      expect(reply.body.fieldErrors).toEqual([{ field: 'limit', message: expect.any(String) }]);
    }
    const decimal = await http(platform, 'GET', `${kcs}?limit=5`, { token: caller.token });
    expect([decimal.status, decimal.body.data.length]).toEqual([200, 1]);
  });
});

describe('KC versions', () => {
  it('appends immutable numbered draft versions, lists them in order and reads one', async ({ platform }) => {
    const caller = await newTenant(platform);
    const kc = await createKc(platform, caller);
    const url = `${kcs}/${kc.kc_id}/versions`;
    const second = await http(platform, 'POST', url, {
      token: caller.token,
      headers: key(),
      body: { definition: 'Sharper definition' },
    });
    expect(second.status).toBe(201);
    expect(second.body).toMatchObject({ version_number: 2, state: 'draft', definition: 'Sharper definition' });
    const third = await http(platform, 'POST', url, {
      token: caller.token,
      headers: key(),
      body: { alpha: { subject_id: 'math', kc_kind: 'substantive', misconceptions: ['bigger denominator is bigger'] } },
    });
    expect(third.body.version_number).toBe(3);
    const read = await http(platform, 'GET', `${kcs}/${kc.kc_id}`, { token: caller.token });
    expect(read.body.current_version_id).toBe(third.body.version_id);
    expect(read.body.definition).toBe('Sharper definition');
    expect(read.headers.get('etag')).not.toBe(kc.etag);
    const list = await http(platform, 'GET', `${url}?limit=2`, { token: caller.token });
    expect(list.body.data.map((version: any) => version.version_number)).toEqual([1, 2]);
    const rest = await http(platform, 'GET', `${url}?cursor=${list.body.next_cursor}`, { token: caller.token });
    expect(rest.body.data.map((version: any) => version.version_number)).toEqual([3]);
    const one = await http(platform, 'GET', `${url}/${second.body.version_id}`, { token: caller.token });
    expect(one.body).toEqual(second.body);
    expectProblem(
      await http(platform, 'GET', `${url}/${randomUUID()}`, { token: caller.token }),
      404,
      'curriculum:not_found',
    );
    expectProblem(
      await http(platform, 'GET', `${kcs}/${randomUUID()}/versions`, { token: caller.token }),
      404,
      'curriculum:not_found',
    );
    expectProblem(
      await http(platform, 'POST', url, { token: caller.token, body: {} }),
      400,
      'curriculum:idempotency_key_required',
    );
    expectProblem(
      await http(platform, 'POST', url, { token: caller.token, headers: key(), body: { name: 'x' } }),
      400,
      'curriculum:validation_failed',
    );
    expectProblem(
      await http(platform, 'POST', `${kcs}/${randomUUID()}/versions`, {
        token: caller.token,
        headers: key(),
        body: {},
      }),
      404,
      'curriculum:not_found',
    );
  });

  it('a kc_id in upper case names the same KC on every read, REST and GraphQL', async ({ platform }) => {
    const caller = await newTenant(platform);
    const kc = await createKc(platform, caller);
    const upper = kc.kc_id.toUpperCase();
    const version = await http(platform, 'GET', `${kcs}/${upper}/versions/${kc.current_version_id.toUpperCase()}`, {
      token: caller.token,
    });
    expect([version.status, version.body.version_id]).toEqual([200, kc.current_version_id]);
    const read = await graphql(
      platform,
      'query($kcId: ID!) { kc(kcId: $kcId) { kcId } }',
      { kcId: upper },
      caller.token,
    );
    expect(read.body).toEqual({ data: { kc: { kcId: kc.kc_id } } });
  });

  it('the database refuses UPDATE and DELETE of versions, review decisions and firming events', async ({
    platform,
  }) => {
    const caller = await newTenant(platform);
    const kc = await createKc(platform, caller);
    const { db } = platform.runtime.database;
    await expect(
      db.execute(sql`update curriculum.kc_versions set definition = 'x' where tenant_id = ${caller.tenantId}`),
    ).rejects.toThrow();
    await expect(
      db.execute(sql`delete from curriculum.kc_versions where tenant_id = ${caller.tenantId}`),
    ).rejects.toThrow();
    const versionId = kc.current_version_id;
    await http(platform, 'POST', `${curriculumV1}/kc-review-decisions`, {
      token: caller.token,
      headers: key(),
      body: { kc_version_id: versionId, decision: 'approved' },
    });
    await http(platform, 'POST', `${curriculumV1}/kc-firming-events`, {
      token: caller.token,
      headers: key(),
      body: { kc_version_id: versionId, source: 'first_genuine_response' },
    });
    for (const table of ['kc_review_decisions', 'kc_firming_events']) {
      await expect(
        db.execute(
          sql`update ${sql.raw(`curriculum.${table}`)} set kc_id = kc_id where tenant_id = ${caller.tenantId}`,
        ),
      ).rejects.toThrow();
      await expect(
        db.execute(sql`delete from ${sql.raw(`curriculum.${table}`)} where tenant_id = ${caller.tenantId}`),
      ).rejects.toThrow();
    }
    const read = await http(platform, 'GET', `${kcs}/${kc.kc_id}/versions`, { token: caller.token });
    expect(read.body.data).toHaveLength(1);
  });
});

describe('PATCH /kcs/{kcId} (identity publication)', () => {
  it('publishes with If-Match and Idempotency-Key and never firms the version', async ({ platform }) => {
    const caller = await newTenant(platform);
    const kc = await createKc(platform, caller);
    const url = `${kcs}/${kc.kc_id}`;
    const body = { publication_status: 'published' };
    expectProblem(
      await http(platform, 'PATCH', url, { token: caller.token, headers: key(), body }),
      428,
      'curriculum:precondition_required',
    );
    expectProblem(
      await http(platform, 'PATCH', url, { token: caller.token, headers: { 'if-match': kc.etag }, body }),
      400,
      'curriculum:idempotency_key_required',
    );
    expectProblem(
      await http(platform, 'PATCH', url, { token: caller.token, headers: { ...key(), 'if-match': '"stale"' }, body }),
      412,
      'curriculum:precondition_failed',
    );
    expectProblem(
      await http(platform, 'PATCH', url, {
        token: caller.token,
        headers: { ...key(), 'if-match': kc.etag },
        body: { publication_status: 'draft' },
      }),
      400,
      'curriculum:validation_failed',
    );
    expectProblem(
      await http(platform, 'PATCH', url, {
        token: caller.token,
        headers: { ...key(), 'if-match': kc.etag },
        body: { definition: 'x', publication_status: 'published' },
      }),
      400,
      'curriculum:validation_failed',
    );
    expectProblem(
      await http(platform, 'PATCH', `${kcs}/${randomUUID()}`, {
        token: caller.token,
        headers: { ...key(), 'if-match': kc.etag },
        body,
      }),
      404,
      'curriculum:not_found',
    );
    const headers = { ...key(), 'if-match': kc.etag };
    const published = await http(platform, 'PATCH', url, { token: caller.token, headers, body });
    expect(published.status).toBe(200);
    expect(published.body).toMatchObject({ publication_status: 'published', current_version: { state: 'draft' } });
    expect(published.headers.get('etag')).not.toBe(kc.etag);
    const replay = await http(platform, 'PATCH', url, { token: caller.token, headers, body });
    expect([replay.status, replay.headers.get('idempotency-replayed')]).toEqual([200, 'true']);
    expect(
      (await http(platform, 'GET', `${curriculumV1}/kc-firming-events`, { token: caller.token })).body.data,
    ).toEqual([]);
  });

  it('two writers with the same ETag: one wins, the other gets 412', async ({ platform }) => {
    const caller = await newTenant(platform);
    const kc = await createKc(platform, caller);
    const replies = await Promise.all(
      [0, 1].map(() =>
        http(platform, 'PATCH', `${kcs}/${kc.kc_id}`, {
          token: caller.token,
          headers: { ...key(), 'if-match': kc.etag },
          body: { publication_status: 'published' },
        }),
      ),
    );
    expect(replies.map((reply) => reply.status).sort()).toEqual([200, 412]);
  });
});

describe('DELETE /kcs/{kcId} (soft-retire)', () => {
  it('is refused while a prerequisite, a component scope or a remediation entry references the KC', async ({
    platform,
  }) => {
    const caller = await newTenant(platform);
    const [a, b, c] = await Promise.all([1, 2, 3].map(() => createKc(platform, caller)));
    expect((await addPrerequisite(platform, caller, a.kc_id, b.kc_id)).status).toBe(201);
    await createComponent(platform, caller, {
      component_id: 'unit-1',
      kind: 'unit',
      alpha: { scope_kc_refs: [c.kc_id] },
    });
    await createComponent(platform, caller, {
      component_id: 'unit-2',
      kind: 'unit',
      alpha: { remediation_entries: [{ kc_ref: c.kc_id, kind: 'never_learned' }] },
    });
    const retire = (kc: any) =>
      http(platform, 'DELETE', `${kcs}/${kc.kc_id}`, {
        token: caller.token,
        headers: { ...key(), 'if-match': kc.etag },
      });
    const blockedA = await retire(a);
    expectProblem(blockedA, 409, 'curriculum:kc_in_use');
    expect(blockedA.body.active_references.prerequisite_ids).toHaveLength(1);
    expectProblem(await retire(b), 409, 'curriculum:kc_in_use');
    const blockedC = await retire(c);
    expectProblem(blockedC, 409, 'curriculum:kc_in_use');
    expect(blockedC.body.active_references).toMatchObject({
      scope_component_ids: ['unit-1'],
      remediation_component_ids: ['unit-2'],
    });
    expect((await http(platform, 'GET', `${kcs}/${c.kc_id}`, { token: caller.token })).body.status).toBe('active');
  });

  it('retires an unreferenced KC, hides it from lists, and refuses it as a new reference', async ({ platform }) => {
    const caller = await newTenant(platform);
    const kc = await createKc(platform, caller);
    const url = `${kcs}/${kc.kc_id}`;
    expectProblem(
      await http(platform, 'DELETE', url, { token: caller.token, headers: key() }),
      428,
      'curriculum:precondition_required',
    );
    expectProblem(
      await http(platform, 'DELETE', url, { token: caller.token, headers: { 'if-match': kc.etag } }),
      400,
      'curriculum:idempotency_key_required',
    );
    const retired = await http(platform, 'DELETE', url, {
      token: caller.token,
      headers: { ...key(), 'if-match': kc.etag },
    });
    expect(retired.status).toBe(200);
    expect(retired.body).toMatchObject({ status: 'retired', retired_at: expect.any(String) });
    expect((await http(platform, 'GET', kcs, { token: caller.token })).body.data).toEqual([]);
    expect((await http(platform, 'GET', `${kcs}?includeRetired=true`, { token: caller.token })).body.data).toHaveLength(
      1,
    );
    const scoped = await http(platform, 'POST', `${curriculumV1}/components`, {
      token: caller.token,
      body: { component_id: 'u', kind: 'unit', alpha: { scope_kc_refs: [kc.kc_id] } },
    });
    expectProblem(scoped, 422, 'curriculum:kc_not_active');
    const publish = await http(platform, 'PATCH', url, {
      token: caller.token,
      headers: { ...key(), 'if-match': retired.body.etag },
      body: { publication_status: 'published' },
    });
    expectProblem(publish, 409, 'curriculum:kc_retired');
    expectProblem(
      await http(platform, 'POST', `${url}/versions`, { token: caller.token, headers: key(), body: {} }),
      409,
      'curriculum:kc_retired',
    );
  });
});
