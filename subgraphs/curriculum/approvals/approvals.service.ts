import { tenantRows } from '../../../platform/tenant-rows.ts';
import { randomUUID } from 'node:crypto';
import { eq, isNull, sql } from 'drizzle-orm';
import { lockKey, type Database } from '../../../platform/db.ts';
import type { RequestContext } from '../../../platform/context.ts';
import { requireAccess } from '../../../platform/auth.ts';
import { DomainError } from '../../../platform/errors.ts';
import type { CommandResult } from '../../../platform/idempotency.ts';
import { pageInIdOrder, pageRequest } from '../../../platform/keyset.ts';
import type { Page } from '../../../platform/cursor.ts';
import { parseInput } from '../../../platform/validation.ts';
import { components, courseApprovalKcVersions, courseApprovals } from '../tables.ts';
import { ACCESS } from '../access.ts';
import { requireCommandInBoundary, requirePersonalizedCourseInBoundary } from '../learner-boundary.ts';
import { runCommand } from '../../../platform/commands.ts';
import { firmKcVersion } from '../kc-graph/kc-graph.service.ts';
import type { CurriculumDeps } from '../deps.ts';
import { CONTENT_BEARING_KINDS } from '../components/components.schema.ts';
import { courseGraph, courseOrder, isRoutable, kcSnapshotSha256, referencedKcIds } from './course-graph.ts';
import {
  approvesCurrentGraph,
  courseNotFound,
  courseRootOf,
  findApprovals,
  findLatestApproval,
  findLatestApprovals,
  readCourseGraph,
  readCourseSubtree,
  readGraphRevision,
  readKcStates,
  type CourseApproval,
  type CourseNode,
  type KcState,
} from './course-state.ts';
import { ApproveCourseInput, ListApprovalsQuery } from './approvals.schema.ts';
import { Component } from '../queries.ts';

/**
 * Course approvals (rule 9). Invariants: preconditions and the expected digests are judged inside
 * the approval transaction, under a per-course lock, before anything is written; the approval, its
 * exact KC-version snapshot and the firming events of the draft versions it names are written in
 * that one transaction; an approval of the graph and KC set the latest approval already holds
 * answers that approval instead of appending a second one, so concurrent identical approvals give
 * exactly one.
 */

export interface CourseDigests {
  course_graph_sha256: string;
  kc_snapshot_sha256: string;
}

/** The digest of the current versions of the KCs named (an unknown KC or one without a version digests as ''). */
export function currentKcSnapshotSha256(kcIds: readonly string[], kcStates: ReadonlyMap<string, KcState>): string {
  return kcSnapshotSha256(
    kcIds.map((kcId) => ({ kc_id: kcId, kc_version_id: kcStates.get(kcId)?.current_version_id ?? '' })),
  );
}

/** Every rule-9 precondition of the subtree; returns the KCs the subtree references and the states it read of them. */
async function requireApprovable(
  tx: Database,
  tenantId: string,
  subtree: readonly CourseNode[],
  root: CourseNode,
): Promise<{ kcIds: string[]; kcStates: Map<string, KcState> }> {
  if (root.alpha.publication_status !== 'published') {
    throw new DomainError(
      'curriculum:course_not_published',
      `Course ${root.component_id} is a draft; publish the course root before approving it.`,
    );
  }
  if (!subtree.some(isRoutable)) {
    throw new DomainError(
      'curriculum:lesson_structure_missing',
      `Course ${root.component_id} has no ordered, KC-scoped, pinned lesson, review, practice or gate.`,
    );
  }
  const unpinned = subtree.filter(
    (node) =>
      CONTENT_BEARING_KINDS.has(node.kind) &&
      !node.alpha.target_ref &&
      ((node.alpha.scope_kc_refs as string[] | undefined) ?? []).length > 0,
  );
  if (unpinned.length > 0) {
    throw new DomainError(
      'curriculum:course_graph_incomplete',
      'Every KC-scoped lesson, review, practice and gate of an approved course pins an exact content version.',
      {
        fieldErrors: unpinned.map((node) => ({
          field: `components.${node.component_id}.alpha.target_ref`,
          message: 'no exact content pin',
        })),
      },
    );
  }
  const kcIds = referencedKcIds(subtree);
  const kcStates = await readKcStates(tx, tenantId, kcIds);
  requireApprovableKcs(kcIds, kcStates);
  return { kcIds, kcStates };
}

/** The rule-9 precondition on the KCs a course references, judged on the states read of them. */
function requireApprovableKcs(kcIds: readonly string[], states: ReadonlyMap<string, KcState>): void {
  const blocked = kcIds.filter((kcId) => {
    const state = states.get(kcId);
    return (
      !state ||
      state.status !== 'active' ||
      state.publication_status !== 'published' ||
      state.current_version_id === null
    );
  });
  if (blocked.length > 0) {
    throw new DomainError(
      'curriculum:kc_not_approvable',
      'Every KC the course references must be active, published and have an exact current version.',
      {
        fieldErrors: blocked.map((kcId) => ({
          field: `kc_refs.${kcId}`,
          message: `${states.get(kcId)?.status ?? 'unknown'} / ${states.get(kcId)?.publication_status ?? 'unknown'}`,
        })),
      },
    );
  }
}

function requireExpectedDigests(input: ApproveCourseInput, current: CourseDigests): void {
  const graphDiffers =
    input.expected_course_graph_sha256 !== undefined &&
    input.expected_course_graph_sha256 !== current.course_graph_sha256;
  const kcsDiffer =
    input.expected_kc_snapshot_sha256 !== undefined && input.expected_kc_snapshot_sha256 !== current.kc_snapshot_sha256;
  if (!graphDiffers && !kcsDiffer) return;
  throw new DomainError(
    'curriculum:approval_digest_mismatch',
    'The course changed since the digests you sent; nothing was approved.',
    {
      fieldErrors: [
        ...(graphDiffers
          ? [{ field: 'expected_course_graph_sha256', message: 'differs from the current course graph' }]
          : []),
        ...(kcsDiffer
          ? [{ field: 'expected_kc_snapshot_sha256', message: 'differs from the current KC-version set' }]
          : []),
      ],
      extensions: { ...current },
    },
  );
}

/** POST /courses/{courseId}/approvals. */
export async function approveCourse(
  deps: CurriculumDeps,
  ctx: RequestContext,
  input: { courseId: string; body: unknown; idempotencyKey: string | undefined },
): Promise<CommandResult<CourseApproval>> {
  requireAccess(ctx.principal, ACCESS.write, 'approve courses');
  const body = parseInput(ApproveCourseInput, input.body);
  if (body.provenance.course_ref !== undefined && body.provenance.course_ref !== input.courseId) {
    throw new DomainError('validation_failed', 'provenance.course_ref names another course.', {
      fieldErrors: [{ field: 'provenance.course_ref', message: `must be ${input.courseId}` }],
    });
  }
  await requireCommandInBoundary(deps.db, ctx, { componentIds: [input.courseId] });
  const call = {
    operation: 'course-approvals.create',
    key: input.idempotencyKey,
    sent: { course_id: input.courseId, body: input.body },
    keyRequired: true,
  };
  return runCommand(deps, ctx, call, async (tx) => {
    await lockKey(tx, `course-approval|${ctx.tenantId}|${input.courseId}`);
    const current = await findLatestApproval(tx, ctx.tenantId, input.courseId);
    const latest = current?.approval;
    if (current && approvesCurrentGraph(current, input.courseId)) {
      // The graph is the one the latest approval digested and found approvable; only its KCs can have
      // moved. A course approved again unchanged is answered without reading its graph.
      const kcIds = current.approval.kc_snapshot.map((entry) => entry.kc_id);
      requireApprovableKcs(kcIds, current.kcStates);
      const digests: CourseDigests = {
        course_graph_sha256: current.approval.course_graph_sha256,
        kc_snapshot_sha256: currentKcSnapshotSha256(kcIds, current.kcStates),
      };
      requireExpectedDigests(body, digests);
      if (digests.kc_snapshot_sha256 === current.approval.kc_snapshot_sha256)
        return { value: current.approval, created: false };
    }
    // Before the subtree: a change committed in between then leaves a newer revision, never an older one.
    const graphRevision = await readGraphRevision(tx, ctx.tenantId, input.courseId);
    const subtree = await readCourseGraph(tx, ctx.tenantId, input.courseId);
    const root = courseRootOf(subtree, input.courseId);
    const { kcIds, kcStates } = await requireApprovable(tx, ctx.tenantId, subtree, root);
    const graph = courseGraph(subtree, input.courseId);
    const digests: CourseDigests = {
      course_graph_sha256: graph.sha256,
      kc_snapshot_sha256: currentKcSnapshotSha256(kcIds, kcStates),
    };
    requireExpectedDigests(body, digests);
    if (
      latest &&
      latest.course_graph_sha256 === digests.course_graph_sha256 &&
      latest.kc_snapshot_sha256 === digests.kc_snapshot_sha256
    ) {
      return { value: latest, created: false };
    }
    const approvalId = randomUUID();
    const now = ctx.now.toISOString();
    await tx.insert(courseApprovals).values({
      tenantId: ctx.tenantId,
      approvalId,
      courseId: input.courseId,
      sequence: (latest?.sequence ?? 0) + 1,
      approvedBy: body.approved_by,
      provenance: body.provenance,
      courseGraphSha256: digests.course_graph_sha256,
      kcSnapshotSha256: digests.kc_snapshot_sha256,
      expectedCourseGraphSha256: body.expected_course_graph_sha256 ?? null,
      expectedKcSnapshotSha256: body.expected_kc_snapshot_sha256 ?? null,
      courseGraph: sql`${graph.json}::jsonb`,
      graphRevision,
      routeComponentId: graph.firstRoutable?.node.component_id ?? null,
      recordedBy: ctx.principal.subject,
      createdAt: now,
    });
    const snapshot = [];
    for (const state of [...kcStates.values()].sort((a, b) => (a.kc_id < b.kc_id ? -1 : 1))) {
      const versionId = state.current_version_id as string;
      // Read as draft: a concurrent approval or firming event may have firmed it since; its event is then kept.
      const firmed = state.firming_event_id
        ? undefined
        : await firmKcVersion(tx, ctx, {
            versionId,
            source: 'course_approval',
            evidence: { course_id: input.courseId, approval_id: approvalId },
            whenFirm: 'keep',
          });
      snapshot.push({
        tenantId: ctx.tenantId,
        approvalId,
        kcId: state.kc_id,
        kcVersionId: versionId,
        versionNumber: state.version_number as number,
        firmingEventId: firmed?.firming.firming_event_id ?? (state.firming_event_id as string),
        firmedByApproval: firmed?.created === true,
      });
    }
    if (snapshot.length > 0) await tx.insert(courseApprovalKcVersions).values(snapshot);
    const [approval] = await findApprovals(tx, ctx.tenantId, [approvalId]);
    return { value: approval, created: true };
  });
}

/** GET /courses/{courseId}/approvals: every approval of the course root in sequence order, each with its snapshot. */
export async function listApprovals(
  deps: CurriculumDeps,
  ctx: RequestContext,
  input: { courseId: string; query: unknown },
): Promise<Page<CourseApproval>> {
  requireAccess(ctx.principal, ACCESS.read, 'read course approvals');
  const query = parseInput(ListApprovalsQuery, input.query);
  const [course] = await deps.db
    .select({ componentId: components.componentId })
    .from(components)
    .where(
      tenantRows(
        components,
        ctx.tenantId,
        { componentId: input.courseId, kind: 'course', status: 'active' },
        isNull(components.parentComponentId),
      ),
    );
  if (!course) throw courseNotFound(input.courseId);
  await requirePersonalizedCourseInBoundary(deps.db, ctx, input.courseId);
  type Row = typeof courseApprovals.$inferSelect;
  const source = {
    table: courseApprovals,
    idColumn: courseApprovals.sequence,
    idOf: (row: Row) => String(row.sequence),
  };
  // The cursor is bound to the course as to the query: one of another course's list is refused, not read as a position.
  const listOfCourse = { ...query, courseId: input.courseId };
  const page = await pageInIdOrder(
    deps.db,
    deps.cursors,
    source,
    pageRequest(ctx.tenantId, listOfCourse),
    [eq(courseApprovals.tenantId, ctx.tenantId), eq(courseApprovals.courseId, input.courseId)],
    (row: Row) => row.approvalId,
  );
  return { data: await findApprovals(deps.db, ctx.tenantId, page.data), next_cursor: page.next_cursor };
}

/** The latest approval of each course, for the GraphQL loader. */
export async function loadCurrentApprovals(
  deps: CurriculumDeps,
  ctx: RequestContext,
  { courseIds }: { courseIds: readonly string[] },
): Promise<Map<string, CourseApproval>> {
  requireAccess(ctx.principal, ACCESS.read, 'read course approvals');
  return findLatestApprovals(deps.db, ctx.tenantId, courseIds);
}

/** Each root's active descendants in course order, one recursive read per root whatever its size, for the authoring UI. */
export async function loadDescendants(
  deps: CurriculumDeps,
  ctx: RequestContext,
  { rootIds }: { rootIds: readonly string[] },
): Promise<Map<string, Component[]>> {
  requireAccess(ctx.principal, ACCESS.read, 'read components');
  const subtrees = await Promise.all(rootIds.map((rootId) => readCourseSubtree(deps.db, ctx.tenantId, rootId)));
  return new Map(
    rootIds.map((rootId, index) => [
      rootId,
      courseOrder(subtrees[index], rootId)
        .slice(1)
        .map((entry) => entry.node),
    ]),
  );
}
