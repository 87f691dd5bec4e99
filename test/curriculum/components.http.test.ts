import { randomUUID } from 'node:crypto';
import { describe, expect } from 'vitest';
import { curriculumV1, eligibleVersion, graphql, http, newTenant, sameTenant, type Caller } from '../kit.ts';
import { filePlatform, platformTest } from '../platform-test.ts';
import {
  casePackage,
  createComponent,
  createKc,
  expectProblem,
  importStandards,
  kcBody,
  key,
  pinOf,
  readComponent,
  tenantRowCounts,
} from './helpers.ts';

const it = platformTest();

const componentsUrl = `${curriculumV1}/components`;
const post = (caller: Caller, body: unknown) =>
  http(filePlatform(), 'POST', componentsUrl, { token: caller.token, body });

describe('POST /components', () => {
  it('creates each of the seven kinds with its fields, answers an identical retry 200 and a different one 409', async ({
    platform,
  }) => {
    const caller = await newTenant(platform);
    const kc = await createKc(platform, caller);
    const version = await eligibleVersion(platform, caller);
    const framework = (await importStandards(platform, caller, casePackage())).body;
    await createComponent(platform, caller, {
      component_id: 'track',
      kind: 'track',
      alpha: { engine_ref: 'engine:v1', entry_policy_ref: 'p:in', exit_policy_ref: 'p:out' },
    });
    const course = await createComponent(platform, caller, {
      component_id: 'course',
      kind: 'course',
      parent_component_id: 'track',
      document_id: randomUUID(),
      name: 'Fractions',
      human_coding_scheme: 'MATH.3.NF',
      alpha: {
        subject_id: 'math',
        audience: 'shared',
        course_kind: 'static',
        course_grade_mode: 'multi_grade',
        course_grade_levels: [-1, 0],
        standards_framework_refs: [framework.standards_framework_id],
      },
    });
    expect(course).toMatchObject({
      component_id: 'course',
      parent_component_id: 'track',
      position: 0,
      version: 1,
      status: 'active',
      alpha: { publication_status: 'draft' },
    });
    await createComponent(platform, caller, {
      component_id: 'unit',
      kind: 'unit',
      parent_component_id: 'course',
      alpha: { grade_level: 12 },
    });
    const lesson = await createComponent(platform, caller, {
      component_id: 'lesson',
      kind: 'lesson',
      parent_component_id: 'unit',
      alpha: {
        scope_kc_refs: [kc.kc_id],
        target_ref: pinOf(version),
        renderer_ref: 'renderer:interactive-lesson',
        expected_xp: 10,
        remediation_entries: [{ kc_ref: kc.kc_id }],
      },
    });
    expect(lesson.alpha.target_ref).toEqual(pinOf(version));
    await createComponent(platform, caller, {
      component_id: 'practice',
      kind: 'practice',
      parent_component_id: 'unit',
      alpha: { scope_kc_refs: [kc.kc_id] },
    });
    await createComponent(platform, caller, { component_id: 'review', kind: 'review', parent_component_id: 'unit' });
    await createComponent(platform, caller, {
      component_id: 'gate',
      kind: 'mastery_gate',
      parent_component_id: 'unit',
      alpha: { publication_status: 'draft' },
    });
    const noKc = await createComponent(platform, caller, {
      component_id: 'no-kc',
      kind: 'lesson',
      alpha: { scope_kc_refs: [], kc_scope_decision: 'authoritative_no_kc', target_ref: pinOf(version) },
    });
    expect(noKc.alpha.scope_kc_refs).toEqual([]);
    const retry = await post(caller, { component_id: 'review', kind: 'review', parent_component_id: 'unit' });
    expect([retry.status, retry.body.version]).toEqual([200, 1]);
    expectProblem(
      await post(caller, { component_id: 'review', kind: 'practice', parent_component_id: 'unit' }),
      409,
      'curriculum:component_exists',
    );
    const read = await readComponent(platform, caller, 'lesson');
    expect([read.status, read.headers.get('etag')]).toEqual([200, lesson.etag]);
  });

  it.each([
    ['an unknown kind', { component_id: 'x', kind: 'chapter' }],
    ['a grade level out of -1..12', { component_id: 'x', kind: 'unit', alpha: { grade_level: -2 } }],
    [
      'single_grade with two levels',
      { component_id: 'x', kind: 'course', alpha: { course_grade_mode: 'single_grade', course_grade_levels: [3, 4] } },
    ],
    [
      'multi_grade with one level',
      { component_id: 'x', kind: 'course', alpha: { course_grade_mode: 'multi_grade', course_grade_levels: [3] } },
    ],
    [
      'multi_grade with one level named twice',
      { component_id: 'x', kind: 'course', alpha: { course_grade_mode: 'multi_grade', course_grade_levels: [3, 3] } },
    ],
    ['student_id below the root', { component_id: 'x', kind: 'course', parent_component_id: 'p', student_id: 's-1' }],
    ['student_id on a unit', { component_id: 'x', kind: 'unit', student_id: 's-1' }],
    ['a mastery_gate without publication_status', { component_id: 'x', kind: 'mastery_gate' }],
    [
      'a published mastery_gate without its pin',
      {
        component_id: 'x',
        kind: 'mastery_gate',
        alpha: { publication_status: 'published', renderer_ref: 'renderer:qti-test' },
      },
    ],
    [
      'a pin on a unit',
      {
        component_id: 'x',
        kind: 'unit',
        alpha: { target_ref: { content_kind: 'article', content_id: randomUUID(), content_version_id: randomUUID() } },
      },
    ],
    [
      'a pin carrying assessment_role',
      {
        component_id: 'x',
        kind: 'lesson',
        alpha: {
          target_ref: {
            content_kind: 'article',
            content_id: randomUUID(),
            content_version_id: randomUUID(),
            assessment_role: 'x',
          },
        },
      },
    ],
    [
      'a gate pinned to content_kind test',
      {
        component_id: 'x',
        kind: 'mastery_gate',
        alpha: {
          publication_status: 'draft',
          target_ref: { content_kind: 'test', content_id: randomUUID(), content_version_id: randomUUID() },
        },
      },
    ],
    ['[] scope without the decision', { component_id: 'x', kind: 'lesson', alpha: { scope_kc_refs: [] } }],
    [
      '[] scope on a practice',
      { component_id: 'x', kind: 'practice', alpha: { scope_kc_refs: [], kc_scope_decision: 'authoritative_no_kc' } },
    ],
    ['a non-uuid KC reference', { component_id: 'x', kind: 'lesson', alpha: { scope_kc_refs: ['CCSS.3.NF.1'] } }],
    ['an unknown field', { component_id: 'x', kind: 'lesson', alpha: { colour: 'red' } }],
    ['a component containing itself', { component_id: 'x', kind: 'unit', parent_component_id: 'x' }],
  ])('refuses %s with 400 before any I/O', async (_label, body) => {
    const caller = await newTenant(filePlatform());
    expectProblem(await post(caller, body), 400, 'curriculum:validation_failed');
    expect((await tenantRowCounts(filePlatform(), caller.tenantId)).components).toBe(0);
  });

  it('refuses KC references that are unknown, of another tenant or retired, an unknown parent or renderer', async ({
    platform,
  }) => {
    const caller = await newTenant(platform);
    const stranger = await newTenant(platform);
    const foreign = await createKc(platform, stranger);
    for (const ref of [randomUUID(), foreign.kc_id]) {
      expectProblem(
        await post(caller, { component_id: 'l', kind: 'lesson', alpha: { scope_kc_refs: [ref] } }),
        422,
        'curriculum:kc_not_active',
      );
      expectProblem(
        await post(caller, { component_id: 'l', kind: 'lesson', alpha: { remediation_entries: [{ kc_ref: ref }] } }),
        422,
        'curriculum:kc_not_active',
      );
    }
    expectProblem(
      await post(caller, { component_id: 'l', kind: 'lesson', parent_component_id: 'ghost' }),
      422,
      'curriculum:parent_not_found',
    );
    expectProblem(
      await post(caller, { component_id: 'l', kind: 'lesson', alpha: { renderer_ref: 'renderer:flash' } }),
      422,
      'curriculum:renderer_unknown',
    );
    expect((await tenantRowCounts(platform, caller.tenantId)).components).toBe(0);
  });

  it('nothing is born published: REST and GraphQL creates, re-POSTs and KC creates start draft', async ({
    platform,
  }) => {
    const caller = await newTenant(platform);
    const version = await eligibleVersion(platform, caller);
    const published = { publication_status: 'published' };
    const counts = await tenantRowCounts(platform, caller.tenantId);
    for (const body of [
      { component_id: 'c', kind: 'course', alpha: published },
      { component_id: 'l', kind: 'lesson', alpha: { ...published, target_ref: pinOf(version) } },
    ]) {
      const refused = await post(caller, body);
      expectProblem(refused, 400, 'curriculum:validation_failed');
      expect(refused.body.fieldErrors.map((error: any) => error.field)).toEqual(['alpha.publication_status']);
    }
    expectProblem(
      await http(platform, 'POST', `${curriculumV1}/kcs`, { token: caller.token, body: kcBody(published) }),
      400,
      'curriculum:validation_failed',
    );
    const viaGraphql = await graphql(
      platform,
      `
        mutation ($c: ComponentInput!) {
          createComponent(input: $c) {
            componentId
          }
        }
      `,
      { c: { componentId: 'g', kind: 'course', alpha: { publicationStatus: 'published' } } },
      caller.token,
    );
    expect(viaGraphql.body.errors?.[0]?.extensions?.code).toBe('curriculum:validation_failed');
    const kcViaGraphql = await graphql(
      platform,
      `
        mutation ($k: KnowledgeComponentInput!) {
          createKc(input: $k) {
            kcId
          }
        }
      `,
      { k: { storedAs: 'alpha.knowledge_component', definition: 'd', publicationStatus: 'published' } },
      caller.token,
    );
    expect(kcViaGraphql.body.errors?.[0]?.extensions?.code).toBe('curriculum:validation_failed');
    expect(await tenantRowCounts(platform, caller.tenantId)).toEqual(counts);

    const course = await createComponent(platform, caller, { component_id: 'c', kind: 'course', alpha: published });
    expect(course.alpha.publication_status).toBe('published');
    const retired = await http(platform, 'DELETE', `${componentsUrl}/c`, {
      token: caller.token,
      headers: { ...key(), 'x-curriculum-if-match': course.etag },
    });
    expectProblem(
      await post(caller, { component_id: 'c', kind: 'course', alpha: published }),
      400,
      'curriculum:validation_failed',
    );
    const reactivated = await post(caller, { component_id: 'c', kind: 'course' });
    expect([reactivated.status, reactivated.body.alpha.publication_status]).toEqual([200, 'draft']);
    expect(reactivated.body.version).toBe(retired.body.version + 1);
  });

  it('retries by Idempotency-Key: the stored answer, 409 for another body under it, 400 for a key too long', async ({
    platform,
  }) => {
    const caller = await newTenant(platform);
    const version = await eligibleVersion(platform, caller);
    await createComponent(platform, caller, { component_id: 'c', kind: 'course' });
    const bodies = [
      { component_id: 'fresh', kind: 'lesson', alpha: { target_ref: pinOf(version) } },
      { component_id: 'placed', kind: 'unit', parent_component_id: 'c' },
    ];
    for (const body of bodies) {
      const headers = key();
      const first = await http(platform, 'POST', componentsUrl, { token: caller.token, headers, body });
      expect(first.status, JSON.stringify(first.body)).toBe(201);
      const replay = await http(platform, 'POST', componentsUrl, { token: caller.token, headers, body });
      expect([replay.status, replay.headers.get('idempotency-replayed')]).toEqual([200, 'true']);
      expect(replay.body).toEqual(first.body);
      expect(replay.headers.get('etag')).toBe(first.headers.get('etag'));
      // Another component under a used key creates nothing.
      const other = { ...body, component_id: `${body.component_id}-2` };
      const changed = await http(platform, 'POST', componentsUrl, { token: caller.token, headers, body: other });
      expectProblem(changed, 409, 'curriculum:idempotency_conflict');
      expectProblem(await readComponent(platform, caller, other.component_id), 404, 'curriculum:not_found');
    }
    const tooLong = await http(platform, 'POST', componentsUrl, {
      token: caller.token,
      headers: { 'idempotency-key': 'k'.repeat(256) },
      body: { component_id: 'never', kind: 'lesson' },
    });
    expectProblem(tooLong, 400, 'curriculum:validation_failed');
    expect((await tenantRowCounts(platform, caller.tenantId)).components).toBe(3);
  });

  it('positions and sequence numbers past a database integer are refused with 400, not answered 500', async ({
    platform,
  }) => {
    const caller = await newTenant(platform);
    const highest = 2 ** 31 - 1;
    await createComponent(platform, caller, { component_id: 'course', kind: 'course' });
    const fieldsOf = (reply: { body: any }) => reply.body.fieldErrors.map((error: any) => error.field);
    const tooFar = await post(caller, {
      component_id: 'u',
      kind: 'unit',
      parent_component_id: 'course',
      position: 2 ** 31,
    });
    expectProblem(tooFar, 400, 'curriculum:validation_failed');
    expect(fieldsOf(tooFar)).toEqual(['position']);
    const last = await createComponent(platform, caller, {
      component_id: 'last',
      kind: 'unit',
      parent_component_id: 'course',
      position: highest,
    });
    // Nothing can be appended after the highest position: the client names one.
    const appended = await post(caller, { component_id: 'next', kind: 'unit', parent_component_id: 'course' });
    expectProblem(appended, 400, 'curriculum:validation_failed');
    expect(fieldsOf(appended)).toEqual(['position']);
    const moved = await http(platform, 'PATCH', `${componentsUrl}/last`, {
      token: caller.token,
      headers: { ...key(), 'x-curriculum-if-match': last.etag },
      body: { parent_component_id: 'course', position: 2 ** 31 },
    });
    expectProblem(moved, 400, 'curriculum:validation_failed');
    const [edge] = (await http(platform, 'GET', `${curriculumV1}/associations?originId=last`, { token: caller.token }))
      .body.data;
    const reordered = await http(platform, 'PATCH', `${curriculumV1}/associations/${edge.association_id}`, {
      token: caller.token,
      headers: { ...key(), 'x-curriculum-if-match': edge.etag },
      body: { sequence_number: 2 ** 31 },
    });
    expectProblem(reordered, 400, 'curriculum:validation_failed');
    expect((await readComponent(platform, caller, 'last')).body.position).toBe(highest);
    // GraphQL's Int holds 32 bits: more XP was stored, then could not be read through the gateway.
    const xp = await post(caller, { component_id: 'xp', kind: 'course', alpha: { expected_xp: 2 ** 31 } });
    expectProblem(xp, 400, 'curriculum:validation_failed');
    expect(fieldsOf(xp)).toEqual(['alpha.expected_xp']);
  });

  it('parallel creates of one id create it once', async ({ platform }) => {
    const caller = await newTenant(platform);
    await createComponent(platform, caller, { component_id: 'c', kind: 'course' });
    const body = { component_id: 'u', kind: 'unit', parent_component_id: 'c' };
    const replies = await Promise.all([0, 1, 2, 3].map(() => post(caller, body)));
    expect(replies.map((reply) => reply.status).sort()).toEqual([200, 200, 200, 201]);
    expect((await tenantRowCounts(platform, caller.tenantId)).associations).toBe(1);
  });

  it('parallel creates of one id, with and without a parent, create it once and refuse the other request', async ({
    platform,
  }) => {
    const caller = await newTenant(platform);
    await createComponent(platform, caller, { component_id: 'c', kind: 'course' });
    const bodies = [{}, { parent_component_id: 'c' }, {}, { parent_component_id: 'c' }].map((parent) => ({
      component_id: 'u',
      kind: 'unit',
      ...parent,
    }));
    const replies = await Promise.all(bodies.map((body) => post(caller, body)));
    const statuses = replies.map((reply) => reply.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(1);
    const winner = bodies[statuses.indexOf(201)];
    // The same request as the winner is answered unchanged; the other shape is refused.
    bodies.forEach((body, index) => {
      if (index === statuses.indexOf(201)) return;
      const same = body.parent_component_id === winner.parent_component_id;
      expect([statuses[index], replies[index].body.code]).toEqual(
        same ? [200, undefined] : [409, 'curriculum:component_exists'],
      );
    });
    expect((await tenantRowCounts(platform, caller.tenantId)).associations).toBe(winner.parent_component_id ? 1 : 0);
  });

  it('needs a token, curriculum:write, and keeps tenants apart', async ({ platform }) => {
    const caller = await newTenant(platform);
    expectProblem(
      await http(platform, 'POST', componentsUrl, { body: { component_id: 'x', kind: 'unit' } }),
      401,
      'curriculum:unauthenticated',
    );
    const reader = await sameTenant(platform, caller, { scopes: ['curriculum:read'] });
    expectProblem(await post(reader, { component_id: 'x', kind: 'unit' }), 403, 'curriculum:forbidden');
    await createComponent(platform, caller, { component_id: 'mine', kind: 'unit' });
    const stranger = await newTenant(platform);
    expectProblem(await readComponent(platform, stranger, 'mine'), 404, 'curriculum:not_found');
    expect((await http(platform, 'GET', componentsUrl, { token: stranger.token })).body.data).toEqual([]);
    expectProblem(
      await http(platform, 'GET', `${componentsUrl}/mine/tree`, { token: stranger.token }),
      404,
      'curriculum:not_found',
    );
  });
});

describe('GET /components', () => {
  it('filters by kind, parentId, courseId, sourceCourseRef, studentId, subjectId, publicationStatus and updated_since; pages and sorts', async ({
    platform,
  }) => {
    const caller = await newTenant(platform);
    await createComponent(platform, caller, {
      component_id: 'c1',
      kind: 'course',
      alpha: { subject_id: 'math', publication_status: 'published', source_course_ref: 'vendor-course-9' },
    });
    await createComponent(platform, caller, {
      component_id: 'c2',
      kind: 'course',
      student_id: 'student-7',
      alpha: { subject_id: 'reading' },
    });
    await createComponent(platform, caller, {
      component_id: 'u1',
      kind: 'unit',
      parent_component_id: 'c1',
      alpha: { source_course_ref: 'vendor-course-9' },
    });
    await createComponent(platform, caller, {
      component_id: 'l1',
      kind: 'lesson',
      parent_component_id: 'u1',
      alpha: { subject_id: 'math' },
    });
    await createComponent(platform, caller, { component_id: 'l2', kind: 'lesson', parent_component_id: 'c2' });
    const ids = async (query: string) =>
      (await http(platform, 'GET', `${componentsUrl}?${query}`, { token: caller.token })).body.data.map(
        (row: any) => row.component_id,
      );
    expect(await ids('kind=lesson')).toEqual(['l1', 'l2']);
    expect(await ids('parentId=c1')).toEqual(['u1']);
    expect(await ids('courseId=c1')).toEqual(['c1', 'l1', 'u1']);
    expect(await ids('kind=course&studentId=student-7')).toEqual(['c2']);
    expect(await ids('studentId=student-8')).toEqual([]);
    expect(await ids('subjectId=math')).toEqual(['c1', 'l1']);
    expect(await ids('sourceCourseRef=vendor-course-9')).toEqual(['c1', 'u1']);
    expect(await ids('sourceCourseRef=vendor-course-9&kind=course')).toEqual(['c1']);
    expect(await ids('sourceCourseRef=vendor-course')).toEqual([]);
    expect(await ids('publicationStatus=published')).toEqual(['c1']);
    expect(await ids('updated_since=2999-01-01T00:00:00Z')).toEqual([]);
    // The year 0 is no instant PostgreSQL keeps: refused, never a database error.
    for (const list of ['components', 'kcs', 'associations', 'kc-prerequisites']) {
      const refused = await http(platform, 'GET', `${curriculumV1}/${list}?updated_since=0000-01-01T00:00:00Z`, {
        token: caller.token,
      });
      expectProblem(refused, 400, 'curriculum:validation_failed');
    }
    expect(await ids('sort=component_id&order=desc&limit=2')).toEqual(['u1', 'l2']);
    const first = await http(platform, 'GET', `${componentsUrl}?limit=2`, { token: caller.token });
    const second = await http(platform, 'GET', `${componentsUrl}?limit=2&cursor=${first.body.next_cursor}`, {
      token: caller.token,
    });
    expect(second.body.data.map((row: any) => row.component_id)).toEqual(['l1', 'l2']);
    expect((await http(platform, 'GET', `${componentsUrl}?limit=0`, { token: caller.token })).body.data).toEqual([]);
    expectProblem(
      await http(platform, 'GET', `${componentsUrl}?limit=-1`, { token: caller.token }),
      400,
      'curriculum:validation_failed',
    );
    expectProblem(
      await http(platform, 'GET', `${componentsUrl}?studentId=`, { token: caller.token }),
      400,
      'curriculum:validation_failed',
    );
    expectProblem(
      await http(platform, 'GET', `${componentsUrl}?sourceCourseRef=`, { token: caller.token }),
      400,
      'curriculum:validation_failed',
    );
    expectProblem(
      await http(platform, 'GET', `${componentsUrl}?kind=chapter`, { token: caller.token }),
      400,
      'curriculum:validation_failed',
    );
    expectProblem(
      await http(platform, 'GET', `${componentsUrl}?limit=2&cursor=${first.body.next_cursor}&kind=lesson`, {
        token: caller.token,
      }),
      400,
      'curriculum:validation_failed',
    );
  });
});

describe('trees', () => {
  it('answers the component tree and the course alias in sibling order; the alias is for course roots only', async ({
    platform,
  }) => {
    const caller = await newTenant(platform);
    await createComponent(platform, caller, { component_id: 'c', kind: 'course' });
    await createComponent(platform, caller, { component_id: 'b', kind: 'unit', parent_component_id: 'c', position: 1 });
    await createComponent(platform, caller, { component_id: 'a', kind: 'unit', parent_component_id: 'c', position: 0 });
    await createComponent(platform, caller, { component_id: 'a.1', kind: 'lesson', parent_component_id: 'a' });
    const tree = await http(platform, 'GET', `${curriculumV1}/components/c/tree`, { token: caller.token });
    expect(tree.body.children.map((child: any) => child.component_id)).toEqual(['a', 'b']);
    expect(tree.body.children[0].children[0].component_id).toBe('a.1');
    const alias = await http(platform, 'GET', `${curriculumV1}/courses/c/tree`, { token: caller.token });
    expect(alias.body).toEqual(tree.body);
    expectProblem(
      await http(platform, 'GET', `${curriculumV1}/courses/a/tree`, { token: caller.token }),
      404,
      'curriculum:not_found',
    );
    expectProblem(
      await http(platform, 'GET', `${curriculumV1}/components/ghost/tree`, { token: caller.token }),
      404,
      'curriculum:not_found',
    );
    expectProblem(
      await http(platform, 'GET', `${curriculumV1}/components/c/tree?includeRetired=yes`, { token: caller.token }),
      400,
      'curriculum:validation_failed',
    );
  });
});
