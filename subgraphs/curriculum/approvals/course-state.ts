import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '../../../platform/db.ts';
import { DomainError } from '../../../platform/errors.ts';
import { isoTimestamp } from '../../../platform/validation.ts';
import {
  components,
  courseApprovalKcVersions,
  courseApprovals,
  kcFirmingEvents,
  kcVersions,
  knowledgeComponents,
} from '../tables.ts';
import { type Component, descendantsOf, presentComponent } from '../queries.ts';

/**
 * The reads approvals and routing share, each one statement whatever the course size: the course
 * subtree (one recursive read), the state of the KCs it references, and the latest approvals with
 * their snapshots.
 */

/** The same answer for an unknown course and for a personalized course asked by anyone else. */
export function courseNotFound(courseId: string): DomainError {
  return new DomainError('not_found', `No course ${courseId} in this tenant.`);
}

/** The course root (any status) and its active descendants, reached through active parents only. */
export async function readCourseSubtree(db: Database, tenantId: string, courseId: string): Promise<Component[]> {
  const rows = await db
    .select()
    .from(components)
    .where(
      and(
        eq(components.tenantId, tenantId),
        inArray(components.componentId, descendantsOf(tenantId, courseId, { activeOnly: true })),
      ),
    );
  return rows.map(presentComponent);
}

/** The active course root of the subtree, or not_found. */
export function courseRootOf(subtree: readonly Component[], courseId: string): Component {
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

/** Identity state and current exact version (with its firming event, if firm) of each KC named. */
export async function readKcStates(
  db: Database,
  tenantId: string,
  kcIds: readonly string[],
): Promise<Map<string, KcState>> {
  if (kcIds.length === 0) return new Map();
  const rows = await db
    .select({
      kc_id: knowledgeComponents.kcId,
      status: knowledgeComponents.status,
      publication_status: knowledgeComponents.publicationStatus,
      current_version_id: knowledgeComponents.currentVersionId,
      version_number: kcVersions.versionNumber,
      firming_event_id: kcFirmingEvents.firmingEventId,
    })
    .from(knowledgeComponents)
    .leftJoin(
      kcVersions,
      and(
        eq(kcVersions.tenantId, knowledgeComponents.tenantId),
        eq(kcVersions.versionId, knowledgeComponents.currentVersionId),
      ),
    )
    .leftJoin(
      kcFirmingEvents,
      and(
        eq(kcFirmingEvents.tenantId, knowledgeComponents.tenantId),
        eq(kcFirmingEvents.kcVersionId, knowledgeComponents.currentVersionId),
      ),
    )
    .where(and(eq(knowledgeComponents.tenantId, tenantId), inArray(knowledgeComponents.kcId, [...kcIds])));
  return new Map(rows.map((row) => [row.kc_id, row]));
}

type ApprovalRow = typeof courseApprovals.$inferSelect;
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

/** Approval rows joined with their snapshots, grouped into presented approvals in row order. */
function groupApprovals(rows: Array<{ approval: ApprovalRow; kc: SnapshotRow | null }>): CourseApproval[] {
  const byId = new Map<string, { approval: ApprovalRow; snapshot: SnapshotRow[] }>();
  for (const { approval, kc } of rows) {
    const entry = byId.get(approval.approvalId) ?? { approval, snapshot: [] };
    if (kc) entry.snapshot.push(kc);
    byId.set(approval.approvalId, entry);
  }
  return [...byId.values()].map(({ approval, snapshot }) => presentApproval(approval, snapshot));
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
  if (courseIds.length === 0) return new Map();
  const ids = [...new Set(courseIds)];
  const rows = await db
    .select({ approval: courseApprovals, kc: courseApprovalKcVersions })
    .from(courseApprovals)
    .leftJoin(courseApprovalKcVersions, snapshotJoin)
    .where(
      and(
        eq(courseApprovals.tenantId, tenantId),
        inArray(courseApprovals.courseId, ids),
        sql`(${courseApprovals.courseId}, ${courseApprovals.sequence}) in (
          select course_id, max(sequence) from ${courseApprovals}
          where tenant_id = ${tenantId} and course_id in ${ids} group by course_id)`,
      ),
    );
  return new Map(groupApprovals(rows).map((approval) => [approval.course_id, approval]));
}

/** Approvals by id with their snapshots, in sequence order. */
export async function findApprovals(
  db: Database,
  tenantId: string,
  approvalIds: readonly string[],
): Promise<CourseApproval[]> {
  if (approvalIds.length === 0) return [];
  const rows = await db
    .select({ approval: courseApprovals, kc: courseApprovalKcVersions })
    .from(courseApprovals)
    .leftJoin(courseApprovalKcVersions, snapshotJoin)
    .where(and(eq(courseApprovals.tenantId, tenantId), inArray(courseApprovals.approvalId, [...approvalIds])))
    .orderBy(asc(courseApprovals.sequence));
  return groupApprovals(rows);
}
