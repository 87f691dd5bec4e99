import { tenantRows } from '../../../platform/tenant-rows.ts';
import { randomUUID } from 'node:crypto';
import { and, asc, eq, inArray, or } from 'drizzle-orm';
import { lockKey } from '../../../platform/db.ts';
import type { RequestContext } from '../../../platform/context.ts';
import { requireAccess } from '../../../platform/auth.ts';
import { isoTimestamp, isUuid } from '../../../platform/validation.ts';
import { listRule, updatedSince } from '../lists.ts';
import { kcRelations } from '../tables.ts';
import { ACCESS } from '../access.ts';
import type { CurriculumDeps } from '../deps.ts';
import { commandRule } from '../commands.ts';
import type { KcIdsInput } from '../rule-inputs.ts';
import { requireActiveKcs } from '../queries.ts';
import { edgeReader, edgeRetirer, reactivateEdge, type KcEdgeStore } from './kc-edges.ts';
import { CreateRelationInput, ListRelationsQuery, SYMMETRIC_RELATION_TYPES } from './kc-graph.schema.ts';

/**
 * Typed KC relations: a store apart from the prerequisite graph, so they never take part in its
 * cycle check. Invariants: both ends are active registry KCs of the tenant when the relation is
 * made; one row per relation (a symmetric type is one row whichever way it was sent); retiring keeps
 * the row, and the same relation sent again reactivates it.
 */

type RelationRow = typeof kcRelations.$inferSelect;

export function presentRelation(row: RelationRow) {
  return {
    relation_id: row.relationId,
    relation_type: row.relationType,
    from_kc_id: row.fromKcId,
    to_kc_id: row.toKcId,
    status: row.status,
    created_by: row.createdBy,
    created_at: isoTimestamp(row.createdAt),
    updated_at: isoTimestamp(row.updatedAt),
  };
}
export type KcRelation = ReturnType<typeof presentRelation>;

const RELATIONS: KcEdgeStore<RelationRow, KcRelation> = {
  table: kcRelations,
  idColumn: kcRelations.relationId,
  noun: 'KC relation',
  path: 'kc-relations',
  present: presentRelation,
};

/** POST /kc-relations: the same relation again answers the existing row, reactivated if it was retired. */
export const createRelation = commandRule({
  writes: 'relate KCs',
  body: CreateRelationInput,
  operation: 'kc-relations.create',
  keyRequired: true,
  run: async (tx, input, ctx) => {
    const ends = [input.from_kc_id, input.to_kc_id].sort();
    // A row lock cannot hold a relation that does not exist yet; both directions of a pair queue here.
    await lockKey(tx, `kc-relation|${ctx.tenantId}|${input.relation_type}|${ends.join('|')}`);
    await requireActiveKcs(tx, ctx.tenantId, [
      { kcId: input.from_kc_id, field: 'from_kc_id' },
      { kcId: input.to_kc_id, field: 'to_kc_id' },
    ]);
    const sameDirection = and(eq(kcRelations.fromKcId, input.from_kc_id), eq(kcRelations.toKcId, input.to_kc_id));
    const [existing] = await tx
      .select()
      .from(kcRelations)
      .where(
        tenantRows(
          kcRelations,
          ctx.tenantId,
          { relationType: input.relation_type },
          SYMMETRIC_RELATION_TYPES.has(input.relation_type)
            ? or(sameDirection, and(eq(kcRelations.fromKcId, input.to_kc_id), eq(kcRelations.toKcId, input.from_kc_id)))
            : sameDirection,
        ),
      );
    if (existing?.status === 'active') return { value: presentRelation(existing), created: false };
    if (existing) return { value: await reactivateEdge(tx, ctx, RELATIONS, existing.relationId), created: false };
    const now = ctx.now.toISOString();
    const [row] = await tx
      .insert(kcRelations)
      .values({
        tenantId: ctx.tenantId,
        relationId: randomUUID(),
        relationType: input.relation_type,
        fromKcId: input.from_kc_id,
        toKcId: input.to_kc_id,
        status: 'active',
        createdBy: ctx.principal.subject,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    return { value: presentRelation(row), created: true };
  },
});

export const getRelation = edgeReader(RELATIONS);

/** DELETE /kc-relations/{id}: retires the relation. */
export const retireRelation = edgeRetirer(RELATIONS);

/** Active relations touching any of kcIds, in relation order, for the KnowledgeComponent.relations loader. */
export async function loadRelationsOf(
  deps: CurriculumDeps,
  ctx: RequestContext,
  { kcIds }: KcIdsInput,
): Promise<Map<string, KcRelation[]>> {
  requireAccess(ctx.principal, ACCESS.read, 'read KC relations');
  const byKc = new Map<string, KcRelation[]>(kcIds.map((id) => [id, []]));
  const ids = [...new Set(kcIds)].filter(isUuid);
  if (ids.length === 0) return byKc;
  const rows = await deps.db
    .select()
    .from(kcRelations)
    .where(
      tenantRows(
        kcRelations,
        ctx.tenantId,
        { status: 'active' },
        or(inArray(kcRelations.fromKcId, ids), inArray(kcRelations.toKcId, ids)),
      ),
    )
    .orderBy(asc(kcRelations.relationId));
  for (const row of rows) {
    const relation = presentRelation(row);
    byKc.get(row.fromKcId)?.push(relation);
    byKc.get(row.toKcId)?.push(relation);
  }
  return byKc;
}

export const listRelations = listRule({
  reads: 'read KC relations',
  query: ListRelationsQuery,
  table: kcRelations,
  id: 'relationId',
  where: (query) => [
    eq(kcRelations.status, 'active'),
    query.kcId ? or(eq(kcRelations.fromKcId, query.kcId), eq(kcRelations.toKcId, query.kcId)) : undefined,
    query.fromKcId ? eq(kcRelations.fromKcId, query.fromKcId) : undefined,
    query.toKcId ? eq(kcRelations.toKcId, query.toKcId) : undefined,
    query.relationType ? eq(kcRelations.relationType, query.relationType) : undefined,
    updatedSince(kcRelations.updatedAt, query.updated_since),
  ],
  present: presentRelation,
});
