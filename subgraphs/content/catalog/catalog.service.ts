import { randomUUID } from 'node:crypto';
import { and, asc, eq, inArray } from 'drizzle-orm';
import { z } from 'zod';
import type { RequestContext } from '../../../platform/context.ts';
import { requireAccess } from '../../../platform/auth.ts';
import { DomainError } from '../../../platform/errors.ts';
import type { Page } from '../../../platform/cursor.ts';
import { requireIdempotencyKey } from '../../../platform/idempotency.ts';
import { runCommand } from '../../../platform/commands.ts';
import { isoTimestamp, nullMeansAbsent, parseInput } from '../../../platform/validation.ts';
import { catalogFacets, facetAssignments } from '../tables.ts';
import type { ContentDeps, ItemCommand, ItemList } from '../deps.ts';
import { FACET_GRAINS, FACET_KEYS, FACET_STATUSES, FACET_VALUE_TYPES, xpBand } from '../vocabulary.ts';
import { ACCESS } from '../access.ts';
import { requireItemRow, rowsByItem, wholeList } from '../queries.ts';
import { tenantRows } from '../../../platform/tenant-rows.ts';
import type { BodyWrite, ItemKeys } from '../inputs.ts';

/**
 * Catalog facets: a tenant defines each of the twelve facet keys once (value type, grain), then
 * assigns typed values to items, optionally with provenance. A value is checked against its
 * facet's value type; expected_xp_band values are stored as canonical bands.
 */

export const FacetInput = nullMeansAbsent(
  z
    .object({
      facet_key: z.enum(FACET_KEYS),
      value_type: z.enum(FACET_VALUE_TYPES),
      grain: z.enum(FACET_GRAINS).default('content_item'),
      status: z.enum(FACET_STATUSES).default('active'),
      allowed_values: z.array(z.string().min(1)).min(1).optional().describe('enum facets: the allowed values'),
    })
    .strict(),
).superRefine((facet, issues) => {
  if (facet.allowed_values !== undefined && facet.value_type !== 'enum') {
    issues.addIssue({ code: 'custom', path: ['allowed_values'], message: 'only enum facets have allowed_values' });
  }
});

type FacetRow = typeof catalogFacets.$inferSelect;

function presentFacet(row: FacetRow) {
  return {
    facet_key: row.facetKey,
    value_type: row.valueType,
    grain: row.grain,
    status: row.status,
    allowed_values: row.allowedValues as string[] | null,
    created_at: isoTimestamp(row.createdAt),
  };
}
export type CatalogFacet = ReturnType<typeof presentFacet>;

export async function defineFacet(
  deps: ContentDeps,
  ctx: RequestContext,
  { body: rawInput }: BodyWrite,
): Promise<CatalogFacet> {
  requireAccess(ctx.principal, ACCESS.author, 'define catalog facets');
  const { db } = deps;
  const input = parseInput(FacetInput, rawInput);
  const [row] = await db
    .insert(catalogFacets)
    .values({
      tenantId: ctx.tenantId,
      facetKey: input.facet_key,
      valueType: input.value_type,
      grain: input.grain,
      status: input.status,
      allowedValues: input.allowed_values ?? null,
      createdBy: ctx.principal.subject,
      createdAt: ctx.now.toISOString(),
    })
    .onConflictDoNothing()
    .returning();
  if (!row)
    throw new DomainError('content.catalog_facet_exists', `This tenant already defines the ${input.facet_key} facet.`);
  return presentFacet(row);
}

export async function listFacets(deps: ContentDeps, ctx: RequestContext): Promise<Page<CatalogFacet>> {
  requireAccess(ctx.principal, ACCESS.read, 'read catalog facets');
  const { db } = deps;
  const rows = await db
    .select()
    .from(catalogFacets)
    .where(tenantRows(catalogFacets, ctx.tenantId))
    .orderBy(asc(catalogFacets.facetKey));
  return wholeList(rows.map(presentFacet));
}

export const FacetAssignmentInput = nullMeansAbsent(
  z
    .object({
      facet_key: z.enum(FACET_KEYS),
      facet_value: z.union([z.string().min(1).max(500), z.number().finite(), z.boolean()]),
      provenance: z.record(z.string(), z.unknown()).optional().describe('e.g. source_test_id'),
    })
    .strict(),
);

type AssignmentRow = typeof facetAssignments.$inferSelect;

function typedValue(valueType: string, stored: string): string | number | boolean {
  if (valueType === 'boolean') return stored === 'true';
  if (valueType === 'number') return Number(stored);
  return stored;
}

function presentAssignment(row: AssignmentRow, valueType: string) {
  return {
    assignment_id: row.assignmentId,
    content_id: row.contentId,
    facet_key: row.facetKey,
    facet_value: typedValue(valueType, row.facetValue),
    provenance: (row.provenance as Record<string, unknown> | null) ?? null,
    created_by: row.createdBy,
    created_at: isoTimestamp(row.createdAt),
  };
}
export type FacetAssignment = ReturnType<typeof presentAssignment>;

/** The stored text of a value, or the reason it does not fit its facet. */
function storedValue(facet: FacetRow, value: string | number | boolean): string | { error: string } {
  switch (facet.valueType) {
    case 'boolean':
      return typeof value === 'boolean' ? String(value) : { error: 'a boolean facet takes true or false' };
    case 'number':
      return typeof value === 'number' ? String(value) : { error: 'a number facet takes a number' };
    default: {
      if (typeof value !== 'string') return { error: `a ${facet.valueType} facet takes a string` };
      if (facet.facetKey === 'expected_xp_band') {
        const band = xpBand.safeParse(value);
        return band.success ? band.data : { error: band.error.issues[0].message };
      }
      const allowed = facet.allowedValues as string[] | null;
      if (facet.valueType === 'enum' && allowed && !allowed.includes(value))
        return { error: `one of ${allowed.join(', ')}` };
      return value;
    }
  }
}

export const assignFacet: ItemCommand<FacetAssignment> = async (deps, ctx, { contentId, body, idempotencyKey }) => {
  requireAccess(ctx.principal, ACCESS.author, 'assign catalog facets');
  const key = requireIdempotencyKey(idempotencyKey);
  const input = parseInput(FacetAssignmentInput, body);
  const call = { operation: `content.facet_assignments:${contentId}`, key, sent: body };
  return runCommand(deps, ctx, call, async (tx) => {
    await requireItemRow(tx, ctx.tenantId, contentId);
    const [facet] = await tx
      .select()
      .from(catalogFacets)
      .where(tenantRows(catalogFacets, ctx.tenantId, { facetKey: input.facet_key }));
    const refuse = (field: string, message: string) =>
      new DomainError('validation_failed', `The ${input.facet_key} assignment is refused: ${message}.`, {
        fieldErrors: [{ field, message }],
      });
    if (!facet || facet.status !== 'active') throw refuse('facet_key', 'not an active catalog facet of this tenant');
    if (facet.grain !== 'content_item')
      throw refuse('facet_key', `the facet's grain is ${facet.grain}, not content_item`);
    const value = storedValue(facet, input.facet_value);
    if (typeof value !== 'string') throw refuse('facet_value', value.error);
    const [row] = await tx
      .insert(facetAssignments)
      .values({
        tenantId: ctx.tenantId,
        assignmentId: randomUUID(),
        contentId,
        facetKey: input.facet_key,
        facetValue: value,
        provenance: input.provenance ?? null,
        createdBy: ctx.principal.subject,
        createdAt: ctx.now.toISOString(),
      })
      .onConflictDoNothing()
      .returning();
    if (row) return { value: presentAssignment(row, facet.valueType), created: true };
    const [existing] = await tx
      .select()
      .from(facetAssignments)
      .where(tenantRows(facetAssignments, ctx.tenantId, { contentId, facetKey: input.facet_key, facetValue: value }));
    return { value: presentAssignment(existing, facet.valueType), created: false };
  });
};

/** Join condition: the facet an assignment sets. */
const facetOfAssignment = and(
  eq(catalogFacets.tenantId, facetAssignments.tenantId),
  eq(catalogFacets.facetKey, facetAssignments.facetKey),
);

/** Facet assignments of items, in facet-key then creation order; one statement for many items. */
export async function assignmentsOf(
  deps: ContentDeps,
  ctx: RequestContext,
  { contentIds }: ItemKeys,
): Promise<Map<string, FacetAssignment[]>> {
  requireAccess(ctx.principal, ACCESS.read, 'read facet assignments');
  return rowsByItem(
    contentIds,
    (valid) =>
      deps.db
        .select({ assignment: facetAssignments, valueType: catalogFacets.valueType })
        .from(facetAssignments)
        .leftJoin(catalogFacets, facetOfAssignment)
        .where(tenantRows(facetAssignments, ctx.tenantId, {}, inArray(facetAssignments.contentId, valid)))
        .orderBy(asc(facetAssignments.facetKey), asc(facetAssignments.createdAt), asc(facetAssignments.assignmentId)),
    (row) => row.assignment.contentId,
    (row) => presentAssignment(row.assignment, row.valueType ?? 'text'),
  );
}

export const listAssignments: ItemList<FacetAssignment> = async (deps, ctx, { contentId }) => {
  requireAccess(ctx.principal, ACCESS.read, 'read facet assignments');
  const { db } = deps;
  await requireItemRow(db, ctx.tenantId, contentId);
  return wholeList((await assignmentsOf(deps, ctx, { contentIds: [contentId] })).get(contentId) ?? []);
};
