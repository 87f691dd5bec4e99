import { randomUUID } from 'node:crypto';
import { describe, expect } from 'vitest';
import { curriculumV1, eligibleVersion, graphql, http, newTenant, type Caller } from '../kit.ts';
import { filePlatform, platformTest } from '../platform-test.ts';
import { holdLock } from '../held-lock.ts';
import {
  createComponent,
  expectProblem,
  key,
  pinOf,
  readComponent,
  tenantRowCounts,
  trustedNewVersion,
} from './helpers.ts';

const it = platformTest();

const associationsUrl = `${curriculumV1}/associations`;

function associate(caller: Caller, body: Record<string, unknown>) {
  return http(filePlatform(), 'POST', associationsUrl, { token: caller.token, body });
}

/** A course with one unit placed under it; answers the unit. */
async function unitInCourse(caller: Caller): Promise<any> {
  await createComponent(filePlatform(), caller, { component_id: 'course', kind: 'course' });
  return createComponent(filePlatform(), caller, { component_id: 'unit', kind: 'unit', parent_component_id: 'course' });
}

describe('POST /associations', () => {
  it('gives a parentless component its parent once; a second parent is refused; the same pair answers the edge', async ({
    platform,
  }) => {
    const caller = await newTenant(platform);
    await createComponent(platform, caller, { component_id: 'course', kind: 'course' });
    await createComponent(platform, caller, { component_id: 'other', kind: 'course' });
    await createComponent(platform, caller, { component_id: 'unit', kind: 'unit' });
    const edge = await associate(caller, {
      associationType: 'isChildOf',
      originId: 'unit',
      destinationId: 'course',
      sequence_number: 4,
    });
    expect(edge.status).toBe(201);
    expect(edge.body).toMatchObject({
      associationType: 'isChildOf',
      originId: 'unit',
      destinationId: 'course',
      sequence_number: 4,
      status: 'active',
    });
    expect((await readComponent(platform, caller, 'unit')).body).toMatchObject({
      parent_component_id: 'course',
      position: 4,
      version: 2,
    });
    const same = await associate(caller, { associationType: 'isChildOf', originId: 'unit', destinationId: 'course' });
    expect([same.status, same.body.association_id]).toEqual([200, edge.body.association_id]);
    expectProblem(
      await associate(caller, { associationType: 'isChildOf', originId: 'unit', destinationId: 'other' }),
      409,
      'curriculum:second_parent',
    );
    expectProblem(
      await associate(caller, { associationType: 'isChildOf', originId: 'course', destinationId: 'unit' }),
      409,
      'curriculum:containment_cycle',
    );
    // The child is what is missing, not the parent: the problem names the origin.
    const ghostChild = await associate(caller, {
      associationType: 'isChildOf',
      originId: 'ghost',
      destinationId: 'course',
    });
    expectProblem(ghostChild, 422, 'curriculum:origin_not_found');
    expect(ghostChild.body.title).not.toContain('parent');
    expectProblem(
      await associate(caller, { associationType: 'isChildOf', originId: 'other', destinationId: 'ghost' }),
      422,
      'curriculum:parent_not_found',
    );
    expectProblem(
      await associate(caller, { associationType: 'isParentOf', originId: 'other', destinationId: 'course' }),
      400,
      'curriculum:validation_failed',
    );
    const tree = await http(platform, 'GET', `${curriculumV1}/courses/course/tree`, { token: caller.token });
    expect(tree.body.children.map((child: any) => child.component_id)).toEqual(['unit']);
  });

  it('an active pair supersedes the retired history of the same pair', async ({ platform }) => {
    const caller = await newTenant(platform);
    const unit = await unitInCourse(caller);
    await http(platform, 'DELETE', `${curriculumV1}/components/unit`, {
      token: caller.token,
      headers: { ...key(), 'x-curriculum-if-match': unit.etag },
    });
    await http(platform, 'POST', `${curriculumV1}/components`, {
      token: caller.token,
      body: { component_id: 'unit', kind: 'unit', parent_component_id: 'course' },
    });
    const history = await http(platform, 'GET', `${associationsUrl}?originId=unit&includeRetired=true`, {
      token: caller.token,
    });
    expect(history.body.data.map((edge: any) => edge.status)).toEqual(['active']);
  });

  it('a repeated POST naming another sequence_number is refused, not answered with the unchanged edge', async ({
    platform,
  }) => {
    const caller = await newTenant(platform);
    await createComponent(platform, caller, { component_id: 'course', kind: 'course' });
    await createComponent(platform, caller, { component_id: 'unit', kind: 'unit', parent_component_id: 'course' });
    const itemId = randomUUID();
    const aligned = await associate(caller, {
      associationType: 'isRelatedTo',
      originId: 'unit',
      destinationId: itemId,
      sequence_number: 1,
    });
    expect(aligned.status).toBe(201);
    for (const [body, at] of [
      [{ associationType: 'isChildOf', originId: 'unit', destinationId: 'course' }, 0],
      [{ associationType: 'isRelatedTo', originId: 'unit', destinationId: itemId }, 1],
    ] as const) {
      expect((await associate(caller, { ...body, sequence_number: at })).status).toBe(200);
      const moved = await associate(caller, { ...body, sequence_number: at + 5 });
      expectProblem(moved, 409, 'curriculum:association_exists');
      const [edge] = (
        await http(platform, 'GET', `${associationsUrl}?associationType=${body.associationType}&originId=unit`, {
          token: caller.token,
        })
      ).body.data;
      expect(moved.body.association_id).toBe(edge.association_id);
      expect(edge.sequence_number).toBe(at);
    }
    const viaGraphql = await graphql(
      platform,
      'mutation ($input: AssociationInput!) { createAssociation(input: $input) { sequenceNumber } }',
      { input: { associationType: 'isChildOf', originId: 'unit', destinationId: 'course', sequenceNumber: 9 } },
      caller.token,
    );
    expect(viaGraphql.body.errors[0].extensions.code).toBe('curriculum:association_exists');
    expect((await readComponent(platform, caller, 'unit')).body.position).toBe(0);
  });

  it('records a framework alignment from an active component', async ({ platform }) => {
    const caller = await newTenant(platform);
    await createComponent(platform, caller, { component_id: 'lesson', kind: 'lesson' });
    const itemId = randomUUID();
    const aligned = await associate(caller, {
      associationType: 'exactMatchOf',
      originId: 'lesson',
      destinationId: itemId,
    });
    expect(aligned.status).toBe(201);
    expect(
      (await associate(caller, { associationType: 'exactMatchOf', originId: 'lesson', destinationId: itemId })).status,
    ).toBe(200);
    expect((await readComponent(platform, caller, 'lesson')).body.parent_component_id).toBeNull();
    const lesson = await readComponent(platform, caller, 'lesson');
    const retired = await http(platform, 'DELETE', `${curriculumV1}/components/lesson`, {
      token: caller.token,
      headers: { ...key(), 'x-curriculum-if-match': lesson.body.etag },
    });
    expect(retired.status).toBe(200);
    const fromRetired = await associate(caller, {
      associationType: 'exactMatchOf',
      originId: 'lesson',
      destinationId: randomUUID(),
    });
    expectProblem(fromRetired, 422, 'curriculum:origin_not_found');
    expect(fromRetired.body.fieldErrors).toEqual([{ field: 'originId', message: 'no active component with this id' }]);
  });

  it('never gives a personalized course root a parent, as create and PATCH never do', async ({ platform }) => {
    const caller = await newTenant(platform);
    await createComponent(platform, caller, { component_id: 'track', kind: 'track' });
    await createComponent(platform, caller, { component_id: 'mine', kind: 'course', student_id: 'student-1' });
    const before = await tenantRowCounts(platform, caller.tenantId);
    const refused = await associate(caller, { associationType: 'isChildOf', originId: 'mine', destinationId: 'track' });
    expectProblem(refused, 400, 'curriculum:validation_failed');
    expect(refused.body.fieldErrors).toEqual([{ field: 'originId', message: expect.stringContaining('student_id') }]);
    const viaGraphql = await graphql(
      platform,
      'mutation { createAssociation(input: { associationType: "isChildOf", originId: "mine", destinationId: "track" }) { associationId } }',
      {},
      caller.token,
    );
    expect(viaGraphql.body.errors?.[0]?.extensions?.code).toBe('curriculum:validation_failed');
    expect(await tenantRowCounts(platform, caller.tenantId)).toEqual(before);
    const roots = await http(platform, 'GET', `${curriculumV1}/components?kind=course&studentId=student-1`, {
      token: caller.token,
    });
    expect(roots.body.data.map((course: any) => [course.component_id, course.parent_component_id])).toEqual([
      ['mine', null],
    ]);
  });
});

describe('GET /associations and /associations/{id}, PATCH sequence_number', () => {
  it('filters, pages, reads one and reorders siblings with X-Curriculum-If-Match', async ({ platform }) => {
    const caller = await newTenant(platform);
    await createComponent(platform, caller, { component_id: 'course', kind: 'course' });
    for (const id of ['u0', 'u1', 'u2'])
      await createComponent(platform, caller, { component_id: id, kind: 'unit', parent_component_id: 'course' });
    await associate(caller, { associationType: 'isRelatedTo', originId: 'u0', destinationId: randomUUID() });
    const byType = await http(platform, 'GET', `${associationsUrl}?associationType=isChildOf&destinationId=course`, {
      token: caller.token,
    });
    expect(byType.body.data.map((edge: any) => edge.originId).sort()).toEqual(['u0', 'u1', 'u2']);
    expect(
      (await http(platform, 'GET', `${associationsUrl}?componentId=u0`, { token: caller.token })).body.data,
    ).toHaveLength(2);
    expect(
      (await http(platform, 'GET', `${associationsUrl}?originId=u1`, { token: caller.token })).body.data,
    ).toHaveLength(1);
    expect(
      (await http(platform, 'GET', `${associationsUrl}?updated_since=2999-01-01T00:00:00Z`, { token: caller.token }))
        .body.data,
    ).toEqual([]);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: any = await http(
        platform,
        'GET',
        `${associationsUrl}?limit=2&sort=updated_at&order=desc${cursor ? `&cursor=${cursor}` : ''}`,
        { token: caller.token },
      );
      seen.push(...page.body.data.map((edge: any) => edge.association_id));
      cursor = page.body.next_cursor;
    } while (cursor);
    expect(new Set(seen).size).toBe(4);
    expectProblem(
      await http(platform, 'GET', `${associationsUrl}?limit=-1`, { token: caller.token }),
      400,
      'curriculum:validation_failed',
    );

    const edge = byType.body.data.find((row: any) => row.originId === 'u2');
    const one = await http(platform, 'GET', `${associationsUrl}/${edge.association_id}`, { token: caller.token });
    expect([one.status, one.headers.get('etag'), one.body.sequence_number]).toEqual([200, edge.etag, 2]);
    expectProblem(
      await http(platform, 'GET', `${associationsUrl}/${randomUUID()}`, { token: caller.token }),
      404,
      'curriculum:not_found',
    );
    const url = `${associationsUrl}/${edge.association_id}`;
    expectProblem(
      await http(platform, 'PATCH', url, { token: caller.token, headers: key(), body: { sequence_number: 0 } }),
      428,
      'curriculum:precondition_required',
    );
    expectProblem(
      await http(platform, 'PATCH', url, {
        token: caller.token,
        headers: { 'x-curriculum-if-match': edge.etag },
        body: { sequence_number: 0 },
      }),
      400,
      'curriculum:idempotency_key_required',
    );
    expectProblem(
      await http(platform, 'PATCH', url, {
        token: caller.token,
        headers: { ...key(), 'x-curriculum-if-match': '"stale"' },
        body: { sequence_number: 0 },
      }),
      412,
      'curriculum:precondition_failed',
    );
    expectProblem(
      await http(platform, 'PATCH', url, {
        token: caller.token,
        headers: { ...key(), 'x-curriculum-if-match': edge.etag },
        body: { destinationId: 'x' },
      }),
      400,
      'curriculum:validation_failed',
    );
    const moved = await http(platform, 'PATCH', url, {
      token: caller.token,
      headers: { ...key(), 'x-curriculum-if-match': edge.etag },
      body: { sequence_number: 0 },
    });
    expect([moved.status, moved.body.sequence_number]).toEqual([200, 0]);
    expect(moved.body.etag).not.toBe(edge.etag);
    expect((await readComponent(platform, caller, 'u2')).body.position).toBe(0);
    const tree = await http(platform, 'GET', `${curriculumV1}/components/course/tree`, { token: caller.token });
    expect(tree.body.children.map((child: any) => child.component_id)).toEqual(['u0', 'u2', 'u1']);
  });

  it('a retired edge is a state conflict, not a malformed request: 409 association_retired', async ({ platform }) => {
    const caller = await newTenant(platform);
    const unit = await unitInCourse(caller);
    const [edge] = (await http(platform, 'GET', `${associationsUrl}?originId=unit`, { token: caller.token })).body.data;
    const retired = await http(platform, 'DELETE', `${curriculumV1}/components/unit`, {
      token: caller.token,
      headers: { ...key(), 'x-curriculum-if-match': unit.etag },
    });
    expect(retired.status).toBe(200);
    const current = await http(platform, 'GET', `${associationsUrl}/${edge.association_id}`, { token: caller.token });
    const reorder = () =>
      http(platform, 'PATCH', `${associationsUrl}/${edge.association_id}`, {
        token: caller.token,
        headers: { ...key(), 'x-curriculum-if-match': current.body.etag },
        body: { sequence_number: 3 },
      });
    expectProblem(await reorder(), 409, 'curriculum:association_retired');
    const viaGraphql = await graphql(
      platform,
      'mutation ($id: ID!, $tag: String!, $k: String!) { reorderAssociation(associationId: $id, ifMatch: $tag, idempotencyKey: $k, sequenceNumber: 3) { associationId } }',
      { id: edge.association_id, tag: current.body.etag, k: randomUUID() },
      caller.token,
    );
    expect(viaGraphql.body.errors?.[0]?.extensions?.code).toBe('curriculum:association_retired');
    expect(
      (await http(platform, 'GET', `${associationsUrl}/${edge.association_id}`, { token: caller.token })).body,
    ).toEqual(current.body);
  });

  it.skipIf(!process.env.DATABASE_URL)(
    'a reorder waits for the containment lock before it locks its edge, as a retire of its child does (PostgreSQL only)',
    async ({ platform }) => {
      const caller = await newTenant(platform);
      const unit = await unitInCourse(caller);
      const [edge] = (await http(platform, 'GET', `${associationsUrl}?originId=unit`, { token: caller.token })).body
        .data;
      const held = await holdLock(
        (tx) => tx`select pg_advisory_xact_lock(hashtextextended(${`containment|${caller.tenantId}`}, 0))`,
      );
      const reorder = http(platform, 'PATCH', `${associationsUrl}/${edge.association_id}`, {
        token: caller.token,
        headers: { ...key(), 'x-curriculum-if-match': edge.etag },
        body: { sequence_number: 4 },
      });
      await held.waitedOn();
      const retire = http(platform, 'DELETE', `${curriculumV1}/components/unit`, {
        token: caller.token,
        headers: { ...key(), 'x-curriculum-if-match': unit.etag },
      });
      await held.release();
      const [reordered, retired] = await Promise.all([reorder, retire]);
      expect([reordered.status, retired.status], JSON.stringify([reordered.body, retired.body])).toEqual([200, 412]);
    },
  );

  it('two writers reorder with the same ETag: one wins, one gets 412', async ({ platform }) => {
    const caller = await newTenant(platform);
    await createComponent(platform, caller, { component_id: 'course', kind: 'course' });
    await createComponent(platform, caller, { component_id: 'u0', kind: 'unit', parent_component_id: 'course' });
    const [edge] = (await http(platform, 'GET', `${associationsUrl}?originId=u0`, { token: caller.token })).body.data;
    const replies = await Promise.all(
      [5, 6].map((sequence) =>
        http(platform, 'PATCH', `${associationsUrl}/${edge.association_id}`, {
          token: caller.token,
          headers: { ...key(), 'x-curriculum-if-match': edge.etag },
          body: { sequence_number: sequence },
        }),
      ),
    );
    expect(replies.map((reply) => reply.status).sort()).toEqual([200, 412]);
  });
});

describe('POST /components/{id}/repoint (rule 7)', () => {
  function repoint(caller: Caller, componentId: string, body: unknown, idempotencyKey: string | null = randomUUID()) {
    return http(filePlatform(), 'POST', `${curriculumV1}/components/${componentId}/repoint`, {
      token: caller.token,
      headers: idempotencyKey === null ? {} : { 'idempotency-key': idempotencyKey },
      body,
    });
  }

  it('attaches a first pin, then repoints to another exact version of the same content, one audit row each', async ({
    platform,
  }) => {
    const caller = await newTenant(platform);
    const first = await eligibleVersion(platform, caller);
    await createComponent(platform, caller, { component_id: 'lesson', kind: 'lesson' });
    const attach = await repoint(caller, 'lesson', { operation: 'attach', target_ref: pinOf(first) });
    expect(attach.status, JSON.stringify(attach.body)).toBe(201);
    expect(attach.body).toMatchObject({
      operation: 'attach',
      previous_target_ref: null,
      target_ref: pinOf(first),
      component: { version: 2 },
    });
    expect(attach.headers.get('etag')).toBe(attach.body.component.etag);
    const secondId = await trustedNewVersion(platform, caller, first.contentId);
    const second = { ...first, versionId: secondId };
    const idempotencyKey = randomUUID();
    const body = { operation: 'repoint', expected_target_ref: pinOf(first), target_ref: pinOf(second) };
    const moved = await repoint(caller, 'lesson', body, idempotencyKey);
    expect(moved.status, JSON.stringify(moved.body)).toBe(201);
    expect(moved.body).toMatchObject({
      operation: 'repoint',
      previous_target_ref: pinOf(first),
      target_ref: pinOf(second),
    });
    expect((await readComponent(platform, caller, 'lesson')).body.alpha.target_ref).toEqual(pinOf(second));
    const replay = await repoint(caller, 'lesson', body, idempotencyKey);
    expect([replay.status, replay.headers.get('idempotency-replayed'), replay.body.repoint_id]).toEqual([
      200,
      'true',
      moved.body.repoint_id,
    ]);
    expect((await tenantRowCounts(platform, caller.tenantId)).pin_audit).toBe(2);
  });

  it('answers the four 409 codes of rule 7 and writes nothing', async ({ platform }) => {
    const caller = await newTenant(platform);
    const first = await eligibleVersion(platform, caller);
    await createComponent(platform, caller, {
      component_id: 'lesson',
      kind: 'lesson',
      alpha: { target_ref: pinOf(first) },
    });
    const before = await tenantRowCounts(platform, caller.tenantId);
    const other = await eligibleVersion(platform, caller);
    const secondId = await trustedNewVersion(platform, caller, first.contentId);
    expectProblem(
      await repoint(caller, 'lesson', {
        operation: 'repoint',
        expected_target_ref: pinOf(other),
        target_ref: pinOf({ ...first, versionId: secondId }),
      }),
      409,
      'curriculum:repoint_pin_stale',
    );
    expectProblem(
      await repoint(caller, 'lesson', {
        operation: 'repoint',
        expected_target_ref: pinOf(first),
        target_ref: pinOf(other),
      }),
      409,
      'curriculum:repoint_identity_mismatch',
    );
    expectProblem(
      await repoint(caller, 'lesson', {
        operation: 'repoint',
        expected_target_ref: pinOf(first),
        target_ref: { ...pinOf(first), content_kind: 'video' },
      }),
      409,
      'curriculum:repoint_identity_mismatch',
    );
    expectProblem(
      await repoint(caller, 'lesson', { operation: 'attach', target_ref: pinOf(other) }),
      409,
      'curriculum:repoint_pin_stale',
    );
    expectProblem(
      await repoint(caller, 'lesson', {
        operation: 'repoint',
        expected_target_ref: pinOf(first),
        target_ref: pinOf({ ...first, versionId: randomUUID() }),
      }),
      409,
      'curriculum:repoint_target_not_serveable',
    );
    const secure = await eligibleVersion(platform, caller, { usage_scope: 'secure_form' });
    await createComponent(platform, caller, { component_id: 'practice', kind: 'practice' });
    expectProblem(
      await repoint(caller, 'practice', { operation: 'attach', target_ref: pinOf(secure) }),
      409,
      'curriculum:repoint_target_not_serveable',
    );
    const test = await eligibleVersion(platform, caller, { content_kind: 'test' });
    await createComponent(platform, caller, {
      component_id: 'quiz',
      kind: 'practice',
      alpha: { publication_status: 'published', target_ref: pinOf(test) },
    });
    const testNext = await trustedNewVersion(platform, caller, test.contentId);
    expectProblem(
      await repoint(caller, 'quiz', {
        operation: 'repoint',
        expected_target_ref: pinOf(test),
        target_ref: pinOf({ ...test, versionId: testNext }),
      }),
      409,
      'curriculum:approved_chain_repoint_frozen',
    );
    const after = await tenantRowCounts(platform, caller.tenantId);
    expect(after.pin_audit).toBe(before.pin_audit + 1); // the quiz's create pin only
  });

  it('refuses malformed bodies, a missing key, unknown or pinless components', async ({ platform }) => {
    const caller = await newTenant(platform);
    const version = await eligibleVersion(platform, caller);
    await createComponent(platform, caller, { component_id: 'unit', kind: 'unit' });
    expectProblem(
      await repoint(caller, 'unit', { operation: 'attach', target_ref: pinOf(version) }),
      400,
      'curriculum:validation_failed',
    );
    expectProblem(
      await repoint(caller, 'ghost', { operation: 'attach', target_ref: pinOf(version) }),
      404,
      'curriculum:not_found',
    );
    expectProblem(
      await repoint(caller, 'unit', { operation: 'repoint', target_ref: pinOf(version) }),
      400,
      'curriculum:validation_failed',
    );
    expectProblem(
      await repoint(caller, 'unit', { operation: 'move', target_ref: pinOf(version) }),
      400,
      'curriculum:validation_failed',
    );
    expectProblem(
      await repoint(caller, 'unit', { operation: 'attach', target_ref: pinOf(version) }, null),
      400,
      'curriculum:idempotency_key_required',
    );
  });
});

describe('GET /renderer-registry', () => {
  it('lists the registry; renderer_kind resolves to the same row as renderer_ref', async ({ platform }) => {
    const caller = await newTenant(platform);
    const all = await http(platform, 'GET', `${curriculumV1}/renderer-registry`, { token: caller.token });
    expect(all.body.data.map((row: any) => row.renderer_ref)).toEqual([
      'renderer:interactive-lesson',
      'renderer:qti-test',
    ]);
    const byRef = await http(platform, 'GET', `${curriculumV1}/renderer-registry?renderer_ref=renderer:qti-test`, {
      token: caller.token,
    });
    const byKind = await http(platform, 'GET', `${curriculumV1}/renderer-registry?renderer_kind=qti_test`, {
      token: caller.token,
    });
    expect(byKind.body).toEqual(byRef.body);
    expect(byKind.body.data).toHaveLength(1);
    expect(
      (await http(platform, 'GET', `${curriculumV1}/renderer-registry?renderer_kind=nope`, { token: caller.token }))
        .body.data,
    ).toEqual([]);
    expectProblem(await http(platform, 'GET', `${curriculumV1}/renderer-registry`), 401, 'curriculum:unauthenticated');
    const lesson = await createComponent(platform, caller, {
      component_id: 'l',
      kind: 'lesson',
      alpha: { renderer_kind: 'interactive_lesson' },
    });
    expect(lesson.alpha.renderer_ref).toBe('renderer:interactive-lesson');
  });
});
