import { tenantRows } from '../../../platform/tenant-rows.ts';
import { and, asc, eq, getTableColumns, inArray, sql } from 'drizzle-orm';
import { prepareOncePerDatabase, type Database } from '../../../platform/db.ts';
import { DomainError } from '../../../platform/errors.ts';
import { isoTimestamp } from '../../../platform/validation.ts';
import {
  components,
  courseApprovalKcVersions,
  courseApprovals,
  courseGraphRevisions,
  kcFirmingEvents,
  kcVersions,
  knowledgeComponents,
} from '../tables.ts';
import { type Component, type ComponentRow, descendantsOf, presentComponent, selectComponents } from '../queries.ts';
import type { GraphNode } from './course-graph.ts';

/**
 * The reads approvals and routing share, each one statement whatever the course size: the course
 * subtree (one recursive read, of whole records or of the graph alone), the course's graph revision,
 * a route's ancestry, the state of the KCs it references, and the latest approvals with their snapshots.
 */

/** The same answer for an unknown course and for a personalized course asked by anyone else. */
export function courseNotFound(courseId: string): DomainError {
  return new DomainError('not_found', `No course ${courseId} in this tenant.`);
}

/** The course root (any status) and its active descendants, reached through active parents only. */
const inCourseSubtree = (tenantId: string, courseId: string) =>
  inArray(components.componentId, descendantsOf(tenantId, courseId, { activeOnly: true }));

/** The course subtree as whole component records. */
export async function readCourseSubtree(db: Database, tenantId: string, courseId: string): Promise<Component[]> {
  const rows = await selectComponents(db, tenantId, {}, inCourseSubtree(tenantId, courseId));
  return rows.map(presentComponent);
}

/** A node of the course graph with its status: what approving a course reads of each component. */
export interface CourseNode extends GraphNode {
  status: string;
}

/**
 * The course subtree as its graph: the columns the digest, the route and the approval's preconditions
 * read, without the timestamps, names and tags of whole records (on a 2,000-node course, a third of
 * the read's cost on PGlite and two thirds of Node's on PostgreSQL).
 */
export async function readCourseGraph(db: Database, tenantId: string, courseId: string): Promise<CourseNode[]> {
  const rows = await db
    .select({
      component_id: components.componentId,
      kind: components.kind,
      parent_component_id: components.parentComponentId,
      position: components.position,
      student_id: components.studentId,
      status: components.status,
      alpha: components.alpha,
    })
    .from(components)
    .where(tenantRows(components, tenantId, {}, inCourseSubtree(tenantId, courseId)));
  return rows as CourseNode[];
}

/** The course's graph revision (0 before its first change): read before the subtree it stamps. */
export async function readGraphRevision(db: Database, tenantId: string, courseId: string): Promise<number> {
  const [row] = await db
    .select({ revision: courseGraphRevisions.revision })
    .from(courseGraphRevisions)
    .where(tenantRows(courseGraphRevisions, tenantId, { courseId }));
  return Number(row?.revision ?? 0);
}

/** The active course root of the subtree, or not_found. */
export function courseRootOf<N extends CourseNode>(subtree: readonly N[], courseId: string): N {
  const root = subtree.find((node) => node.component_id === courseId);
  if (!root || root.status !== 'active' || root.kind !== 'course' || root.parent_component_id !== null)
    throw courseNotFound(courseId);
  return root;
}

export interface KcState {
  kc_id: string;
  status: string;
  publication_status: string;
  current_version_id: string | null;
  version_number: number | null;
  firming_event_id: string | null;
}

/** A KC's identity state and current exact version with its firming event (if firm), in one row. */
const kcStateColumns = {
  kc_id: knowledgeComponents.kcId,
  status: knowledgeComponents.status,
  publication_status: knowledgeComponents.publicationStatus,
  current_version_id: knowledgeComponents.currentVersionId,
  version_number: kcVersions.versionNumber,
  firming_event_id: kcFirmingEvents.firmingEventId,
};
const currentVersionJoin = and(
  eq(kcVersions.tenantId, knowledgeComponents.tenantId),
  eq(kcVersions.versionId, knowledgeComponents.currentVersionId),
);
const currentFirmingJoin = and(
  eq(kcFirmingEvents.tenantId, knowledgeComponents.tenantId),
  eq(kcFirmingEvents.kcVersionId, knowledgeComponents.currentVersionId),
);

/** Identity state and current exact version (with its firming event, if firm) of each KC named. */
export async function readKcStates(
  db: Database,
  tenantId: string,
  kcIds: readonly string[],
): Promise<Map<string, KcState>> {
  if (kcIds.length === 0) return new Map();
  const rows = await db
    .select(kcStateColumns)
    .from(knowledgeComponents)
    .leftJoin(kcVersions, currentVersionJoin)
    .leftJoin(kcFirmingEvents, currentFirmingJoin)
    .where(tenantRows(knowledgeComponents, tenantId, {}, inArray(knowledgeComponents.kcId, [...kcIds])));
  return new Map(rows.map((row) => [row.kc_id, row]));
}

/** Every approval column but the canonical graph kept as evidence: large (a 2,000-node course) and never presented. */
const { courseGraph: _evidence, ...approvalColumns } = getTableColumns(courseApprovals);
type ApprovalRow = Omit<typeof courseApprovals.$inferSelect, 'courseGraph'>;
type SnapshotRow = typeof courseApprovalKcVersions.$inferSelect;

export function presentApproval(row: ApprovalRow, snapshot: readonly SnapshotRow[]) {
  return {
    approval_id: row.approvalId,
    course_id: row.courseId,
    sequence: row.sequence,
    approved_by: row.approvedBy,
    provenance: row.provenance as Record<string, unknown>,
    course_graph_sha256: row.courseGraphSha256,
    kc_snapshot_sha256: row.kcSnapshotSha256,
    expected_course_graph_sha256: row.expectedCourseGraphSha256,
    expected_kc_snapshot_sha256: row.expectedKcSnapshotSha256,
    kc_snapshot: [...snapshot]
      .sort((a, b) => (a.kcId < b.kcId ? -1 : 1))
      .map((entry) => ({
        kc_id: entry.kcId,
        kc_version_id: entry.kcVersionId,
        version_number: entry.versionNumber,
        state: 'firm' as const,
        firming_event_id: entry.firmingEventId,
        firmed_by_approval: entry.firmedByApproval,
      })),
    recorded_by: row.recordedBy,
    created_at: isoTimestamp(row.createdAt),
  };
}
export type CourseApproval = ReturnType<typeof presentApproval>;
export type CourseApprovalKcVersion = CourseApproval['kc_snapshot'][number];

/** Approval rows joined with their snapshots, grouped per approval in row order. */
function groupApprovalRows(rows: Array<{ approval: ApprovalRow; kc: SnapshotRow | null }>) {
  const byId = new Map<string, { approval: ApprovalRow; snapshot: SnapshotRow[] }>();
  for (const { approval, kc } of rows) {
    const entry = byId.get(approval.approvalId) ?? { approval, snapshot: [] };
    if (kc) entry.snapshot.push(kc);
    byId.set(approval.approvalId, entry);
  }
  return [...byId.values()];
}

const snapshotJoin = and(
  eq(courseApprovalKcVersions.tenantId, courseApprovals.tenantId),
  eq(courseApprovalKcVersions.approvalId, courseApprovals.approvalId),
);

/** The latest approval of each course named, with its snapshot. */
export async function findLatestApprovals(
  db: Database,
  tenantId: string,
  courseIds: readonly string[],
): Promise<Map<string, CourseApproval>> {
  const latest = await latestApprovalRows(db, tenantId, courseIds);
  return new Map(latest.map(({ approval, snapshot }) => [approval.courseId, presentApproval(approval, snapshot)]));
}

const componentColumns = Object.entries(getTableColumns(components));

/** A component row as `to_json` writes it (column names), presented like a row read by drizzle. */
function componentFromJson(json: Record<string, unknown>): Component {
  return presentComponent(
    Object.fromEntries(componentColumns.map(([key, column]) => [key, json[column.name] ?? null])) as ComponentRow,
  );
}

/** Containment levels the recorded route's ancestry is followed up (courses are a few levels deep). */
const MAX_ROUTE_DEPTH = 1000;

const askedTenant = sql.placeholder('tenantId');
const askedCourse = sql.placeholder('courseId');
const latestSequence = sql`(select max(sequence) from ${courseApprovals}
  where tenant_id = ${askedTenant} and course_id = ${askedCourse})`;

/**
 * The latest approval of a course with what routing keeps beside it, all in one statement (one
 * snapshot): the graph revision and first routable node the approval recorded, the current state of
 * each KC of its snapshot, the course's graph revision now, and the recorded node with its
 * containment ancestors (course root first) as they stand now. Prepared once: next-lesson sends it
 * on every request, and building it anew cost about a quarter of the request's CPU.
 */
const latestApprovalStatement = prepareOncePerDatabase((db) =>
  db
    .select({
      approval: approvalColumns,
      kc: courseApprovalKcVersions,
      state: kcStateColumns,
      revision: sql<string | null>`(select revision::text from ${courseGraphRevisions}
        where tenant_id = ${askedTenant} and course_id = ${askedCourse})`,
      // One index lookup per ancestor (lateral, `offset 0` keeps it from being flattened into a join that
      // stale statistics plan as a scan of the tenant's components; see descendantsOf). Rows travel as
      // json, written once as text: jsonb built them in binary first, a fifth of the statement. json
      // has no equality, so the walk is bounded by depth instead of `union`; writes refuse containment
      // cycles, and a chain cut short misses the course root, which sends routing to the whole subtree.
      routeChain: sql<Array<Record<string, unknown>> | null>`(with recursive up(row, parent_id, depth) as (
          select to_json(c), c.parent_component_id, 1 from ${components} c
          where c.tenant_id = ${askedTenant} and c.component_id = (select route_component_id from ${courseApprovals}
            where tenant_id = ${askedTenant} and course_id = ${askedCourse} and sequence = ${latestSequence})
          union all
          select to_json(p), p.parent_component_id, up.depth + 1 from up cross join lateral (
            select * from ${components} where tenant_id = ${askedTenant} and component_id = up.parent_id offset 0
          ) p
          where up.depth < ${sql.raw(String(MAX_ROUTE_DEPTH))}
        ) select json_agg(row) from up)`,
    })
    .from(courseApprovals)
    .leftJoin(courseApprovalKcVersions, snapshotJoin)
    .leftJoin(
      knowledgeComponents,
      and(
        eq(knowledgeComponents.tenantId, courseApprovalKcVersions.tenantId),
        eq(knowledgeComponents.kcId, courseApprovalKcVersions.kcId),
      ),
    )
    .leftJoin(kcVersions, currentVersionJoin)
    .leftJoin(kcFirmingEvents, currentFirmingJoin)
    .where(
      and(
        eq(courseApprovals.tenantId, askedTenant),
        eq(courseApprovals.courseId, askedCourse),
        sql`${courseApprovals.sequence} = ${latestSequence}`,
      ),
    )
    .prepare('curriculum_latest_approval'),
);

export async function findLatestApproval(db: Database, tenantId: string, courseId: string) {
  const rows = await latestApprovalStatement(db).execute({ tenantId, courseId });
  const [latest] = groupApprovalRows(rows);
  if (!latest) return undefined;
  const kcStates = new Map<string, KcState>();
  for (const { state } of rows) if (state.kc_id !== null) kcStates.set(state.kc_id, state as KcState);
  const byId = new Map(
    (rows[0].routeChain ?? []).map((json) => [json.component_id as string, componentFromJson(json)]),
  );
  const chain: Component[] = [];
  for (
    let node = byId.get(latest.approval.routeComponentId ?? '');
    node;
    node = byId.get(node.parent_component_id ?? '')
  ) {
    chain.unshift(node);
    if (chain.length > byId.size) break;
  }
  return {
    approval: presentApproval(latest.approval, latest.snapshot),
    graphRevision: latest.approval.graphRevision,
    routeComponentId: latest.approval.routeComponentId,
    kcStates,
    /** The course's graph revision when this was read (0 before its first change). */
    revision: Number(rows[0].revision ?? 0),
    /** The recorded first routable node and its ancestors as they stand, course root first. */
    routeChain: chain,
  };
}

export type LatestApproval = NonNullable<Awaited<ReturnType<typeof findLatestApproval>>>;

/**
 * Whether the latest approval digested the course graph as it stands: the course's graph revision has
 * not moved since the approval recorded it, and the recorded route still hangs from the course root.
 */
export function approvesCurrentGraph(latest: LatestApproval, courseId: string): boolean {
  return (
    latest.graphRevision !== null &&
    latest.revision === latest.graphRevision &&
    latest.routeChain[0]?.component_id === courseId
  );
}

async function latestApprovalRows(db: Database, tenantId: string, courseIds: readonly string[]) {
  if (courseIds.length === 0) return [];
  const ids = [...new Set(courseIds)];
  const rows = await db
    .select({ approval: approvalColumns, kc: courseApprovalKcVersions })
    .from(courseApprovals)
    .leftJoin(courseApprovalKcVersions, snapshotJoin)
    .where(
      tenantRows(
        courseApprovals,
        tenantId,
        {},
        inArray(courseApprovals.courseId, ids),
        sql`(${courseApprovals.courseId}, ${courseApprovals.sequence}) in (
          select course_id, max(sequence) from ${courseApprovals}
          where tenant_id = ${tenantId} and course_id in ${ids} group by course_id)`,
      ),
    );
  return groupApprovalRows(rows);
}

/** Approvals by id with their snapshots, in sequence order. */
export async function findApprovals(
  db: Database,
  tenantId: string,
  approvalIds: readonly string[],
): Promise<CourseApproval[]> {
  if (approvalIds.length === 0) return [];
  const rows = await db
    .select({ approval: approvalColumns, kc: courseApprovalKcVersions })
    .from(courseApprovals)
    .leftJoin(courseApprovalKcVersions, snapshotJoin)
    .where(tenantRows(courseApprovals, tenantId, {}, inArray(courseApprovals.approvalId, [...approvalIds])))
    .orderBy(asc(courseApprovals.sequence));
  return groupApprovalRows(rows).map(({ approval, snapshot }) => presentApproval(approval, snapshot));
}
