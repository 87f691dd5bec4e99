import type { RequestContext } from '../../../platform/context.ts';
import { requireAccess } from '../../../platform/auth.ts';
import { DomainError } from '../../../platform/errors.ts';
import { parseInput } from '../../../platform/validation.ts';
import { ACCESS } from '../access.ts';
import { requireStudentInBoundary } from '../learner-boundary.ts';
import type { TargetRef } from '../content-client.ts';
import type { CurriculumDeps } from '../deps.ts';
import { LRUCache } from 'lru-cache';
import { prepareOncePerDatabase, type Database } from '../../../platform/db.ts';
import { courseGraph, referencedKcIds, type GraphNode } from '../approvals/course-graph.ts';
import { currentKcSnapshotSha256, type CourseDigests } from '../approvals/approvals.service.ts';
import {
  approvesCurrentGraph,
  courseNotFound,
  courseRootOf,
  findLatestApproval,
  type LatestApproval,
  readCourseGraph,
  readGraphRevision,
  readKcStates,
  type CourseNode,
  type CourseApproval,
  type KcState,
} from '../approvals/course-state.ts';
import { nextLessonRoute, routeAlong, type Route } from './next-lesson.route.ts';
import { NextLessonQuery } from './next-lesson.schema.ts';
import { Component, findComponents } from '../queries.ts';

/**
 * GET /courses/{courseId}/next-lesson (rules 10, 11). The curriculum service keeps no learner
 * history, so the answer is a function of the graph, its latest approval and the live eligibility
 * of one pinned version: the first routable node in course order. While the course's graph
 * revision equals the one the latest approval recorded, the graph is the approved one, so its
 * digest is the approval's and routing reads only the recorded first routable node and its
 * ancestors; otherwise it walks the whole course once per revision, and an unchanged digest still
 * routes. One SQL statement (the latest approval with its snapshot KCs' current state, the
 * revision and the route ancestry) and one eligibility call whatever the course size; when the
 * revision moved, the walk once, then the routed record (a digest unchanged) or the KCs' state (a
 * digest changed), and the root when the recorded route no longer hangs from it. Every check fails
 * closed, and a personalized root asked for by anyone but its student is an unknown course before
 * anything else is judged or asked.
 */

function approvalStale(approval: CourseApproval, current: CourseDigests, detail: string): DomainError {
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
  courseId: string,
  current: CourseDigests,
  kcStates: ReadonlyMap<string, KcState>,
): void {
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

/** What routing needs of the course graph: its root, the route, the graph digest and the KCs it references. */
interface CourseRouting {
  root: Component;
  route: Route<GraphNode>;
  /** The routed node's whole record, when the route was read as records. */
  routedRecord: Component | undefined;
  graphSha256: string;
  kcIds: string[];
  kcStates: ReadonlyMap<string, KcState>;
}

/** The approved graph's route along the recorded node's ancestry, or undefined once the graph's revision moved. */
function approvedRouting(courseId: string, latest: LatestApproval): CourseRouting | undefined {
  if (!approvesCurrentGraph(latest, courseId)) return undefined;
  const chain = latest.routeChain;
  const route = routeAlong(chain[chain.length - 1], chain.slice(0, -1));
  return {
    root: courseRootOf(chain, courseId),
    route,
    routedRecord: route.outcome === 'route' ? route.node : undefined,
    graphSha256: latest.approval.course_graph_sha256,
    kcIds: latest.approval.kc_snapshot.map((entry) => entry.kc_id),
    kcStates: latest.kcStates,
  };
}

/** What a walk of the whole course gives routing: facts of the canonical graph alone, the same for every read of one revision. */
interface CourseWalk {
  revision: number;
  route: Route<CourseNode>;
  graphSha256: string;
  kcIds: string[];
}

/**
 * The last walk of each course, with the graph revision it walked. The revision advances in every
 * transaction that changes a field of the canonical graph, so a walk of a revision is the walk of
 * every later read of it: a course edited since its approval is walked once per edit, not on every
 * learner's call (a 2,000-node walk holds PGlite's one connection for about 15 ms). What else
 * routing answers is read on every call.
 */
const courseWalks = prepareOncePerDatabase(() => new LRUCache<string, CourseWalk>({ max: 256 }));

async function walkCourse(db: Database, tenantId: string, courseId: string, revision: number): Promise<CourseWalk> {
  const key = `${tenantId}\u0000${courseId}`;
  const walked = courseWalks(db).get(key);
  if (walked?.revision === revision) return walked;
  const subtree = await readCourseGraph(db, tenantId, courseId);
  courseRootOf(subtree, courseId);
  const graph = courseGraph(subtree, courseId);
  const walk = {
    revision,
    route: nextLessonRoute(graph.firstRoutable),
    graphSha256: graph.sha256,
    kcIds: referencedKcIds(subtree),
  };
  // A call that read an older revision and walked after a newer one does not take its place.
  const kept = courseWalks(db).get(key);
  if (kept === undefined || kept.revision < revision) courseWalks(db).set(key, walk);
  return walk;
}

/**
 * The route over the whole course as it stands, from its walk at the current revision; the root is
 * read as it stands (its subject is no field of the graph). The KCs of a graph the latest approval
 * digested are its snapshot's, whose state came with the approval; a course never approved is
 * refused before its KCs matter.
 */
async function walkedRouting(
  db: Database,
  tenantId: string,
  courseId: string,
  latest: LatestApproval | undefined,
): Promise<CourseRouting> {
  const revision = latest?.revision ?? (await readGraphRevision(db, tenantId, courseId));
  const chainRoot = latest?.routeChain[0];
  const [walk, root] = await Promise.all([
    walkCourse(db, tenantId, courseId, revision),
    chainRoot?.component_id === courseId
      ? chainRoot
      : findComponents(db, tenantId, [courseId]).then(([record]) => record),
  ]);
  const approved = latest?.approval.course_graph_sha256 === walk.graphSha256;
  return {
    root: courseRootOf(root ? [root] : [], courseId),
    route: walk.route,
    routedRecord: undefined,
    graphSha256: walk.graphSha256,
    kcIds: walk.kcIds,
    kcStates: latest && !approved ? await readKcStates(db, tenantId, walk.kcIds) : (latest?.kcStates ?? new Map()),
  };
}

export async function nextLesson(
  deps: CurriculumDeps,
  ctx: RequestContext,
  input: { courseId: string; query: unknown },
) {
  requireAccess(ctx.principal, ACCESS.read, 'route learners');
  const query = parseInput(NextLessonQuery, input.query);
  if (query.studentId !== undefined) requireStudentInBoundary(ctx, query.studentId);
  const { courseId } = input;
  const latest = await findLatestApproval(deps.db, ctx.tenantId, courseId);
  const { root, route, routedRecord, graphSha256, kcIds, kcStates } =
    (latest && approvedRouting(courseId, latest)) ?? (await walkedRouting(deps.db, ctx.tenantId, courseId, latest));
  if (
    (root.student_id !== undefined && root.student_id !== query.studentId) ||
    (query.subjectId !== undefined && root.alpha.subject_id !== query.subjectId)
  ) {
    throw courseNotFound(courseId);
  }
  if (route.outcome === 'structure_missing') {
    throw new DomainError(
      'curriculum:lesson_structure_missing',
      `Course ${courseId} has no ordered, KC-scoped, pinned lesson, review, practice or gate.`,
    );
  }
  if (!latest)
    throw new DomainError(
      'curriculum:course_not_approved',
      `Course ${courseId} has no approval; approve it before routing learners.`,
    );
  const { approval } = latest;
  const current = {
    course_graph_sha256: graphSha256,
    kc_snapshot_sha256: currentKcSnapshotSha256(kcIds, kcStates),
  };
  requireCurrentApproval(approval, courseId, current, kcStates);
  if (route.outcome === 'not_published') {
    throw new DomainError(
      'curriculum:route_not_published',
      `Component ${route.blocking.component_id} on the route is ${route.blocking.alpha.publication_status ?? 'draft'}; nothing later is offered.`,
    );
  }
  const [eligibility, component] = await Promise.all([
    deps.content.requireEligible(ctx, route.node.alpha.target_ref as TargetRef, { practiceEligible: true }),
    routedRecord ?? findComponents(deps.db, ctx.tenantId, [route.node.component_id]).then(([record]) => record),
  ]);
  return {
    course_id: courseId,
    student_id: query.studentId ?? null,
    as_of_date: query.asOfDate ?? null,
    component,
    ancestor_ids: route.ancestors.map((node) => node.component_id),
    eligibility,
    approval,
  };
}
export type NextLesson = Awaited<ReturnType<typeof nextLesson>>;
export type LaunchEligibility = NextLesson['eligibility'];
