import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  curriculumV1,
  eligibleVersion,
  http,
  newTenant,
  sameTenant,
  startTestPlatform,
  tenantRoot,
  type Caller,
  type Reply,
  type TestPlatform,
} from '../kit.ts';
import { createComponent, expectProblem, key, pinOf, trustedNewVersion } from './helpers.ts';
import { approveOk, authorCourse, nextLesson, patchComponent } from './learner-helpers.ts';
import { startFakeContent, type FakeContent } from './fake-content.ts';

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform();
});
afterAll(async () => {
  await platform?.close();
});

async function routesTo(caller: Caller, lessonId: string, query = ''): Promise<Reply> {
  const reply = await nextLesson(platform, caller, 'course', query);
  expect([reply.status, reply.body.component?.component_id], JSON.stringify(reply.body)).toEqual([200, lessonId]);
  return reply;
}

describe('GET /courses/{courseId}/next-lesson', () => {
  it('routes to the first ordered lesson, naming the approval, its digests and the firm snapshot', async () => {
    const caller = await newTenant(platform);
    const course = await authorCourse(platform, caller);
    const approval = await approveOk(platform, caller, 'course');
    const reply = await routesTo(caller, course.lessonIds[0], 'asOfDate=2026-09-01&subjectId=math');
    expect(reply.body).toMatchObject({
      course_id: 'course',
      student_id: null,
      as_of_date: '2026-09-01',
      ancestor_ids: ['course', 'course.u1'],
      component: { kind: 'lesson', alpha: { target_ref: course.pin, publication_status: 'published' } },
      eligibility: {
        content_version_id: course.pin.content_version_id,
        usage_scope: 'practice_eligible',
        release_eligible: true,
      },
      approval: {
        approval_id: approval.approval_id,
        course_graph_sha256: approval.course_graph_sha256,
        kc_snapshot_sha256: approval.kc_snapshot_sha256,
        kc_snapshot: [{ kc_id: course.kcId, state: 'firm' }],
      },
    });
    // Deterministic: the same graph and approval give the same answer.
    expect((await nextLesson(platform, caller, 'course')).body.component).toEqual(reply.body.component);
  });

  it('approves and routes a course whose ids are as long as a component_id may be (200 characters)', async () => {
    const caller = await newTenant(platform);
    const courseId = `c:${'x'.repeat(192)}`;
    const course = await authorCourse(platform, caller, { courseId, lessons: 1 });
    expect(course.lessonIds[0]).toHaveLength(200);
    await approveOk(platform, caller, courseId);
    const reply = await nextLesson(platform, caller, encodeURIComponent(courseId));
    expect([reply.status, reply.body.component?.component_id], JSON.stringify(reply.body)).toEqual([
      200,
      course.lessonIds[0],
    ]);
    const lesson = await http(platform, 'GET', `${curriculumV1}/components/${course.lessonIds[0]}`, {
      token: caller.token,
    });
    expect(lesson.status, JSON.stringify(lesson.body)).toBe(200);
  });

  it('fails closed until a new approval after a reorder, a reparent, a repoint, a retired child or a new KC version', async () => {
    const caller = await newTenant(platform);
    const course = await authorCourse(platform, caller, { lessons: 3 });
    const [l1, l2, l3] = course.lessonIds;
    expectProblem(await nextLesson(platform, caller, 'course'), 409, 'curriculum:course_not_approved');
    await approveOk(platform, caller, 'course');
    await routesTo(caller, l1);
    const staleUntilApproved = async (change: () => Promise<unknown>, routed: string) => {
      await change();
      const stale = await nextLesson(platform, caller, 'course');
      expectProblem(stale, 409, 'curriculum:approval_stale');
      expect(JSON.stringify(stale.body)).not.toContain(routed);
      await approveOk(platform, caller, 'course');
      await routesTo(caller, routed);
    };
    await staleUntilApproved(() => patchComponent(platform, caller, l1, { position: 9 }), l2);
    await createComponent(platform, caller, {
      component_id: 'course.u0',
      kind: 'unit',
      parent_component_id: 'course',
      position: 0,
      alpha: { publication_status: 'published' },
    });
    await approveOk(platform, caller, 'course');
    await staleUntilApproved(
      () => patchComponent(platform, caller, l3, { parent_component_id: 'course.u0', position: 0 }),
      l3,
    );
    const second = await trustedNewVersion(platform, caller, course.pin.content_id);
    await staleUntilApproved(async () => {
      const repointed = await http(platform, 'POST', `${curriculumV1}/components/${l3}/repoint`, {
        token: caller.token,
        headers: key(),
        body: {
          operation: 'repoint',
          expected_target_ref: course.pin,
          target_ref: { ...course.pin, content_version_id: second },
        },
      });
      expect(repointed.status, JSON.stringify(repointed.body)).toBe(201);
    }, l3);
    await staleUntilApproved(async () => {
      const read = await http(platform, 'GET', `${curriculumV1}/components/${l3}`, { token: caller.token });
      const retired = await http(platform, 'DELETE', `${curriculumV1}/components/${l3}`, {
        token: caller.token,
        headers: { ...key(), 'x-curriculum-if-match': read.headers.get('etag') as string },
      });
      expect(retired.status).toBe(200);
    }, l2);
    await staleUntilApproved(async () => {
      const appended = await http(platform, 'POST', `${curriculumV1}/kcs/${course.kcId}/versions`, {
        token: caller.token,
        headers: key(),
        body: { definition: 'Edited' },
      });
      expect(appended.status, JSON.stringify(appended.body)).toBe(201);
    }, l2);
  });

  it('a draft on the route fails closed and never exposes a later node', async () => {
    const caller = await newTenant(platform);
    const course = await authorCourse(platform, caller);
    await patchComponent(platform, caller, course.lessonIds[0], {
      alpha: { publication_status: 'draft', target_ref: course.pin, scope_kc_refs: [course.kcId] },
    });
    await approveOk(platform, caller, 'course');
    const refused = await nextLesson(platform, caller, 'course');
    expectProblem(refused, 409, 'curriculum:route_not_published');
    expect(JSON.stringify(refused.body)).not.toContain(course.lessonIds[1]);
    await patchComponent(platform, caller, 'course.u1', { alpha: { publication_status: 'draft' } });
    await patchComponent(platform, caller, course.lessonIds[0], {
      alpha: { publication_status: 'published', target_ref: course.pin, scope_kc_refs: [course.kcId] },
    });
    await approveOk(platform, caller, 'course');
    expectProblem(await nextLesson(platform, caller, 'course'), 409, 'curriculum:route_not_published');
  });

  it('re-checks the pinned exact version at launch: a version no longer eligible fails closed', async () => {
    const caller = await newTenant(platform);
    const course = await authorCourse(platform, caller);
    await approveOk(platform, caller, 'course');
    await routesTo(caller, course.lessonIds[0]);
    const reviewer = await sameTenant(platform, caller);
    const qc = await http(
      platform,
      'POST',
      `${tenantRoot(caller.tenantId)}/items/${course.pin.content_id}/versions/${course.pin.content_version_id}/qc-decisions`,
      {
        token: reviewer.token,
        body: { trust_status: 'failed', reason: 'wrong key' },
      },
    );
    expect(qc.status, JSON.stringify(qc.body)).toBe(201);
    expectProblem(await nextLesson(platform, caller, 'course'), 409, 'curriculum:target_not_serveable');
  });

  it('answers lesson_structure_missing, not_found, forbidden and validation problems', async () => {
    const caller = await newTenant(platform);
    await createComponent(platform, caller, {
      component_id: 'course',
      kind: 'course',
      alpha: { publication_status: 'published', subject_id: 'math' },
    });
    const version = await eligibleVersion(platform, caller);
    await createComponent(platform, caller, {
      component_id: 'anchor',
      kind: 'lesson',
      parent_component_id: 'course',
      alpha: { publication_status: 'published', target_ref: pinOf(version) },
    });
    expectProblem(await nextLesson(platform, caller, 'course'), 409, 'curriculum:lesson_structure_missing');
    expectProblem(await nextLesson(platform, caller, 'anchor'), 404, 'curriculum:not_found');
    expectProblem(await nextLesson(platform, caller, 'nope'), 404, 'curriculum:not_found');
    expectProblem(await nextLesson(platform, caller, 'course', 'subjectId=reading'), 404, 'curriculum:not_found');
    for (const query of ['asOfDate=yesterday&x=1', 'asOfDate=0000-01-01', 'asOfDate=2024-02-30']) {
      expectProblem(await nextLesson(platform, caller, 'course', query), 400, 'curriculum:validation_failed');
    }
    const writer = await newTenant(platform, { tenantId: caller.tenantId, scopes: ['curriculum:write'] });
    expectProblem(await nextLesson(platform, writer, 'course'), 403, 'curriculum:forbidden');
  });
});

describe('personalized course roots (rule 11)', () => {
  let fake: FakeContent;
  let isolated: TestPlatform;
  beforeAll(async () => {
    fake = await startFakeContent();
    isolated = await startTestPlatform({ config: { contentUrl: fake.url } });
  });
  afterAll(async () => {
    await isolated?.close();
    await fake?.close();
  });

  it('a missing or different studentId gets exactly the unknown-course answer, before any content call', async () => {
    const caller = await newTenant(isolated);
    const pin = {
      module: 'content',
      content_kind: 'article',
      content_id: randomUUID(),
      content_version_id: randomUUID(),
    };
    await authorCourse(isolated, caller, { courseId: 'mine', studentId: 'student-1', pin });
    await approveOk(isolated, caller, 'mine');
    const stable = (reply: Reply) => ({
      status: reply.status,
      type: reply.headers.get('content-type'),
      body: { ...reply.body, requestId: undefined, traceId: undefined },
    });
    const unknown = stable(await nextLesson(isolated, caller, 'nope'));
    const calls = fake.calls;
    for (const query of ['', 'studentId=student-2', 'studentId=STUDENT-1']) {
      const refused = stable(await nextLesson(isolated, caller, 'mine', query));
      expect(JSON.stringify(refused).replaceAll('mine', 'nope')).toBe(JSON.stringify(unknown));
    }
    expect(fake.calls).toBe(calls);
    const routed = await nextLesson(isolated, caller, 'mine', 'studentId=student-1');
    expect([routed.status, routed.body.student_id, routed.body.component.component_id]).toEqual([
      200,
      'student-1',
      'mine.u1.l1',
    ]);
    expect(fake.calls).toBe(calls + 1);
  });

  it('fails closed with a typed problem when content does not answer at launch', async () => {
    const caller = await newTenant(isolated);
    const pin = {
      module: 'content',
      content_kind: 'article',
      content_id: randomUUID(),
      content_version_id: randomUUID(),
    };
    await authorCourse(isolated, caller, { pin });
    await approveOk(isolated, caller, 'course');
    fake.mode = 'not_practice';
    expectProblem(await nextLesson(isolated, caller, 'course'), 409, 'curriculum:target_not_serveable');
    fake.mode = '503';
    expectProblem(await nextLesson(isolated, caller, 'course'), 503, 'curriculum:content_unavailable');
    fake.mode = 'eligible';
  });
});
