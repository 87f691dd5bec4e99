import type { RequestContext } from '../../../platform/context.ts';
import { requireAccess } from '../../../platform/auth.ts';
import { DomainError } from '../../../platform/errors.ts';
import { parseInput } from '../../../platform/validation.ts';
import { ACCESS } from '../access.ts';
import type { TargetRef } from '../content-client.ts';
import type { CurriculumDeps } from '../deps.ts';
import { referencedKcIds } from '../approvals/course-graph.ts';
import { currentDigests } from '../approvals/approvals.service.ts';
import {
  courseNotFound,
  courseRootOf,
  findLatestApprovals,
  readCourseSubtree,
  readKcStates,
  type CourseApproval,
  type KcState,
} from '../approvals/course-state.ts';
import { nextLessonRoute } from './next-lesson.route.ts';
import { NextLessonQuery } from './next-lesson.schema.ts';
import { Component } from '../queries.ts';

/**
 * GET /courses/{courseId}/next-lesson (rules 10, 11). The curriculum service keeps no learner
 * history, so the answer is a function of the graph, its latest approval and the live eligibility
 * of one pinned version: the first routable node in course order. Three SQL statements (subtree,
 * latest approval with snapshot, KC states) and one eligibility call, whatever the course size.
 * Every check fails closed, and a personalized root asked for by anyone but its student is an
 * unknown course before anything else is read or asked.
 */

function approvalStale(
  approval: CourseApproval,
  current: { course_graph_sha256: string; kc_snapshot_sha256: string },
  detail: string,
): DomainError {
  return new DomainError('curriculum:approval_stale', `${detail} Append a new approval to route again.`, {
    extensions: {
      approval_id: approval.approval_id,
      approved: { course_graph_sha256: approval.course_graph_sha256, kc_snapshot_sha256: approval.kc_snapshot_sha256 },
      current,
    },
  });
}

/** The approval holds, and every exact KC version it names is still the firm current version of an active, published KC. */
function requireCurrentApproval(
  approval: CourseApproval,
  subtree: readonly Component[],
  courseId: string,
  kcStates: ReadonlyMap<string, KcState>,
): void {
  const current = currentDigests(subtree, courseId, kcStates);
  if (
    current.course_graph_sha256 !== approval.course_graph_sha256 ||
    current.kc_snapshot_sha256 !== approval.kc_snapshot_sha256
  ) {
    throw approvalStale(approval, current, `Course ${courseId} changed since approval ${approval.approval_id}.`);
  }
  const unsound = approval.kc_snapshot.find((entry) => {
    const state = kcStates.get(entry.kc_id);
    return (
      !state ||
      state.status !== 'active' ||
      state.publication_status !== 'published' ||
      state.current_version_id !== entry.kc_version_id ||
      state.firming_event_id === null
    );
  });
  if (unsound)
    throw approvalStale(
      approval,
      current,
      `KC ${unsound.kc_id} of approval ${approval.approval_id} is no longer active, published and firm.`,
    );
}

export async function nextLesson(
  deps: CurriculumDeps,
  ctx: RequestContext,
  input: { courseId: string; query: unknown },
) {
  requireAccess(ctx.principal, ACCESS.read, 'route learners');
  const query = parseInput(NextLessonQuery, input.query);
  const { courseId } = input;
  const subtree = await readCourseSubtree(deps.db, ctx.tenantId, courseId);
  const root = courseRootOf(subtree, courseId);
  if (
    (root.student_id !== undefined && root.student_id !== query.studentId) ||
    (query.subjectId !== undefined && root.alpha.subject_id !== query.subjectId)
  ) {
    throw courseNotFound(courseId);
  }
  const route = nextLessonRoute(subtree, courseId);
  if (route.outcome === 'structure_missing') {
    throw new DomainError(
      'curriculum:lesson_structure_missing',
      `Course ${courseId} has no ordered, KC-scoped, pinned lesson, review, practice or gate.`,
    );
  }
  const approval = (await findLatestApprovals(deps.db, ctx.tenantId, [courseId])).get(courseId);
  if (!approval)
    throw new DomainError(
      'curriculum:course_not_approved',
      `Course ${courseId} has no approval; approve it before routing learners.`,
    );
  requireCurrentApproval(
    approval,
    subtree,
    courseId,
    await readKcStates(deps.db, ctx.tenantId, referencedKcIds(subtree)),
  );
  if (route.outcome === 'not_published') {
    throw new DomainError(
      'curriculum:route_not_published',
      `Component ${route.blocking.component_id} on the route is ${route.blocking.alpha.publication_status ?? 'draft'}; nothing later is offered.`,
    );
  }
  const eligibility = await deps.content.requireEligible(ctx, route.node.alpha.target_ref as TargetRef, {
    practiceEligible: true,
  });
  return {
    course_id: courseId,
    student_id: query.studentId ?? null,
    as_of_date: query.asOfDate ?? null,
    component: route.node,
    ancestor_ids: route.ancestors.map((node) => node.component_id),
    eligibility,
    approval,
  };
}
export type NextLesson = Awaited<ReturnType<typeof nextLesson>>;
export type LaunchEligibility = NextLesson['eligibility'];
