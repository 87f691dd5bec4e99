import { randomUUID } from 'node:crypto';
import { describe, expect } from 'vitest';
import { curriculumV1, graphql, http, newTenant, type Caller } from '../kit.ts';
import { platformTest } from '../platform-test.ts';
import { createComponent, expectProblem, key, readComponent, tenantRowCounts } from './helpers.ts';

/**
 * A token bounded to some students (the events service's studentIds claim) on curriculum's learner paths: another
 * student's personalized courses (roots and subtrees), and reads naming another student, are refused (403
 * curriculum:forbidden naming studentId, as the gate reads refuse them); lists are narrowed to the token's students.
 */

const it = platformTest();

const forbiddenStudent = [{ field: 'studentId', message: "outside the token's studentIds boundary" }];
const codes = (body: { errors?: Array<{ extensions: { code: string } }> }) =>
  body.errors?.map((error) => error.extensions.code);

/** A tenant with a shared course, a personalized course (root and lesson) for stu-1 and one for stu-2, and a track. */
async function tenantWithPersonalizedCourses(platform: Parameters<typeof newTenant>[0]) {
  const author = await newTenant(platform);
  await createComponent(platform, author, { component_id: 'shared', kind: 'course' });
  await createComponent(platform, author, { component_id: 'mine', kind: 'course', student_id: 'stu-1' });
  await createComponent(platform, author, { component_id: 'theirs', kind: 'course', student_id: 'stu-2' });
  await createComponent(platform, author, { component_id: 'my-lesson', kind: 'lesson', parent_component_id: 'mine' });
  await createComponent(platform, author, {
    component_id: 'their-lesson',
    kind: 'lesson',
    parent_component_id: 'theirs',
  });
  await createComponent(platform, author, {
    component_id: 'track',
    kind: 'track',
    alpha: { engine_ref: 'engine:v1', entry_policy_ref: 'p:in', exit_policy_ref: 'p:out' },
  });
  const player = await newTenant(platform, {
    tenantId: author.tenantId,
    scopes: ['curriculum:read'],
    boundary: { studentIds: ['stu-1'] },
  });
  return { author, player };
}

describe('a token bounded to some students, on personalized courses', () => {
  it("lists only its students' personalized courses and refuses another student's (REST and GraphQL)", async ({
    platform,
  }) => {
    const { author, player } = await tenantWithPersonalizedCourses(platform);
    const list = (caller: Caller, query: string) =>
      http(platform, 'GET', `${curriculumV1}/components?${query}`, { token: caller.token });
    const ids = async (caller: Caller, query = 'kind=course') =>
      (await list(caller, query)).body.data.map((row: { component_id: string }) => row.component_id);
    expect(await ids(author)).toEqual(['mine', 'shared', 'theirs']);
    expect(await ids(player)).toEqual(['mine', 'shared']);
    expect(await ids(player, 'kind=course&studentId=stu-1')).toEqual(['mine']);
    // Their subtrees too: the service tells a lesson's course by its containment.
    expect(await ids(author, 'kind=lesson')).toEqual(['my-lesson', 'their-lesson']);
    expect(await ids(player, 'kind=lesson')).toEqual(['my-lesson']);
    expect(await ids(player, 'parentId=theirs')).toEqual([]);
    expect(await ids(player, 'courseId=mine')).toEqual(['mine', 'my-lesson']);
    const refused = await list(player, 'studentId=stu-2');
    expectProblem(refused, 403, 'curriculum:forbidden');
    expect(refused.body.fieldErrors).toEqual(forbiddenStudent);

    const graphIds = async (args: string) => {
      const answer = await graphql(platform, `{ components(${args}) { data { componentId } } }`, {}, player.token);
      return answer.body.data?.components.data.map((row: { componentId: string }) => row.componentId);
    };
    expect(await graphIds('kind: "course"')).toEqual(['mine', 'shared']);
    expect(
      codes(
        (await graphql(platform, '{ components(studentId: "stu-2") { data { componentId } } }', {}, player.token)).body,
      ),
    ).toEqual(['curriculum:forbidden']);
  });

  it("refuses another student's personalized course by id, its trees and its approvals (REST and GraphQL)", async ({
    platform,
  }) => {
    const { player } = await tenantWithPersonalizedCourses(platform);
    for (const path of [
      '/components/theirs',
      '/components/theirs/tree',
      '/courses/theirs/tree',
      '/courses/theirs/approvals',
      '/components/their-lesson',
      '/components/their-lesson/tree',
    ]) {
      const reply = await http(platform, 'GET', `${curriculumV1}${path}`, { token: player.token });
      expectProblem(reply, 403, 'curriculum:forbidden');
      expect(reply.body.fieldErrors).toEqual(forbiddenStudent);
    }
    for (const path of ['/components/mine', '/components/my-lesson', '/courses/mine/tree', '/courses/mine/approvals']) {
      expect((await http(platform, 'GET', `${curriculumV1}${path}`, { token: player.token })).status).toBe(200);
    }
    const read = (id: string) =>
      graphql(platform, `{ component(componentId: "${id}") { componentId studentId } }`, {}, player.token);
    expect(codes((await read('theirs')).body)).toEqual(['curriculum:forbidden']);
    expect(codes((await read('their-lesson')).body)).toEqual(['curriculum:forbidden']);
    expect((await read('my-lesson')).body.data.component).toEqual({ componentId: 'my-lesson', studentId: null });
    expect((await read('mine')).body.data.component).toEqual({ componentId: 'mine', studentId: 'stu-1' });
    const approvals = await graphql(
      platform,
      '{ courseApprovals(courseId: "theirs") { data { approvalId } } }',
      {},
      player.token,
    );
    expect(codes(approvals.body)).toEqual(['curriculum:forbidden']);
  });
});

describe('a token bounded to some students, on the structure of personalized courses', () => {
  it("leaves another student's edges out of associations, and refuses them and its gates by id (REST and GraphQL)", async ({
    platform,
  }) => {
    const { author, player } = await tenantWithPersonalizedCourses(platform);
    for (const [gate, lesson] of [
      ['my-gate', 'my-lesson'],
      ['their-gate', 'their-lesson'],
    ]) {
      await createComponent(platform, author, {
        component_id: gate,
        kind: 'mastery_gate',
        parent_component_id: lesson,
        alpha: { publication_status: 'draft' },
      });
    }
    const edges = async (caller: Caller, query = '') => {
      const reply = await http(platform, 'GET', `${curriculumV1}/associations?${query}`, { token: caller.token });
      return (reply.body.data as Array<{ association_id: string; originId: string }>).map((row) => [
        row.originId,
        row.association_id,
      ]);
    };
    const all = new Map((await edges(author)).map(([origin, id]) => [origin, id]));
    expect([...all.keys()].sort()).toEqual(['my-gate', 'my-lesson', 'their-gate', 'their-lesson']);
    expect((await edges(player)).map(([origin]) => origin).sort()).toEqual(['my-gate', 'my-lesson']);
    expect(await edges(player, 'destinationId=theirs')).toEqual([]);
    const graphEdges = await graphql(platform, '{ associations { data { originId } } }', {}, player.token);
    expect(graphEdges.body.data.associations.data.map((row: { originId: string }) => row.originId).sort()).toEqual([
      'my-gate',
      'my-lesson',
    ]);

    for (const path of [
      `/associations/${all.get('their-lesson')}`,
      `/associations/${all.get('their-gate')}`,
      '/gates/their-gate',
      // The gate's learner reads too, though the student asked about is the token's own.
      '/gates/their-gate/status?studentId=stu-1',
      '/gates/their-gate/remediation?studentId=stu-1',
      '/gates/their-gate/next-form?studentId=stu-1',
    ]) {
      const reply = await http(platform, 'GET', `${curriculumV1}${path}`, { token: player.token });
      expectProblem(reply, 403, 'curriculum:forbidden');
      expect(reply.body.fieldErrors).toEqual(forbiddenStudent);
    }
    for (const path of [
      `/associations/${all.get('my-gate')}`,
      '/gates/my-gate',
      '/gates/my-gate/status?studentId=stu-1',
    ]) {
      expect((await http(platform, 'GET', `${curriculumV1}${path}`, { token: player.token })).status).toBe(200);
    }
    for (const field of [
      `association(associationId: "${all.get('their-lesson')}") { originId }`,
      'gate(componentId: "their-gate") { componentId }',
      'gateStatus(componentId: "their-gate", studentId: "stu-1") { gateStatus }',
    ]) {
      expect(codes((await graphql(platform, `{ ${field} }`, {}, player.token)).body)).toEqual(['curriculum:forbidden']);
    }
    const own = await graphql(platform, '{ gate(componentId: "my-gate") { componentId } }', {}, player.token);
    expect(own.body.data.gate).toEqual({ componentId: 'my-gate' });
  });
});

describe('a token bounded to some students, on commands', () => {
  it("refuses to change another student's personalized course, or to make one for another student, and writes nothing (REST and GraphQL)", async ({
    platform,
  }) => {
    const { author } = await tenantWithPersonalizedCourses(platform);
    const writer = await newTenant(platform, {
      tenantId: author.tenantId,
      scopes: ['curriculum:read', 'curriculum:write'],
      boundary: { studentIds: ['stu-1'] },
    });
    const theirEdge = (
      await http(platform, 'GET', `${curriculumV1}/associations?originId=their-lesson`, { token: author.token })
    ).body.data[0];
    const theirLesson = (await readComponent(platform, author, 'their-lesson')).body;
    const before = await tenantRowCounts(platform, author.tenantId);
    const target = {
      module: 'content',
      content_kind: 'article',
      content_id: randomUUID(),
      content_version_id: randomUUID(),
    };
    const edits = { ...key(), 'x-curriculum-if-match': theirLesson.etag };
    const refused: Array<[string, string, Record<string, unknown> | undefined, Record<string, string>, string]> = [
      ['POST', '/components', { component_id: 'new', kind: 'course', student_id: 'stu-2' }, {}, 'student_id'],
      [
        'POST',
        '/components',
        { component_id: 'new-lesson', kind: 'lesson', parent_component_id: 'theirs' },
        {},
        'studentId',
      ],
      ['PATCH', '/components/their-lesson', { name: 'renamed' }, edits, 'studentId'],
      ['PATCH', '/components/my-lesson', { parent_component_id: 'theirs' }, edits, 'studentId'],
      ['DELETE', '/components/their-lesson', undefined, edits, 'studentId'],
      [
        'POST',
        '/components/their-lesson/repoint',
        { operation: 'repoint', expected_target_ref: target, target_ref: target },
        key(),
        'studentId',
      ],
      [
        'POST',
        '/courses/theirs/approvals',
        { approved_by: 'reviewer:ada', provenance: { source: 'authoring_ui', course_ref: 'theirs' } },
        key(),
        'studentId',
      ],
      [
        'POST',
        '/associations',
        { originId: 'shared', destinationId: 'theirs', associationType: 'isChildOf' },
        key(),
        'studentId',
      ],
      [
        'PATCH',
        `/associations/${theirEdge.association_id}`,
        { sequence_number: 2 },
        { ...key(), 'x-curriculum-if-match': theirEdge.etag },
        'studentId',
      ],
    ];
    for (const [method, path, body, headers, field] of refused) {
      const reply = await http(platform, method, `${curriculumV1}${path}`, { token: writer.token, body, headers });
      expectProblem(reply, 403, 'curriculum:forbidden');
      expect([method, path, reply.body.fieldErrors]).toEqual([
        method,
        path,
        [{ field, message: "outside the token's studentIds boundary" }],
      ]);
    }
    const mutation = await graphql(
      platform,
      'mutation { createComponent(input: { componentId: "new-node", kind: "lesson", parentComponentId: "their-lesson" }) { componentId } }',
      {},
      writer.token,
    );
    expect(codes(mutation.body)).toEqual(['curriculum:forbidden']);
    expect(await tenantRowCounts(platform, author.tenantId)).toEqual(before);

    // Its own student's course it changes as any writer does.
    await createComponent(platform, writer, { component_id: 'new', kind: 'lesson', parent_component_id: 'mine' });
    await createComponent(platform, writer, { component_id: 'another', kind: 'course', student_id: 'stu-1' });
  });
});

describe('a token bounded to some students, on next-lesson and placement', () => {
  it('refuses a read naming another student and answers its own student as before (REST and GraphQL)', async ({
    platform,
  }) => {
    const { player } = await tenantWithPersonalizedCourses(platform);
    const read = (path: string) => http(platform, 'GET', `${curriculumV1}${path}`, { token: player.token });
    for (const path of [
      '/courses/theirs/next-lesson?studentId=stu-2',
      '/tracks/track/placement-candidates?studentId=stu-2',
    ]) {
      const reply = await read(path);
      expectProblem(reply, 403, 'curriculum:forbidden');
      expect(reply.body.fieldErrors).toEqual(forbiddenStudent);
    }
    // Its own student on another student's root: the spec's not_found, as for a missing or different studentId.
    expectProblem(await read('/courses/theirs/next-lesson?studentId=stu-1'), 404, 'curriculum:not_found');
    expectProblem(await read('/courses/mine/next-lesson?studentId=stu-1'), 409, 'curriculum:lesson_structure_missing');
    expect((await read('/tracks/track/placement-candidates?studentId=stu-1')).status).toBe(200);
    for (const field of [
      'placementCandidates(trackId: "track", studentId: "stu-2") { trackId }',
      'nextLesson(courseId: "theirs", studentId: "stu-2") { courseId }',
    ]) {
      expect(codes((await graphql(platform, `{ ${field} }`, {}, player.token)).body)).toEqual(['curriculum:forbidden']);
    }
  });
});
