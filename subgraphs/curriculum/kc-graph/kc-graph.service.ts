import { tenantRows } from '../../../platform/tenant-rows.ts';
import { randomUUID } from 'node:crypto';
import { eq, or, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Database } from '../../../platform/db.ts';
import { lockKey } from '../../../platform/db.ts';
import type { RequestContext } from '../../../platform/context.ts';
import { DomainError } from '../../../platform/errors.ts';
import { isoTimestamp } from '../../../platform/validation.ts';
import { listRule, updatedSince, type ColumnKey } from '../lists.ts';
import { kcFirmingEvents, kcPrerequisites, kcReviewDecisions } from '../tables.ts';
import { commandRule } from '../commands.ts';
import { edgeReader, edgeRetirer, reactivateEdge, type KcEdgeStore } from './kc-edges.ts';
import {
  CreateFirmingEventInput,
  CreatePrerequisiteInput,
  CreateReviewDecisionInput,
  ListByVersionQuery,
  ListPrerequisitesQuery,
} from './kc-graph.schema.ts';
import { findKcVersionRows, requireActiveKcs } from '../queries.ts';

/**
 * The KC graph and the evidence on exact KC versions. Invariants: the prerequisite edges of a tenant
 * form one acyclic graph; every edge is checked against the graph inside the writing transaction
 * under a per-tenant lock, so two concurrent edges can never close a cycle together; review
 * decisions and firming events are only inserted; a version is firmed once, and course-approval
 * firming is written only by the approval command.
 */

type PrerequisiteRow = typeof kcPrerequisites.$inferSelect;

export function presentPrerequisite(row: PrerequisiteRow) {
  return {
    prerequisite_id: row.prerequisiteId,
    prerequisite_kc_id: row.prerequisiteKcId,
    dependent_kc_id: row.dependentKcId,
    status: row.status,
    created_by: row.createdBy,
    created_at: isoTimestamp(row.createdAt),
    updated_at: isoTimestamp(row.updatedAt),
  };
}
export type KcPrerequisite = ReturnType<typeof presentPrerequisite>;

const PREREQUISITES: KcEdgeStore<PrerequisiteRow, KcPrerequisite> = {
  table: kcPrerequisites,
  idColumn: kcPrerequisites.prerequisiteId,
  noun: 'KC prerequisite',
  path: 'kc-prerequisites',
  present: presentPrerequisite,
};

/** True when dependent already reaches prerequisite, so the new edge would close a cycle. */
async function closesCycle(
  tx: Database,
  tenantId: string,
  prerequisiteKcId: string,
  dependentKcId: string,
): Promise<boolean> {
  const found = await tx.execute(sql`
    with recursive reach(kc_id) as (
      select ${dependentKcId}::uuid
      union
      select p.dependent_kc_id from ${kcPrerequisites} p join reach r on p.prerequisite_kc_id = r.kc_id
      where p.tenant_id = ${tenantId} and p.status = 'active'
    ) select 1 as hit from reach where kc_id = ${prerequisiteKcId}::uuid limit 1`);
  const rows = (Array.isArray(found) ? found : (found as { rows: unknown[] }).rows) as unknown[];
  return rows.length > 0;
}

/** POST /kc-prerequisites: one acyclic edge; the same edge again answers it, reactivated if it was retired. */
export const createPrerequisite = commandRule({
  writes: 'add KC prerequisites',
  body: CreatePrerequisiteInput,
  operation: 'kc-prerequisites.create',
  keyRequired: true,
  run: async (tx, input, ctx) => {
    await lockKey(tx, `kc-graph|${ctx.tenantId}`);
    await requireActiveKcs(tx, ctx.tenantId, [
      { kcId: input.prerequisite_kc_id, field: 'prerequisite_kc_id' },
      { kcId: input.dependent_kc_id, field: 'dependent_kc_id' },
    ]);
    const [existing] = await tx
      .select()
      .from(kcPrerequisites)
      .where(
        tenantRows(kcPrerequisites, ctx.tenantId, {
          prerequisiteKcId: input.prerequisite_kc_id,
          dependentKcId: input.dependent_kc_id,
        }),
      );
    if (existing?.status === 'active') return { value: presentPrerequisite(existing), created: false };
    if (await closesCycle(tx, ctx.tenantId, input.prerequisite_kc_id, input.dependent_kc_id)) {
      throw new DomainError(
        'curriculum:prerequisite_cycle',
        `${input.dependent_kc_id} already leads to ${input.prerequisite_kc_id}; the edge would close a cycle.`,
      );
    }
    if (existing)
      return { value: await reactivateEdge(tx, ctx, PREREQUISITES, existing.prerequisiteId), created: false };
    const now = ctx.now.toISOString();
    const [row] = await tx
      .insert(kcPrerequisites)
      .values({
        tenantId: ctx.tenantId,
        prerequisiteId: randomUUID(),
        prerequisiteKcId: input.prerequisite_kc_id,
        dependentKcId: input.dependent_kc_id,
        status: 'active',
        createdBy: ctx.principal.subject,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    return { value: presentPrerequisite(row), created: true };
  },
});

export const getPrerequisite = edgeReader(PREREQUISITES);

/** DELETE /kc-prerequisites/{id}: retires the edge, so a KC can leave the graph before it is retired. */
export const retirePrerequisite = edgeRetirer(PREREQUISITES);

export const listPrerequisites = listRule({
  reads: 'read KC prerequisites',
  query: ListPrerequisitesQuery,
  table: kcPrerequisites,
  id: 'prerequisiteId',
  where: (query) => [
    eq(kcPrerequisites.status, 'active'),
    query.kcId
      ? or(eq(kcPrerequisites.prerequisiteKcId, query.kcId), eq(kcPrerequisites.dependentKcId, query.kcId))
      : undefined,
    query.prerequisiteKcId ? eq(kcPrerequisites.prerequisiteKcId, query.prerequisiteKcId) : undefined,
    query.dependentKcId ? eq(kcPrerequisites.dependentKcId, query.dependentKcId) : undefined,
    updatedSince(kcPrerequisites.updatedAt, query.updated_since),
  ],
  present: presentPrerequisite,
});

type ReviewRow = typeof kcReviewDecisions.$inferSelect;
function presentReview(row: ReviewRow) {
  return {
    decision_id: row.decisionId,
    kc_id: row.kcId,
    kc_version_id: row.kcVersionId,
    decision: row.decision,
    reason: row.reason,
    reviewer_ref: row.reviewerRef,
    created_at: isoTimestamp(row.createdAt),
  };
}
export type KcReviewDecision = ReturnType<typeof presentReview>;

async function requireVersion(tx: Database, tenantId: string, versionId: string) {
  const [version] = await findKcVersionRows(tx, tenantId, [versionId]);
  if (!version) {
    throw new DomainError('not_found', `No KC version ${versionId} in this tenant.`, {
      fieldErrors: [{ field: 'kc_version_id', message: 'no such KC version' }],
    });
  }
  return version;
}

/** POST /kc-review-decisions: an immutable decision on one exact KC version. */
export const createReviewDecision = commandRule({
  writes: 'record KC review decisions',
  body: CreateReviewDecisionInput,
  operation: 'kc-review-decisions.create',
  keyRequired: true,
  run: async (tx, input, ctx) => {
    const version = await requireVersion(tx, ctx.tenantId, input.kc_version_id);
    const [row] = await tx
      .insert(kcReviewDecisions)
      .values({
        tenantId: ctx.tenantId,
        decisionId: randomUUID(),
        kcId: version.kcId,
        kcVersionId: version.versionId,
        decision: input.decision,
        reason: input.reason ?? null,
        reviewerRef: ctx.principal.subject,
        createdAt: ctx.now.toISOString(),
      })
      .returning();
    return { value: presentReview(row), created: true };
  },
});

export const listReviewDecisions = listByVersion(
  'read KC review decisions',
  kcReviewDecisions,
  'decisionId',
  presentReview,
);

type FirmingRow = typeof kcFirmingEvents.$inferSelect;
function presentFirming(row: FirmingRow) {
  return {
    firming_event_id: row.firmingEventId,
    kc_id: row.kcId,
    kc_version_id: row.kcVersionId,
    source: row.source,
    evidence: row.evidence as Record<string, unknown>,
    recorded_by: row.recordedBy,
    created_at: isoTimestamp(row.createdAt),
  };
}
export type KcFirmingEvent = ReturnType<typeof presentFirming>;

/**
 * Firms one exact draft version inside the caller's transaction. The course approval command calls
 * this with source course_approval; the public endpoint never can. A version firmed meanwhile (by
 * another transaction, after the caller read it as draft) is refused, or, with whenFirm 'keep',
 * answered with the firming event it has (`created` false).
 */
export async function firmKcVersion(
  tx: Database,
  ctx: RequestContext,
  {
    versionId,
    source,
    evidence,
    whenFirm = 'refuse',
  }: {
    versionId: string;
    source: (typeof CreateFirmingEventInput.shape.source.options)[number];
    evidence: Record<string, unknown>;
    whenFirm?: 'refuse' | 'keep';
  },
): Promise<{ firming: KcFirmingEvent; created: boolean }> {
  await lockKey(tx, `kc-firm|${ctx.tenantId}|${versionId}`);
  const version = await requireVersion(tx, ctx.tenantId, versionId);
  await requireActiveKcs(tx, ctx.tenantId, [{ kcId: version.kcId, field: 'kc_version_id' }]);
  const [firm] = await tx
    .select()
    .from(kcFirmingEvents)
    .where(tenantRows(kcFirmingEvents, ctx.tenantId, { kcVersionId: versionId }));
  if (firm && whenFirm === 'keep') return { firming: presentFirming(firm), created: false };
  if (firm)
    throw new DomainError(
      'curriculum:kc_version_already_firm',
      `KC version ${versionId} is already firm (${firm.firmingEventId}).`,
    );
  const [row] = await tx
    .insert(kcFirmingEvents)
    .values({
      tenantId: ctx.tenantId,
      firmingEventId: randomUUID(),
      kcId: version.kcId,
      kcVersionId: versionId,
      source,
      evidence,
      recordedBy: ctx.principal.subject,
      createdAt: ctx.now.toISOString(),
    })
    .returning();
  return { firming: presentFirming(row), created: true };
}

/** POST /kc-firming-events: the first-genuine-response backstop. */
export const createFirmingEvent = commandRule({
  writes: 'record KC firming events',
  body: CreateFirmingEventInput,
  operation: 'kc-firming-events.create',
  keyRequired: true,
  refuse: (input) => {
    if (input.source === 'course_approval') {
      throw new DomainError(
        'curriculum:firming_source_refused',
        'Course-approval firming is written only by POST /courses/{courseId}/approvals.',
        {
          fieldErrors: [{ field: 'source', message: 'course_approval events come only from course approval' }],
        },
      );
    }
  },
  run: async (tx, input, ctx) => ({
    value: (
      await firmKcVersion(tx, ctx, {
        versionId: input.kc_version_id,
        source: input.source,
        evidence: input.evidence ?? {},
      })
    ).firming,
    created: true,
  }),
});

export const listFirmingEvents = listByVersion(
  'read KC firming events',
  kcFirmingEvents,
  'firmingEventId',
  presentFirming,
);

/** Review decisions and firming events: all of the tenant's, or those of one KC version when asked, in id order. */
function listByVersion<Table extends typeof kcReviewDecisions | typeof kcFirmingEvents, T>(
  reads: string,
  table: Table,
  id: ColumnKey<Table>,
  present: (row: Table['$inferSelect']) => T,
) {
  const where = (query: z.output<typeof ListByVersionQuery>) => [
    query.kc_version_id ? eq(table.kcVersionId, query.kc_version_id) : undefined,
  ];
  return listRule({ reads, query: ListByVersionQuery, table, id, where, present });
}
