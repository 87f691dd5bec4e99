import { tenantRows } from '../../platform/tenant-rows.ts';
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { lockKey, rowsOf, type Database } from '../../platform/db.ts';
import type { RequestContext } from '../../platform/context.ts';
import { DomainError } from '../../platform/errors.ts';
import { associations, components } from './tables.ts';
import { MAX_POSITION } from './components/components.schema.ts';

/**
 * Containment: one active isChildOf association per active child, mirrored by the child's
 * parent_component_id and position (the column lists and trees read; it never changes without its
 * edge). Every change to it goes through here, under a per-tenant lock,
 * so two concurrent moves can never build a loop; an active pair supersedes the retired history of
 * the same pair.
 */

export type AssociationRow = typeof associations.$inferSelect;

export async function lockContainment(tx: Database, tenantId: string): Promise<void> {
  await lockKey(tx, `containment|${tenantId}`);
}

async function requireActiveParent(tx: Database, tenantId: string, parentId: string): Promise<void> {
  const [parent] = await tx
    .select({ status: components.status })
    .from(components)
    .where(tenantRows(components, tenantId, { componentId: parentId }))
    .for('update');
  if (!parent || parent.status !== 'active') {
    throw new DomainError('curriculum:parent_not_found', `Parent component ${parentId} does not exist or is retired.`, {
      fieldErrors: [{ field: 'parent_component_id', message: 'no active component with this id' }],
    });
  }
}

/** True when childId is parentId or one of its ancestors. */
async function wouldLoop(tx: Database, tenantId: string, childId: string, parentId: string): Promise<boolean> {
  const result = await tx.execute(sql`
    with recursive up(component_id, parent_id) as (
      select component_id, parent_component_id from ${components} where tenant_id = ${tenantId} and component_id = ${parentId}
      union
      select c.component_id, c.parent_component_id from ${components} c join up on c.component_id = up.parent_id
      where c.tenant_id = ${tenantId}
    ) select 1 as hit from up where component_id = ${childId} limit 1`);
  return rowsOf(result).length > 0;
}

export async function activeParentEdge(
  tx: Database,
  tenantId: string,
  childId: string,
): Promise<AssociationRow | undefined> {
  const [edge] = await tx
    .select()
    .from(associations)
    .where(tenantRows(associations, tenantId, { associationType: 'isChildOf', originId: childId, status: 'active' }))
    .for('update');
  return edge;
}

async function nextPosition(tx: Database, tenantId: string, parentId: string): Promise<number> {
  const [last] = await tx
    .select({ max: sql<number | null>`max(${components.position})` })
    .from(components)
    .where(tenantRows(components, tenantId, { parentComponentId: parentId, status: 'active' }));
  const next = Number(last?.max ?? -1) + 1;
  // Past the last integer nothing can follow: the client names a free position instead.
  if (next > MAX_POSITION)
    throw new DomainError('validation_failed', `The last child of ${parentId} holds the highest position.`, {
      fieldErrors: [{ field: 'position', message: `send a position: ${MAX_POSITION} is taken by the last sibling` }],
    });
  return next;
}

/**
 * Places childId under parentId: checks the parent and the loop, then creates the edge, or moves
 * the child's existing edge (same association_id) when it has one. Returns the edge and position.
 * The caller writes the child's row (parent_component_id, position, version).
 */
export async function placeChild(
  tx: Database,
  ctx: RequestContext,
  childId: string,
  parentId: string,
  position: number | undefined,
): Promise<{ edge: AssociationRow; position: number }> {
  await lockContainment(tx, ctx.tenantId);
  await requireActiveParent(tx, ctx.tenantId, parentId);
  if (childId === parentId || (await wouldLoop(tx, ctx.tenantId, childId, parentId))) {
    throw new DomainError(
      'curriculum:containment_cycle',
      `${parentId} is inside ${childId}; a component cannot contain its ancestor.`,
      {
        fieldErrors: [{ field: 'parent_component_id', message: 'would make a containment loop' }],
      },
    );
  }
  const at = position ?? (await nextPosition(tx, ctx.tenantId, parentId));
  const now = ctx.now.toISOString();
  await tx.delete(associations).where(
    tenantRows(associations, ctx.tenantId, {
      associationType: 'isChildOf',
      originId: childId,
      destinationId: parentId,
      status: 'retired',
    }),
  );
  const current = await activeParentEdge(tx, ctx.tenantId, childId);
  if (current) {
    const [moved] = await tx
      .update(associations)
      .set({ destinationId: parentId, sequenceNumber: at, version: current.version + 1, updatedAt: now })
      .where(tenantRows(associations, ctx.tenantId, { associationId: current.associationId }))
      .returning();
    return { edge: moved, position: at };
  }
  const [edge] = await tx
    .insert(associations)
    .values({
      tenantId: ctx.tenantId,
      associationId: randomUUID(),
      associationType: 'isChildOf',
      originId: childId,
      destinationId: parentId,
      sequenceNumber: at,
      status: 'active',
      version: 1,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  return { edge, position: at };
}

/**
 * Takes a retiring component out of containment: its own isChildOf edge is retired (its
 * parent_component_id stays, as history, for includeRetired reads), and every active child loses
 * its edge and its parent, becoming a root with an advanced version. Reactivating the component
 * later does not bring them back: a child is re-attached by its own reparent PATCH.
 */
export async function retireFromContainment(tx: Database, ctx: RequestContext, componentId: string): Promise<void> {
  const now = ctx.now.toISOString();
  await tx
    .update(associations)
    .set({ status: 'retired', retiredAt: now, updatedAt: now, version: sql`${associations.version} + 1` })
    .where(
      tenantRows(
        associations,
        ctx.tenantId,
        { associationType: 'isChildOf', status: 'active' },
        sql`(${associations.originId} = ${componentId} or ${associations.destinationId} = ${componentId})`,
      ),
    );
  await tx
    .update(components)
    .set({ parentComponentId: null, position: null, version: sql`${components.version} + 1`, updatedAt: now })
    .where(tenantRows(components, ctx.tenantId, { parentComponentId: componentId, status: 'active' }));
}

/** Keeps a child's edge sequence_number equal to its position. */
export async function syncEdgeSequence(
  tx: Database,
  ctx: RequestContext,
  childId: string,
  position: number,
): Promise<void> {
  const edge = await activeParentEdge(tx, ctx.tenantId, childId);
  if (!edge || edge.sequenceNumber === position) return;
  await tx
    .update(associations)
    .set({ sequenceNumber: position, version: edge.version + 1, updatedAt: ctx.now.toISOString() })
    .where(tenantRows(associations, ctx.tenantId, { associationId: edge.associationId }));
}
