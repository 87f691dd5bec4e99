import { randomUUID } from 'node:crypto';
import { describe, expect } from 'vitest';
import { curriculumV1, graphql, http, newTenant, sameTenant, type Caller } from '../kit.ts';
import { filePlatform, platformTest } from '../platform-test.ts';
import { addPrerequisite, createKc, expectProblem, key, tenantRowCounts } from './helpers.ts';

const it = platformTest();

const relations = `${curriculumV1}/kc-relations`;
const prerequisites = `${curriculumV1}/kc-prerequisites`;

function relate(
  caller: Caller,
  from: string,
  to: string,
  relationType = 'related_to',
  headers: Record<string, string> = key(),
) {
  return http(filePlatform(), 'POST', relations, {
    token: caller.token,
    headers,
    body: { relation_type: relationType, from_kc_id: from, to_kc_id: to },
  });
}
const retireEdge = (caller: Caller, url: string) =>
  http(filePlatform(), 'DELETE', url, { token: caller.token, headers: key() });
const retireKc = (caller: Caller, kc: { kc_id: string; etag: string }) =>
  http(filePlatform(), 'DELETE', `${curriculumV1}/kcs/${kc.kc_id}`, {
    token: caller.token,
    headers: { ...key(), 'if-match': kc.etag },
  });

describe('POST /kc-relations', () => {
  it('stores a symmetric relation once whichever way it is sent, a directed one per direction, and lists by either end', async ({
    platform,
  }) => {
    const caller = await newTenant(platform);
    const [a, b, c] = await Promise.all([1, 2, 3].map(() => createKc(platform, caller)));
    const ab = await relate(caller, a.kc_id, b.kc_id);
    expect(ab.status).toBe(201);
    expect(ab.body).toEqual({
      relation_id: expect.any(String),
      relation_type: 'related_to',
      from_kc_id: a.kc_id,
      to_kc_id: b.kc_id,
      status: 'active',
      created_by: expect.any(String),
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const ba = await relate(caller, b.kc_id, a.kc_id);
    expect([ba.status, ba.body.relation_id]).toEqual([200, ab.body.relation_id]);
    const partOf = await relate(caller, c.kc_id, a.kc_id, 'part_of');
    const wholeOf = await relate(caller, a.kc_id, c.kc_id, 'part_of');
    expect([partOf.status, wholeOf.status]).toEqual([201, 201]);
    expect((await relate(caller, a.kc_id, c.kc_id, 'confusable_with')).status).toBe(201);

    const ids = async (query: string) =>
      (await http(platform, 'GET', `${relations}?${query}`, { token: caller.token })).body.data
        .map((row: any) => `${row.from_kc_id}|${row.relation_type}|${row.to_kc_id}`)
        .sort();
    expect(await ids(`kcId=${b.kc_id}`)).toEqual([`${a.kc_id}|related_to|${b.kc_id}`]);
    expect(await ids(`fromKcId=${c.kc_id}`)).toEqual([`${c.kc_id}|part_of|${a.kc_id}`]);
    expect(await ids(`toKcId=${c.kc_id}&relationType=part_of`)).toEqual([`${a.kc_id}|part_of|${c.kc_id}`]);
    expect(await ids(`relationType=confusable_with`)).toEqual([`${a.kc_id}|confusable_with|${c.kc_id}`]);
    expect(await ids(`updated_since=2999-01-01T00:00:00Z`)).toEqual([]);
    const first = await http(platform, 'GET', `${relations}?limit=3`, { token: caller.token });
    const second = await http(platform, 'GET', `${relations}?limit=3&cursor=${first.body.next_cursor}`, {
      token: caller.token,
    });
    expect([first.body.data.length, second.body.data.length, second.body.next_cursor]).toEqual([3, 1, null]);
    expect((await http(platform, 'GET', `${relations}?limit=0`, { token: caller.token })).body.data).toEqual([]);
    expectProblem(
      await http(platform, 'GET', `${relations}?limit=3&cursor=${first.body.next_cursor}&kcId=${a.kc_id}`, {
        token: caller.token,
      }),
      400,
      'curriculum:validation_failed',
    );
    expectProblem(
      await http(platform, 'GET', `${relations}?relationType=prerequisite`, { token: caller.token }),
      400,
      'curriculum:validation_failed',
    );
  });

  it('refuses self relations, prerequisites as a type, unknown, retired or foreign KCs, a missing key and wrong scopes, writing nothing', async ({
    platform,
  }) => {
    const caller = await newTenant(platform);
    const [a, b] = await Promise.all([1, 2].map(() => createKc(platform, caller)));
    const before = await tenantRowCounts(platform, caller.tenantId);
    expectProblem(await relate(caller, a.kc_id, a.kc_id), 400, 'curriculum:validation_failed');
    expectProblem(await relate(caller, a.kc_id, b.kc_id, 'prerequisite_of'), 400, 'curriculum:validation_failed');
    expectProblem(await relate(caller, a.kc_id, 'not-a-uuid'), 400, 'curriculum:validation_failed');
    expectProblem(await relate(caller, a.kc_id, randomUUID()), 422, 'curriculum:kc_not_active');
    const foreign = await createKc(platform, await newTenant(platform));
    expectProblem(await relate(caller, a.kc_id, foreign.kc_id), 422, 'curriculum:kc_not_active');
    expectProblem(await relate(caller, a.kc_id, b.kc_id, 'related_to', {}), 400, 'curriculum:idempotency_key_required');
    const emptyBody = await http(platform, 'POST', relations, {
      token: caller.token,
      headers: { ...key(), 'content-type': 'application/json' },
      rawBody: '',
    });
    expect([emptyBody.status, emptyBody.body.detail]).toEqual([400, 'The JSON body is empty.']);
    const reader = await sameTenant(platform, caller, { scopes: ['curriculum:read'] });
    expectProblem(await relate(reader, a.kc_id, b.kc_id), 403, 'curriculum:forbidden');
    expectProblem(
      await http(platform, 'POST', relations, { headers: key(), body: {} }),
      401,
      'curriculum:unauthenticated',
    );
    const writerOnly = await sameTenant(platform, caller, { scopes: ['curriculum:write'] });
    expectProblem(await http(platform, 'GET', relations, { token: writerOnly.token }), 403, 'curriculum:forbidden');
    expect(await tenantRowCounts(platform, caller.tenantId)).toEqual(before);

    expect((await retireKc(caller, b)).status).toBe(200);
    expectProblem(await relate(caller, a.kc_id, b.kc_id), 422, 'curriculum:kc_not_active');
  });

  it('replays by Idempotency-Key and refuses the key with another body', async ({ platform }) => {
    const caller = await newTenant(platform);
    const [a, b, c] = await Promise.all([1, 2, 3].map(() => createKc(platform, caller)));
    const headers = key();
    const first = await relate(caller, a.kc_id, b.kc_id, 'part_of', headers);
    const replay = await relate(caller, a.kc_id, b.kc_id, 'part_of', headers);
    expect([replay.status, replay.headers.get('idempotency-replayed'), replay.body]).toEqual([200, 'true', first.body]);
    expectProblem(await relate(caller, a.kc_id, c.kc_id, 'part_of', headers), 409, 'curriculum:idempotency_conflict');
  });

  it('creates one row when the same symmetric pair is sent both ways at once', async ({ platform }) => {
    const caller = await newTenant(platform);
    const [a, b] = await Promise.all([1, 2].map(() => createKc(platform, caller)));
    const replies = await Promise.all([
      relate(caller, a.kc_id, b.kc_id),
      relate(caller, b.kc_id, a.kc_id),
      relate(caller, a.kc_id, b.kc_id),
    ]);
    expect(replies.map((reply) => reply.status).sort()).toEqual([200, 200, 201]);
    expect(new Set(replies.map((reply) => reply.body.relation_id)).size).toBe(1);
  });
});

describe('retiring KC graph edges', () => {
  it('GET and DELETE /kc-relations/{id}: retired relations leave lists, stay readable, and come back when sent again', async ({
    platform,
  }) => {
    const caller = await newTenant(platform);
    const [a, b] = await Promise.all([1, 2].map(() => createKc(platform, caller)));
    const relation = (await relate(caller, a.kc_id, b.kc_id)).body;
    const url = `${relations}/${relation.relation_id}`;
    expect((await http(platform, 'GET', url, { token: caller.token })).body).toEqual(relation);
    expectProblem(
      await http(platform, 'DELETE', url, { token: caller.token }),
      400,
      'curriculum:idempotency_key_required',
    );
    // as curl -H 'Content-Type: application/json' sends it: a JSON media type with no body
    const retired = await http(platform, 'DELETE', url, {
      token: caller.token,
      headers: { ...key(), 'content-type': 'application/json' },
      rawBody: '',
    });
    expect([retired.status, retired.body.status]).toEqual([200, 'retired']);
    const again = await retireEdge(caller, url);
    expect([again.status, again.body]).toEqual([200, retired.body]);
    expect((await http(platform, 'GET', relations, { token: caller.token })).body.data).toEqual([]);
    expect((await http(platform, 'GET', url, { token: caller.token })).body.status).toBe('retired');
    const back = await relate(caller, b.kc_id, a.kc_id);
    expect([back.status, back.body.relation_id, back.body.status]).toEqual([200, relation.relation_id, 'active']);
    expectProblem(
      await http(platform, 'GET', `${relations}/${randomUUID()}`, { token: caller.token }),
      404,
      'curriculum:not_found',
    );
    expectProblem(await retireEdge(caller, `${relations}/nope`), 404, 'curriculum:not_found');
    const stranger = await newTenant(platform);
    expectProblem(await http(platform, 'GET', url, { token: stranger.token }), 404, 'curriculum:not_found');
    expectProblem(await retireEdge(stranger, url), 404, 'curriculum:not_found');
  });

  it('DELETE /kc-prerequisites/{id}: a retired edge no longer blocks its reverse, and re-adding it is checked for cycles again', async ({
    platform,
  }) => {
    const caller = await newTenant(platform);
    const [a, b] = await Promise.all([1, 2].map(() => createKc(platform, caller)));
    const ab = (await addPrerequisite(platform, caller, a.kc_id, b.kc_id)).body;
    const url = `${prerequisites}/${ab.prerequisite_id}`;
    expect((await http(platform, 'GET', url, { token: caller.token })).body).toEqual(ab);
    expect((await retireEdge(caller, url)).body.status).toBe('retired');
    expect(
      (await http(platform, 'GET', `${prerequisites}?kcId=${a.kc_id}`, { token: caller.token })).body.data,
    ).toEqual([]);
    expect((await addPrerequisite(platform, caller, b.kc_id, a.kc_id)).status).toBe(201);
    expectProblem(await addPrerequisite(platform, caller, a.kc_id, b.kc_id), 409, 'curriculum:prerequisite_cycle');
    expect((await http(platform, 'GET', url, { token: caller.token })).body.status).toBe('retired');
    expectProblem(
      await http(platform, 'GET', `${prerequisites}/${randomUUID()}`, { token: caller.token }),
      404,
      'curriculum:not_found',
    );
    const reader = await sameTenant(platform, caller, { scopes: ['curriculum:read'] });
    expectProblem(await retireEdge(reader, url), 403, 'curriculum:forbidden');
  });

  it('a KC with an active relation or prerequisite cannot be retired until those edges are retired', async ({
    platform,
  }) => {
    const caller = await newTenant(platform);
    const [a, b, c] = await Promise.all([1, 2, 3].map(() => createKc(platform, caller)));
    const relation = (await relate(caller, a.kc_id, b.kc_id, 'confusable_with')).body;
    const edge = (await addPrerequisite(platform, caller, a.kc_id, c.kc_id)).body;
    const blocked = await retireKc(caller, a);
    expectProblem(blocked, 409, 'curriculum:kc_in_use');
    expect(blocked.body.active_references).toMatchObject({
      relation_ids: [relation.relation_id],
      prerequisite_ids: [edge.prerequisite_id],
    });
    expectProblem(await retireKc(caller, b), 409, 'curriculum:kc_in_use');
    await retireEdge(caller, `${relations}/${relation.relation_id}`);
    expectProblem(await retireKc(caller, a), 409, 'curriculum:kc_in_use');
    expect((await retireKc(caller, b)).status).toBe(200);
    await retireEdge(caller, `${prerequisites}/${edge.prerequisite_id}`);
    expect((await retireKc(caller, a)).body.status).toBe('retired');
  });
});

describe('KC relations through GraphQL', () => {
  it('creates, reads from the KC, and retires relations and prerequisites with the REST rules and codes', async ({
    platform,
  }) => {
    const caller = await newTenant(platform);
    const [a, b] = await Promise.all([1, 2].map(() => createKc(platform, caller)));
    const created = await graphql(
      platform,
      `
        mutation ($from: ID!, $to: ID!, $key: String!) {
          createKcRelation(relationType: "part_of", fromKcId: $from, toKcId: $to, idempotencyKey: $key) {
            relationId
            relationType
            from {
              kcId
            }
            to {
              kcId
            }
            status
          }
        }
      `,
      { from: a.kc_id, to: b.kc_id, key: randomUUID() },
      caller.token,
    );
    expect(created.body.errors).toBeUndefined();
    const relation = created.body.data.createKcRelation;
    expect(relation).toMatchObject({
      relationType: 'part_of',
      from: { kcId: a.kc_id },
      to: { kcId: b.kc_id },
      status: 'active',
    });
    const read = await graphql(
      platform,
      `
        query ($a: ID!, $b: ID!) {
          a: kc(kcId: $a) {
            relations {
              relationId
            }
          }
          b: kc(kcId: $b) {
            relations {
              relationId
            }
          }
          kcRelations(kcId: $a) {
            data {
              relationId
            }
          }
        }
      `,
      { a: a.kc_id, b: b.kc_id },
      caller.token,
    );
    expect(read.body.data).toEqual({
      a: { relations: [{ relationId: relation.relationId }] },
      b: { relations: [{ relationId: relation.relationId }] },
      kcRelations: { data: [{ relationId: relation.relationId }] },
    });
    const self = await graphql(
      platform,
      `
        mutation ($a: ID!, $key: String!) {
          createKcRelation(relationType: "related_to", fromKcId: $a, toKcId: $a, idempotencyKey: $key) {
            relationId
          }
        }
      `,
      { a: a.kc_id, key: randomUUID() },
      caller.token,
    );
    expect(self.body.errors[0].extensions.code).toBe('curriculum:validation_failed');
    const retired = await graphql(
      platform,
      `
        mutation ($id: ID!, $key: String!) {
          retireKcRelation(relationId: $id, idempotencyKey: $key) {
            status
          }
        }
      `,
      { id: relation.relationId, key: randomUUID() },
      caller.token,
    );
    expect(retired.body.data.retireKcRelation.status).toBe('retired');
    const edge = (await addPrerequisite(platform, caller, a.kc_id, b.kc_id)).body;
    const edgeRetired = await graphql(
      platform,
      `
        mutation ($id: ID!, $key: String!) {
          retireKcPrerequisite(prerequisiteId: $id, idempotencyKey: $key) {
            status
          }
        }
      `,
      { id: edge.prerequisite_id, key: randomUUID() },
      caller.token,
    );
    expect(edgeRetired.body.data.retireKcPrerequisite.status).toBe('retired');
    const lookups = await graphql(
      platform,
      `
        query ($id: ID!, $ghost: ID!) {
          kcPrerequisite(prerequisiteId: $id) {
            status
          }
          kcRelation(relationId: $ghost) {
            status
          }
        }
      `,
      { id: edge.prerequisite_id, ghost: randomUUID() },
      caller.token,
    );
    expect(lookups.body.data).toEqual({ kcPrerequisite: { status: 'retired' }, kcRelation: null });
  });

  it('filters components by sourceCourseRef', async ({ platform }) => {
    const caller = await newTenant(platform);
    const created = await graphql(
      platform,
      `
        mutation {
          createComponent(
            input: { componentId: "vendor-course", kind: "course", alpha: { sourceCourseRef: "ACME-101" } }
          ) {
            alpha {
              sourceCourseRef
            }
          }
        }
      `,
      {},
      caller.token,
    );
    expect(created.body.data.createComponent.alpha.sourceCourseRef).toBe('ACME-101');
    const found = await graphql(
      platform,
      `
        {
          a: components(sourceCourseRef: "ACME-101") {
            data {
              componentId
            }
          }
          b: components(sourceCourseRef: "ACME") {
            data {
              componentId
            }
          }
        }
      `,
      {},
      caller.token,
    );
    expect(found.body.data).toEqual({ a: { data: [{ componentId: 'vendor-course' }] }, b: { data: [] } });
  });
});
