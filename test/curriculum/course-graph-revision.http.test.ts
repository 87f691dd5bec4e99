import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { curriculumV1, eligibleVersion, graphql, http, newTenant, type Caller } from '../kit.ts';
import { platformTest } from '../platform-test.ts';
import type { RunningPlatform } from '../../gateway/platform.ts';
import { ingestComponentId } from '../../subgraphs/curriculum/ingest/ingest.service.ts';
import { casePackage, createKc, expectProblem, importStandards, pinOf, readComponent } from './helpers.ts';
import { approve, approveOk, authorCourse, nextLesson, patchComponent } from './learner-helpers.ts';

/**
 * The course graph revision routing trusts instead of re-digesting the course: every write path that
 * changes a field of the canonical graph advances it in the writing transaction (a database trigger),
 * routing fails closed until a new approval, and a moved revision over an unchanged graph still routes.
 */

const it = platformTest();

async function revisionOf(platform: RunningPlatform, tenantId: string, courseId: string): Promise<number> {
  const result = await platform.runtime.database.db.execute(
    sql`select revision::text as revision from curriculum.course_graph_revisions where tenant_id = ${tenantId} and course_id = ${courseId}`,
  );
  const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Array<{ revision: string }>;
  return Number(rows[0]?.revision ?? 0);
}

async function routedTo(platform: RunningPlatform, caller: Caller, courseId = 'course'): Promise<string> {
  const reply = await nextLesson(platform, caller, courseId);
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body.component.component_id;
}

it('every canonical field of a component advances its course revision; other fields do not', async ({
  platform,
  tenant,
}) => {
  const course = await authorCourse(platform, tenant, { lessons: 2 });
  await authorCourse(platform, tenant, { courseId: 'other', lessons: 1 });
  const [l1] = course.lessonIds;
  const { db } = platform.runtime.database;
  const edits: Array<[string, ReturnType<typeof sql>, boolean]> = [
    ['name', sql`name = 'Renamed'`, false],
    ['human_coding_scheme', sql`human_coding_scheme = 'X.1'`, false],
    ['an alpha field outside the graph', sql`alpha = alpha || '{"expected_xp": 5}'`, false],
    ['position', sql`position = 7`, true],
    ['kind', sql`kind = 'review'`, true],
    ['student_id', sql`student_id = 'learner-1'`, true],
    ['status', sql`status = 'retired'`, true],
    ['status back', sql`status = 'active'`, true],
    ['publication_status', sql`alpha = jsonb_set(alpha, '{publication_status}', '"draft"')`, true],
    ['target_ref', sql`alpha = jsonb_set(alpha, '{target_ref,content_version_id}', '"other"')`, true],
    ['scope_kc_refs', sql`alpha = jsonb_set(alpha, '{scope_kc_refs}', '[]')`, true],
    ['remediation_entries', sql`alpha = alpha || '{"remediation_entries": [{"kc_ref": "k"}]}'`, true],
    ['kc_scope_decision', sql`alpha = alpha || '{"kc_scope_decision": "authoritative_no_kc"}'`, true],
  ];
  for (const [field, assignment, advances] of edits) {
    const before = await revisionOf(platform, tenant.tenantId, 'course');
    await db.execute(
      sql`update curriculum.components set ${assignment} where tenant_id = ${tenant.tenantId} and component_id = ${l1}`,
    );
    expect([field, await revisionOf(platform, tenant.tenantId, 'course')]).toEqual([
      field,
      advances ? before + 1 : before,
    ]);
  }
  // A reparent advances the course it leaves and the course it joins; a new child and a deletion advance theirs.
  const [courseBefore, otherBefore] = [
    await revisionOf(platform, tenant.tenantId, 'course'),
    await revisionOf(platform, tenant.tenantId, 'other'),
  ];
  await db.execute(
    sql`update curriculum.components set parent_component_id = 'other.u1' where tenant_id = ${tenant.tenantId} and component_id = ${l1}`,
  );
  expect(await revisionOf(platform, tenant.tenantId, 'course')).toBe(courseBefore + 1);
  expect(await revisionOf(platform, tenant.tenantId, 'other')).toBe(otherBefore + 1);
  await db.execute(
    sql`delete from curriculum.components where tenant_id = ${tenant.tenantId} and component_id = ${l1}`,
  );
  expect(await revisionOf(platform, tenant.tenantId, 'other')).toBe(otherBefore + 2);
  expect(await revisionOf(platform, tenant.tenantId, 'course')).toBe(courseBefore + 1);
});

it('a component inserted without a parent starts its own revision; inserted again, advances it', async ({
  platform,
  tenant,
}) => {
  const { db } = platform.runtime.database;
  const rootId = `root-${randomUUID()}`;
  const insertRoot = () =>
    db.execute(
      sql`insert into curriculum.components (tenant_id, component_id, kind, alpha, publication_status, status, version, created_at, updated_at)
          values (${tenant.tenantId}, ${rootId}, 'course', '{}', 'draft', 'active', 1, now(), now())`,
    );
  await insertRoot();
  expect(await revisionOf(platform, tenant.tenantId, rootId)).toBe(1);
  await db.execute(
    sql`delete from curriculum.components where tenant_id = ${tenant.tenantId} and component_id = ${rootId}`,
  );
  await insertRoot();
  expect(await revisionOf(platform, tenant.tenantId, rootId)).toBe(2);
  const created = await http(platform, 'POST', `${curriculumV1}/components`, {
    token: tenant.token,
    body: { component_id: `${rootId}.u1`, kind: 'unit', parent_component_id: rootId },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  expect(await revisionOf(platform, tenant.tenantId, rootId)).toBe(3);
  expect(await revisionOf(platform, tenant.tenantId, `${rootId}.u1`)).toBe(0);
});

it('a moved revision over an unchanged graph still routes; edits outside the graph keep the revision', async ({
  platform,
  tenant,
}) => {
  const course = await authorCourse(platform, tenant, { lessons: 2 });
  const [l1] = course.lessonIds;
  const approval = await approveOk(platform, tenant, 'course');
  const approved = await revisionOf(platform, tenant.tenantId, 'course');
  expect((await patchComponent(platform, tenant, l1, { name: 'Renamed' })).status).toBe(200);
  expect(await revisionOf(platform, tenant.tenantId, 'course')).toBe(approved);
  expect(await routedTo(platform, tenant)).toBe(l1);
  expect((await patchComponent(platform, tenant, l1, { position: 9 })).status).toBe(200);
  const stale = await nextLesson(platform, tenant, 'course');
  expectProblem(stale, 409, 'curriculum:approval_stale');
  // The digests the refusal names as current are the ones an approval would judge now.
  const wrong = 'f'.repeat(64);
  const judged = await approve(platform, tenant, 'course', { expected_course_graph_sha256: wrong });
  expectProblem(judged, 409, 'curriculum:approval_digest_mismatch');
  expect(stale.body).toMatchObject({
    approval_id: approval.approval_id,
    approved: { course_graph_sha256: approval.course_graph_sha256, kc_snapshot_sha256: approval.kc_snapshot_sha256 },
    current: {
      course_graph_sha256: judged.body.course_graph_sha256,
      kc_snapshot_sha256: judged.body.kc_snapshot_sha256,
    },
  });
  expect(stale.body.current.course_graph_sha256).not.toBe(approval.course_graph_sha256);
  expect((await patchComponent(platform, tenant, l1, { position: 0 })).status).toBe(200);
  expect(await revisionOf(platform, tenant.tenantId, 'course')).toBe(approved + 2);
  // The graph is the approved one again: its digest equals the approval's, so routing holds, answering
  // the routed component's whole record as it stands.
  const routed = await nextLesson(platform, tenant, 'course');
  expect(routed.status, JSON.stringify(routed.body)).toBe(200);
  expect(routed.body).toMatchObject({ ancestor_ids: ['course', 'course.u1'], component: { name: 'Renamed' } });
  expect(routed.body.component).toEqual((await readComponent(platform, tenant, l1)).body);
});

it('a course changed since its approval is walked once per revision; the root, KCs and records are read on every call', async ({
  platform,
  tenant,
}) => {
  const course = await authorCourse(platform, tenant, { lessons: 2 });
  const [l1, l2] = course.lessonIds;
  await approveOk(platform, tenant, 'course');
  expect((await patchComponent(platform, tenant, l1, { position: 9 })).status).toBe(200);
  const stats = platform.runtime.database.stats;
  const counted = async (query = '') => {
    const before = stats.queries;
    const reply = await nextLesson(platform, tenant, 'course', query);
    return { reply, statements: stats.queries - before };
  };
  const walked = await counted();
  const reused = await counted();
  expectProblem(walked.reply, 409, 'curriculum:approval_stale');
  const answer = ({ requestId: _request, traceId: _trace, ...rest }: Record<string, unknown>) => rest;
  expect(answer(reused.reply.body)).toEqual(answer(walked.reply.body));
  expect(reused.statements).toBe(walked.statements - 1);

  // A new KC version leaves the revision: the walk is reused, the KCs' state is read as it stands.
  const appended = await http(platform, 'POST', `${curriculumV1}/kcs/${course.kcId}/versions`, {
    token: tenant.token,
    headers: { 'idempotency-key': randomUUID() },
    body: { definition: 'Edited' },
  });
  expect(appended.status, JSON.stringify(appended.body)).toBe(201);
  const kcMoved = await counted();
  expect(kcMoved.statements).toBe(reused.statements);
  expect(kcMoved.reply.body.current.course_graph_sha256).toBe(walked.reply.body.current.course_graph_sha256);
  expect(kcMoved.reply.body.current.kc_snapshot_sha256).not.toBe(walked.reply.body.current.kc_snapshot_sha256);

  // The root's subject is no field of the graph: a change of it is seen at once.
  const { db } = platform.runtime.database;
  await db.execute(
    sql`update curriculum.components set alpha = alpha || '{"subject_id": "science"}' where tenant_id = ${tenant.tenantId} and component_id = 'course'`,
  );
  expectProblem((await counted('subjectId=math')).reply, 404, 'curriculum:not_found');
  expectProblem((await counted('subjectId=science')).reply, 409, 'curriculum:approval_stale');

  // A new approval of the changed graph routes on it, with the routed record as it stands.
  await approveOk(platform, tenant, 'course');
  expect(await routedTo(platform, tenant)).toBe(l2);
  expect((await patchComponent(platform, tenant, l1, { position: 0 })).status).toBe(200);
  expectProblem((await counted()).reply, 409, 'curriculum:approval_stale');
  expect((await patchComponent(platform, tenant, l1, { position: 9 })).status).toBe(200);
  expect((await patchComponent(platform, tenant, l2, { name: 'Renamed' })).status).toBe(200);
  const routed = await counted();
  expect(routed.reply.status, JSON.stringify(routed.reply.body)).toBe(200);
  expect(routed.reply.body.component).toEqual((await readComponent(platform, tenant, l2)).body);
});

it('changes through GraphQL fail routing closed until a new approval: a reorder and a new KC version', async ({
  platform,
  tenant,
}) => {
  const course = await authorCourse(platform, tenant, { lessons: 2 });
  const [l1, l2] = course.lessonIds;
  await approveOk(platform, tenant, 'course');
  const read = await http(platform, 'GET', `${curriculumV1}/components/${l1}`, { token: tenant.token });
  const moved = await graphql(
    platform,
    `
      mutation ($id: ID!, $etag: String!, $key: String!) {
        updateComponent(componentId: $id, ifMatch: $etag, idempotencyKey: $key, input: { position: 9 }) {
          position
        }
      }
    `,
    { id: l1, etag: read.headers.get('etag'), key: randomUUID() },
    tenant.token,
  );
  expect(moved.body.errors).toBeUndefined();
  expectProblem(await nextLesson(platform, tenant, 'course'), 409, 'curriculum:approval_stale');
  await approveOk(platform, tenant, 'course');
  expect(await routedTo(platform, tenant)).toBe(l2);
  const appended = await graphql(
    platform,
    `
      mutation ($kc: ID!, $key: String!) {
        appendKcVersion(kcId: $kc, idempotencyKey: $key, input: { definition: "Edited" }) {
          versionId
        }
      }
    `,
    { kc: course.kcId, key: randomUUID() },
    tenant.token,
  );
  expect(appended.body.errors).toBeUndefined();
  expectProblem(await nextLesson(platform, tenant, 'course'), 409, 'curriculum:approval_stale');
  await approveOk(platform, tenant, 'course');
  expect(await routedTo(platform, tenant)).toBe(l2);
});

it('an ingest that adds to an approved course fails routing closed; a standards import changes no course', async ({
  platform,
  tenant,
}) => {
  const kc = await createKc(platform, tenant, { publication_status: 'published' });
  const pin = pinOf(await eligibleVersion(platform, tenant));
  const resource = (sourcedId: string, sortOrder: number) => ({
    source_table: 'component_resources',
    sourced_id: sourcedId,
    course_component_sourced_id: 'u-1',
    title: `Resource ${sourcedId}`,
    sort_order: sortOrder,
    content_id: pin.content_id,
    content_version_id: pin.content_version_id,
    content_kind: pin.content_kind,
    scope_kc_refs: [kc.kc_id],
  });
  const ingest = (batch: string, resources: unknown[]) =>
    http(platform, 'POST', `${curriculumV1}/ingest/vendor-course-refs`, {
      token: tenant.token,
      body: {
        source_system: 'vendor-x',
        producer_batch_id: batch,
        records: [
          { source_table: 'courses', sourced_id: 'c-1', title: 'Fractions', subject: 'math' },
          { source_table: 'course_components', sourced_id: 'u-1', course_sourced_id: 'c-1', title: 'U', sort_order: 0 },
          ...resources,
        ],
      },
    });
  const first = await ingest('run-1', [resource('r-2', 1)]);
  expect(first.status, JSON.stringify(first.body)).toBe(201);
  const courseId = ingestComponentId('vendor-x', 'courses', 'c-1');
  await approveOk(platform, tenant, courseId);
  expect(await routedTo(platform, tenant, courseId)).toBe(ingestComponentId('vendor-x', 'component_resources', 'r-2'));

  const revision = await revisionOf(platform, tenant.tenantId, courseId);
  const imported = await importStandards(platform, tenant, casePackage(), []);
  expect(imported.status, JSON.stringify(imported.body)).toBe(201);
  expect(await revisionOf(platform, tenant.tenantId, courseId)).toBe(revision);
  expect(await routedTo(platform, tenant, courseId)).toBe(ingestComponentId('vendor-x', 'component_resources', 'r-2'));

  const second = await ingest('run-2', [resource('r-1', 0), resource('r-2', 1)]);
  expect(second.status, JSON.stringify(second.body)).toBe(201);
  expectProblem(await nextLesson(platform, tenant, courseId), 409, 'curriculum:approval_stale');
  await approveOk(platform, tenant, courseId);
  expect(await routedTo(platform, tenant, courseId)).toBe(ingestComponentId('vendor-x', 'component_resources', 'r-1'));
});

it('next-lesson costs the same SQL statements for a course of 2 or 60 lessons, changed or not', async ({
  platform,
}) => {
  const statementsFor = async (lessons: number) => {
    const caller = await newTenant(platform);
    const course = await authorCourse(platform, caller, { lessons });
    await approveOk(platform, caller, 'course');
    const stats = platform.runtime.database.stats;
    const counted = async () => {
      const before = stats.queries;
      expect(await routedTo(platform, caller)).toBe(course.lessonIds[0]);
      return stats.queries - before;
    };
    const approvedGraph = await counted();
    // The revision moves while the graph stays the approved one: the whole subtree is read, still one statement.
    await patchComponent(platform, caller, course.lessonIds[0], { position: 90 });
    await patchComponent(platform, caller, course.lessonIds[0], { position: 0 });
    return [approvedGraph, await counted()];
  };
  const small = await statementsFor(2);
  const large = await statementsFor(60);
  expect(large).toEqual(small);
  expect(small[1]).toBe(small[0] + 2);
});
