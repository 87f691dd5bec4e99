import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphql, newTenant, startTestPlatform, type Caller, type Reply, type TestPlatform } from '../kit.ts';
import { createComponent } from './helpers.ts';
import { approve, approveOk, authorCourse, nextLesson, patchComponent } from './learner-helpers.ts';

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform();
});
afterAll(async () => {
  await platform?.close();
});

const codeOf = (reply: Reply) => reply.body.errors?.[0]?.extensions?.code;

const APPROVE = `mutation($course: ID!, $key: String!, $input: CourseApprovalInput!) {
  approveCourse(courseId: $course, idempotencyKey: $key, input: $input) {
    approvalId sequence courseGraphSha256 kcSnapshotSha256 provenance kcSnapshot { kcId kcVersionId versionNumber state firmedByApproval }
  }
}`;
const ROUTE = `query($course: ID!, $student: String) {
  nextLesson(courseId: $course, studentId: $student) {
    courseId ancestorIds component { componentId alpha { targetRef { contentVersionId } } }
    eligibility { usageScope releaseEligible } approval { approvalId courseGraphSha256 kcSnapshotSha256 kcSnapshot { kcVersionId state } }
  }
}`;

function approveGraphql(caller: Caller, courseId: string, input: Record<string, unknown> = {}) {
  return graphql(
    platform,
    APPROVE,
    {
      course: courseId,
      key: randomUUID(),
      input: { approvedBy: 'reviewer:ada', provenance: { source: 'authoring_ui', course_ref: courseId }, ...input },
    },
    caller.token,
  );
}

describe('learner side through the gateway', () => {
  it('author, pin, publish, approve, route; a reorder fails routing closed until a new approval; same answers as REST', async () => {
    const caller = await newTenant(platform);
    const course = await authorCourse(platform, caller);
    const wrong = await approveGraphql(caller, 'course', { expectedCourseGraphSha256: 'a'.repeat(64) });
    expect(codeOf(wrong)).toBe('curriculum:approval_digest_mismatch');
    expect(codeOf(await graphql(platform, ROUTE, { course: 'course' }, caller.token))).toBe(
      'curriculum:course_not_approved',
    );

    const approved = await approveGraphql(caller, 'course');
    expect(approved.body.errors).toBeUndefined();
    const approval = approved.body.data.approveCourse;
    expect(approval).toMatchObject({
      sequence: 1,
      provenance: { source: 'authoring_ui', course_ref: 'course' },
      kcSnapshot: [{ kcId: course.kcId, state: 'firm', firmedByApproval: true }],
    });

    const routed = await graphql(platform, ROUTE, { course: 'course' }, caller.token);
    expect(routed.body.errors).toBeUndefined();
    expect(routed.body.data.nextLesson).toMatchObject({
      courseId: 'course',
      ancestorIds: ['course', 'course.u1'],
      component: {
        componentId: course.lessonIds[0],
        alpha: { targetRef: { contentVersionId: course.pin.content_version_id } },
      },
      eligibility: { usageScope: 'practice_eligible', releaseEligible: true },
      approval: {
        approvalId: approval.approvalId,
        courseGraphSha256: approval.courseGraphSha256,
        kcSnapshotSha256: approval.kcSnapshotSha256,
      },
    });
    const rest = await nextLesson(platform, caller, 'course');
    expect([rest.body.approval.approval_id, rest.body.component.component_id]).toEqual([
      approval.approvalId,
      course.lessonIds[0],
    ]);

    const lesson = await graphql(
      platform,
      `{ component(componentId: "${course.lessonIds[0]}") { etag } }`,
      {},
      caller.token,
    );
    const reordered = await graphql(
      platform,
      `
        mutation ($id: ID!, $etag: String!, $key: String!) {
          updateComponent(componentId: $id, ifMatch: $etag, idempotencyKey: $key, input: { position: 7 }) {
            position
          }
        }
      `,
      { id: course.lessonIds[0], etag: lesson.body.data.component.etag, key: randomUUID() },
      caller.token,
    );
    expect(reordered.body.errors).toBeUndefined();
    expect(codeOf(await graphql(platform, ROUTE, { course: 'course' }, caller.token))).toBe(
      'curriculum:approval_stale',
    );
    expect((await nextLesson(platform, caller, 'course')).body.code).toBe('curriculum:approval_stale');
    expect((await approveGraphql(caller, 'course')).body.data.approveCourse.sequence).toBe(2);
    const rerouted = await graphql(
      platform,
      `
        {
          component(componentId: "course") {
            nextLesson {
              component {
                componentId
              }
            }
          }
        }
      `,
      {},
      caller.token,
    );
    expect(rerouted.body.data.component.nextLesson.component.componentId).toBe(course.lessonIds[1]);
    const listed = await graphql(
      platform,
      `
        {
          courseApprovals(courseId: "course") {
            data {
              sequence
            }
            nextCursor
          }
        }
      `,
      {},
      caller.token,
    );
    expect(listed.body.data.courseApprovals).toEqual({ data: [{ sequence: 1 }, { sequence: 2 }], nextCursor: null });
  });

  it('a refused approval or route carries the same current digests as the REST problem, so a client can resend', async () => {
    const caller = await newTenant(platform);
    const course = await authorCourse(platform, caller);
    const expected = { expected_course_graph_sha256: 'a'.repeat(64) };
    const rest = await approve(platform, caller, 'course', expected);
    expect(rest.status).toBe(409);
    const wrong = await approveGraphql(caller, 'course', { expectedCourseGraphSha256: 'a'.repeat(64) });
    expect(wrong.body.errors[0].extensions).toMatchObject({
      code: 'curriculum:approval_digest_mismatch',
      course_graph_sha256: rest.body.course_graph_sha256,
      kc_snapshot_sha256: rest.body.kc_snapshot_sha256,
    });

    await approveOk(platform, caller, 'course');
    expect((await patchComponent(platform, caller, course.lessonIds[0], { position: 5 })).status).toBe(200);
    const staleRest = await nextLesson(platform, caller, 'course');
    expect(staleRest.body.code).toBe('curriculum:approval_stale');
    const stale = await graphql(platform, ROUTE, { course: 'course' }, caller.token);
    expect(stale.body.errors[0].extensions).toMatchObject({
      code: 'curriculum:approval_stale',
      approval_id: staleRest.body.approval_id,
      approved: staleRest.body.approved,
      current: staleRest.body.current,
    });
  });

  it('a personalized course answers a stranger exactly like an unknown course; placement candidates by numeric grade', async () => {
    const caller = await newTenant(platform);
    await authorCourse(platform, caller, { courseId: 'mine', studentId: 's1' });
    await approveOk(platform, caller, 'mine');
    const unknown = await graphql(platform, ROUTE, { course: 'nope' }, caller.token);
    for (const student of [null, 's2']) {
      const refused = await graphql(platform, ROUTE, { course: 'mine', student }, caller.token);
      expect(codeOf(refused)).toBe('curriculum:not_found');
      expect(refused.body.errors[0].message.replace('mine', 'nope')).toBe(unknown.body.errors[0].message);
    }
    expect(
      (await graphql(platform, ROUTE, { course: 'mine', student: 's1' }, caller.token)).body.data.nextLesson.component
        .componentId,
    ).toBe('mine.u1.l1');

    await createComponent(platform, caller, {
      component_id: 'track',
      kind: 'track',
      alpha: { subject_id: 'math', grade_level: 4 },
    });
    await createComponent(platform, caller, {
      component_id: 'c4',
      kind: 'course',
      alpha: { publication_status: 'published', subject_id: 'math', grade_level: 4 },
    });
    const placement = await graphql(
      platform,
      `
        {
          placementCandidates(trackId: "track") {
            trackId
            gradeLevels
            candidates {
              componentId
              alpha {
                gradeLevel
              }
            }
          }
        }
      `,
      {},
      caller.token,
    );
    expect(placement.body.data.placementCandidates).toEqual({
      trackId: 'track',
      gradeLevels: [4],
      candidates: [{ componentId: 'c4', alpha: { gradeLevel: 4 } }],
    });
    expect(
      codeOf(
        await graphql(
          platform,
          `
            {
              placementCandidates(trackId: "nope") {
                trackId
              }
            }
          `,
          {},
          caller.token,
        ),
      ),
    ).toBe('curriculum:not_found');
  });

  it('the authoring-UI course query costs the same statements for a course of 2 or 12 lessons', async () => {
    const query = `query($id: ID!) { component(componentId: $id) {
      componentId
      currentApproval { approvalId courseGraphSha256 kcSnapshotSha256 kcSnapshot { kcVersionId state } }
      descendants { componentId kind parentComponentId position alpha { publicationStatus
        targetRef { contentVersionId version { versionId releaseEligibility { releaseEligible usageScope } } } } }
    } }`;
    const statementsFor = async (lessons: number) => {
      const caller = await newTenant(platform);
      await authorCourse(platform, caller, { lessons });
      await approveOk(platform, caller, 'course');
      const stats = platform.runtime.database.stats;
      const before = stats.queries;
      const reply = await graphql(platform, query, { id: 'course' }, caller.token);
      const used = stats.queries - before;
      expect(reply.body.errors).toBeUndefined();
      const { descendants, currentApproval } = reply.body.data.component;
      expect(descendants).toHaveLength(lessons + 1);
      expect(
        descendants.slice(1).every((node: any) => node.alpha.targetRef.version.releaseEligibility.releaseEligible),
      ).toBe(true);
      expect(currentApproval.kcSnapshot).toEqual([{ kcVersionId: expect.any(String), state: 'firm' }]);
      return used;
    };
    const small = await statementsFor(2);
    const large = await statementsFor(12);
    expect(large).toBe(small);
    expect(small).toBeLessThanOrEqual(5);
  });
});
