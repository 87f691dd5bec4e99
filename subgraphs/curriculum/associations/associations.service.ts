import { tenantRows } from '../../../platform/tenant-rows.ts';
import { randomUUID } from 'node:crypto';
import { eq, or } from 'drizzle-orm';
import { lockKey, type Database } from '../../../platform/db.ts';
import type { RequestContext } from '../../../platform/context.ts';
import { requireAccess } from '../../../platform/auth.ts';
import { DomainError } from '../../../platform/errors.ts';
import { checkIfMatch, etagOf } from '../../../platform/etag.ts';
import { isoTimestamp, isUuid } from '../../../platform/validation.ts';
import { listRule, updatedSince } from '../lists.ts';
import { associations, components } from '../tables.ts';
import type { CurriculumDeps } from '../deps.ts';
import { commandRule } from '../commands.ts';
import type { WriteHeaders } from '../rule-inputs.ts';
import { ACCESS } from '../access.ts';
import { activeParentEdge, lockContainment, placeChild, type AssociationRow } from '../containment.ts';
import { CreateAssociationInput, ListAssociationsQuery, PatchAssociationInput } from './associations.schema.ts';
import { componentNotFound, lockComponent } from '../queries.ts';
import {
  personalizedEdgesCondition,
  requireCommandInBoundary,
  requirePersonalizedCourseInBoundary,
} from '../learner-boundary.ts';

/**
 * Associations. Invariants: POST isChildOf only gives a parent to a component that has none (a
 * reparent is a component PATCH); a child's edge sequence_number always equals its position; an
 * alignment names an active component as its origin.
 */

export function presentAssociation(row: AssociationRow) {
  return {
    association_id: row.associationId,
    associationType: row.associationType,
    originId: row.originId,
    destinationId: row.destinationId,
    sequence_number: row.sequenceNumber,
    status: row.status,
    version: row.version,
    etag: etagOf(row.associationId, row.version),
    created_at: isoTimestamp(row.createdAt),
    updated_at: isoTimestamp(row.updatedAt),
    retired_at: isoTimestamp(row.retiredAt),
  };
}
export type Association = ReturnType<typeof presentAssociation>;

async function requireActiveOrigin(tx: Database, ctx: RequestContext, originId: string) {
  const origin = await lockComponent(tx, ctx.tenantId, originId);
  if (!origin || origin.status !== 'active') {
    throw new DomainError('curriculum:origin_not_found', `Component ${originId} does not exist or is retired.`, {
      fieldErrors: [{ field: 'originId', message: 'no active component with this id' }],
    });
  }
  return origin;
}

/**
 * The existing edge answers a repeated POST, unless the POST names another sequence_number: that
 * is a reorder, which is a PATCH with the edge's ETag, never a silent no-op.
 */
function existingEdge(edge: AssociationRow, input: { sequence_number?: number }) {
  if (input.sequence_number !== undefined && input.sequence_number !== edge.sequenceNumber) {
    throw new DomainError(
      'curriculum:association_exists',
      `${edge.originId} is already ${edge.associationType} ${edge.destinationId} at sequence_number ${edge.sequenceNumber}; reorder it with PATCH /associations/${edge.associationId}.`,
      { extensions: { association_id: edge.associationId } },
    );
  }
  return { value: presentAssociation(edge), created: false };
}

/** POST /associations: initial containment or a framework alignment. */
export const createAssociation = commandRule({
  writes: 'create associations',
  body: CreateAssociationInput,
  operation: 'associations.create',
  run: async (tx, input, ctx) => {
    await requireCommandInBoundary(tx, ctx, { componentIds: [input.originId, input.destinationId] });
    if (input.associationType === 'isChildOf') {
      await lockContainment(tx, ctx.tenantId);
      const child = await requireActiveOrigin(tx, ctx, input.originId);
      // As create and PATCH refuse it: a parent would hide it from ?studentId= and make every PATCH of it fail.
      if (child.studentId !== null) {
        throw new DomainError(
          'validation_failed',
          `${input.originId} is a personalized course root; it has no parent.`,
          {
            fieldErrors: [{ field: 'originId', message: 'a component with student_id is a course root' }],
          },
        );
      }
      const current = await activeParentEdge(tx, ctx.tenantId, input.originId);
      if (current) {
        if (current.destinationId === input.destinationId) return existingEdge(current, input);
        throw new DomainError(
          'curriculum:second_parent',
          `${input.originId} is already a child of ${current.destinationId}; reparent it with PATCH /components/${input.originId}.`,
        );
      }
      const { edge, position } = await placeChild(tx, ctx, input.originId, input.destinationId, input.sequence_number);
      await tx
        .update(components)
        .set({
          parentComponentId: input.destinationId,
          position,
          version: child.version + 1,
          updatedAt: ctx.now.toISOString(),
        })
        .where(tenantRows(components, ctx.tenantId, { componentId: input.originId }));
      return { value: presentAssociation(edge), created: true };
    }
    await lockKey(tx, `alignment|${ctx.tenantId}|${input.associationType}|${input.originId}|${input.destinationId}`);
    await requireActiveOrigin(tx, ctx, input.originId);
    const [same] = await tx
      .select()
      .from(associations)
      .where(
        tenantRows(associations, ctx.tenantId, {
          associationType: input.associationType,
          originId: input.originId,
          destinationId: input.destinationId,
          status: 'active',
        }),
      );
    if (same) return existingEdge(same, input);
    const now = ctx.now.toISOString();
    const [row] = await tx
      .insert(associations)
      .values({
        tenantId: ctx.tenantId,
        associationId: randomUUID(),
        associationType: input.associationType,
        originId: input.originId,
        destinationId: input.destinationId,
        sequenceNumber: input.sequence_number ?? null,
        status: 'active',
        version: 1,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    return { value: presentAssociation(row), created: true };
  },
});

function associationNotFound(associationId: string): DomainError {
  return new DomainError('not_found', `No association ${associationId} in this tenant.`);
}

async function findAssociation(
  db: Database,
  tenantId: string,
  associationId: string,
  lock = false,
): Promise<AssociationRow | undefined> {
  if (!isUuid(associationId)) return undefined;
  const query = db
    .select()
    .from(associations)
    .where(tenantRows(associations, tenantId, { associationId }));
  const [row] = lock ? await query.for('update') : await query;
  return row;
}

export async function getAssociation(
  deps: CurriculumDeps,
  ctx: RequestContext,
  { associationId }: { associationId: string },
): Promise<Association> {
  requireAccess(ctx.principal, ACCESS.read, 'read associations');
  const row = await findAssociation(deps.db, ctx.tenantId, associationId);
  if (!row) throw associationNotFound(associationId);
  await requirePersonalizedCourseInBoundary(deps.db, ctx, row.originId, row.destinationId);
  return presentAssociation(row);
}

/** PATCH /associations/{id}: sibling reorder; a child's position follows its edge. */
export const patchAssociation = commandRule({
  writes: 'reorder associations',
  body: PatchAssociationInput,
  operation: ({ associationId }: { associationId: string } & WriteHeaders) => `associations.patch:${associationId}`,
  keyRequired: true,
  run: async (tx, input, ctx, { associationId, ...headers }) => {
    // Containment before the edge and its child's row, in the order moves and retires take them: without it a
    // reorder holding the edge and a retire holding the child's row waited on each other (a deadlock, a 500).
    await lockContainment(tx, ctx.tenantId);
    const row = await findAssociation(tx, ctx.tenantId, associationId, true);
    if (!row) throw associationNotFound(associationId);
    await requireCommandInBoundary(tx, ctx, { componentIds: [row.originId, row.destinationId] });
    checkIfMatch(headers.ifMatch, etagOf(row.associationId, row.version), 'X-Curriculum-If-Match');
    if (row.status !== 'active')
      throw new DomainError(
        'curriculum:association_retired',
        `Association ${associationId} is retired; place the component again with POST /associations or a reparent PATCH.`,
      );
    const now = ctx.now.toISOString();
    const [updated] = await tx
      .update(associations)
      .set({ sequenceNumber: input.sequence_number, version: row.version + 1, updatedAt: now })
      .where(tenantRows(associations, ctx.tenantId, { associationId }))
      .returning();
    if (row.associationType === 'isChildOf') {
      const child = await lockComponent(tx, ctx.tenantId, row.originId);
      if (!child) throw componentNotFound(row.originId);
      await tx
        .update(components)
        .set({ position: input.sequence_number, version: child.version + 1, updatedAt: now })
        .where(tenantRows(components, ctx.tenantId, { componentId: row.originId }));
    }
    return { value: presentAssociation(updated), created: false };
  },
});

export const listAssociations = listRule({
  reads: 'list associations',
  query: ListAssociationsQuery,
  table: associations,
  id: 'associationId',
  sorts: { association_id: 'associationId', updated_at: 'updatedAt' },
  where: (query, ctx) => [
    query.includeRetired ? undefined : eq(associations.status, 'active'),
    query.associationType ? eq(associations.associationType, query.associationType) : undefined,
    query.originId ? eq(associations.originId, query.originId) : undefined,
    query.destinationId ? eq(associations.destinationId, query.destinationId) : undefined,
    query.componentId
      ? or(eq(associations.originId, query.componentId), eq(associations.destinationId, query.componentId))
      : undefined,
    updatedSince(associations.updatedAt, query.updated_since),
    personalizedEdgesCondition(ctx, [associations.originId, associations.destinationId]),
  ],
  present: presentAssociation,
});
