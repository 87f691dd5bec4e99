import { tenantRows } from '../../../platform/tenant-rows.ts';
import { eq } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Database } from '../../../platform/db.ts';
import type { RequestContext } from '../../../platform/context.ts';
import { requireAccess } from '../../../platform/auth.ts';
import { DomainError } from '../../../platform/errors.ts';
import { isUuid } from '../../../platform/validation.ts';
import { kcPrerequisites, kcRelations } from '../tables.ts';
import { ACCESS } from '../access.ts';
import { retireRule } from '../commands.ts';
import type { CurriculumRule } from '../rule-inputs.ts';

/**
 * Prerequisite edges and typed relations are two stores with one lifecycle: addressed by their own
 * id within the tenant, retired by DELETE (the row stays, so history and re-POST reactivation keep
 * the identity), and a retired edge retired again is answered unchanged.
 */
export interface KcEdgeStore<Row, View> {
  table: typeof kcPrerequisites | typeof kcRelations;
  idColumn: PgColumn;
  /** Singular noun for messages and scopes, and the path the retire operation is keyed under. */
  noun: string;
  path: string;
  present(row: Row): View;
}

async function findEdge<Row, View>(
  db: Database,
  store: KcEdgeStore<Row, View>,
  tenantId: string,
  edgeId: string,
): Promise<View> {
  const [row] = isUuid(edgeId)
    ? await db
        .select()
        .from(store.table)
        .where(tenantRows(store.table, tenantId, {}, eq(store.idColumn, edgeId)))
    : [];
  if (!row) throw new DomainError('not_found', `No ${store.noun} ${edgeId} in this tenant.`);
  return store.present(row as Row);
}

/** GET of one edge by its id. */
export function edgeReader<Row, View>(store: KcEdgeStore<Row, View>): CurriculumRule<{ id: string }, View> {
  return async (deps, ctx, { id }) => {
    requireAccess(ctx.principal, ACCESS.read, `read ${store.noun}s`);
    return findEdge(deps.db, store, ctx.tenantId, id);
  };
}

/** The same edge sent again after its retire: the row comes back active, with its id and history. */
export async function reactivateEdge<Row, View>(
  tx: Database,
  ctx: RequestContext,
  store: KcEdgeStore<Row, View>,
  edgeId: string,
): Promise<View> {
  const [reactivated] = await tx
    .update(store.table)
    .set({ status: 'active', updatedAt: ctx.now.toISOString() })
    .where(tenantRows(store.table, ctx.tenantId, {}, eq(store.idColumn, edgeId)))
    .returning();
  return store.present(reactivated as Row);
}

/** DELETE of one edge by its id; a retired edge retired again is answered unchanged. */
export function edgeRetirer<Row, View>(store: KcEdgeStore<Row, View>) {
  return retireRule({
    writes: `retire ${store.noun}s`,
    operation: ({ id }: { id: string; idempotencyKey: string | undefined }) => `${store.path}.retire:${id}`,
    run: async (tx, ctx, { id: edgeId }) => {
      const [retired] = isUuid(edgeId)
        ? await tx
            .update(store.table)
            .set({ status: 'retired', updatedAt: ctx.now.toISOString() })
            .where(tenantRows(store.table, ctx.tenantId, { status: 'active' }, eq(store.idColumn, edgeId)))
            .returning()
        : [];
      return {
        value: retired ? store.present(retired as Row) : await findEdge(tx, store, ctx.tenantId, edgeId),
        created: false,
      };
    },
  });
}
