import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '../../../platform/db.ts';
import type { RequestContext } from '../../../platform/context.ts';
import { requireAccess, type AccessRule } from '../../../platform/auth.ts';
import { DomainError } from '../../../platform/errors.ts';
import { lockKey } from '../../../platform/db.ts';
import type { CommandResult } from '../../../platform/idempotency.ts';
import { sortedOrder, tablePage } from '../../../platform/keyset.ts';
import { parseInput, isoTimestamp, listQueryMembers } from '../../../platform/validation.ts';
import { activitySources } from '../tables.ts';
import { findSourceRows, type SourceRow } from '../queries.ts';
import type { EventsDeps } from '../deps.ts';
import type { ListInput } from '../inputs.ts';
import { ACCESS, boundaryOf, CHECKABLE, requireCheckable } from '../access.ts';

/**
 * Activity sources: create-or-replay on tenant + sourceIri. Invariants: ids are platform-issued;
 * one row per sourceIri per tenant; a registration under another name is a conflict, never a rename.
 */

export const RegisterSourceInput = z
  .object({
    sourceIri: z
      .string()
      // RFC 3987: no space, control or <>"{}|\^` character. Checked first: the URL check lets them through, and drops
      // tabs and newlines from the value it answers, so the IRI stored was not the one sent.
      // eslint-disable-next-line no-control-regex -- control characters are what is refused
      .regex(/^[^\x00-\x20\x7f<>"{}|\\^`]*$/, 'not an IRI: no spaces, controls or <>"{}|\\^` characters')
      .url()
      .max(2000)
      .describe('IRI naming the producer (the Caliper edApp id)'),
    name: z.string().trim().min(1).max(200),
  })
  .strict();

export function presentSource(row: SourceRow) {
  return {
    id: row.sourceId,
    sourceIri: row.sourceIri,
    name: row.name,
    status: row.status,
    createdAt: isoTimestamp(row.createdAt),
  };
}
export type ActivitySource = ReturnType<typeof presentSource>;

/** The scope check of every source read and registration, then the boundary: no claim applies to a source. */
function requireSourceAccess(ctx: RequestContext, rule: AccessRule, what: string): void {
  requireAccess(ctx.principal, rule, what);
  requireCheckable(boundaryOf(ctx.principal), CHECKABLE.activitySources, 'activity sources');
}

/** The tenant's source of `input.sourceIri`, registered under `input.name` when the tenant has none. */
export async function findOrRegister(
  tx: Database,
  ctx: RequestContext,
  input: z.infer<typeof RegisterSourceInput>,
): Promise<{ row: SourceRow; created: boolean }> {
  await lockKey(tx, `events.source|${ctx.tenantId}|${input.sourceIri}`);
  const [existing] = await tx
    .select()
    .from(activitySources)
    .where(and(eq(activitySources.tenantId, ctx.tenantId), eq(activitySources.sourceIri, input.sourceIri)));
  if (existing) return { row: existing, created: false };
  const [row] = await tx
    .insert(activitySources)
    .values({
      tenantId: ctx.tenantId,
      sourceId: randomUUID(),
      sourceIri: input.sourceIri,
      name: input.name,
      status: 'active',
      createdBy: ctx.principal.subject,
      createdAt: ctx.now.toISOString(),
    })
    .returning();
  return { row, created: true };
}

/** Same sourceIri and name: the original row (replay). Same sourceIri, other name: 409. */
export async function createOrReplay(
  tx: Database,
  ctx: RequestContext,
  input: z.infer<typeof RegisterSourceInput>,
): Promise<CommandResult<ActivitySource>> {
  const { row, created } = await findOrRegister(tx, ctx, input);
  if (!created && row.name !== input.name) {
    throw new DomainError('resource_conflict', `sourceIri ${input.sourceIri} is registered as "${row.name}".`, {
      fieldErrors: [{ field: 'name', message: 'differs from the registered name' }],
    });
  }
  return { value: presentSource(row), created, replayed: !created };
}

export async function registerSource(
  deps: EventsDeps,
  ctx: RequestContext,
  { body }: { body: unknown },
): Promise<CommandResult<ActivitySource>> {
  requireSourceAccess(ctx, ACCESS.registerSource, 'register activity sources');
  const input = parseInput(RegisterSourceInput, body);
  return deps.db.transaction((tx) => createOrReplay(tx, ctx, input));
}

export const DEMO_SOURCE = {
  sourceIri: 'urn:alpha:demo:default-activity-source',
  name: 'Demo default activity source',
};

/** The demo tenant's default source, registered by the platform itself when a token is minted. */
export async function ensureDemoSource(deps: EventsDeps, ctx: RequestContext): Promise<ActivitySource> {
  return (await deps.db.transaction((tx) => createOrReplay(tx, ctx, DEMO_SOURCE))).value;
}

export const ListSourcesQuery = z
  .object({
    status: z.enum(['active', 'retired']).optional().describe('active or retired; both when omitted'),
    cursor: listQueryMembers.cursor,
    pageSize: listQueryMembers.pageSize,
  })
  .strict();

export async function listSources(deps: EventsDeps, ctx: RequestContext, { query: rawQuery }: ListInput) {
  requireSourceAccess(ctx, ACCESS.read, 'read activity sources');
  const query = parseInput(ListSourcesQuery, rawQuery);
  const request = {
    cursor: query.cursor,
    limit: query.pageSize,
    tenantId: ctx.tenantId,
    filters: { status: query.status },
  };
  const conditions = [
    eq(activitySources.tenantId, ctx.tenantId),
    query.status ? eq(activitySources.status, query.status) : undefined,
  ];
  const page = await tablePage(deps.db, deps.cursors, activitySources, BY_CREATION, request, conditions);
  return { data: page.data.map(presentSource), nextCursor: page.next_cursor };
}

const BY_CREATION = sortedOrder<SourceRow>(
  { sortColumn: activitySources.createdAt, idColumn: activitySources.sourceId, descending: false },
  (row) => [row.createdAt, row.sourceId],
);

export async function findSources(
  deps: EventsDeps,
  ctx: RequestContext,
  { sourceIds }: { sourceIds: readonly string[] },
): Promise<ActivitySource[]> {
  requireSourceAccess(ctx, ACCESS.read, 'read activity sources');
  return (await findSourceRows(deps.db, ctx.tenantId, sourceIds)).map(presentSource);
}

export async function getSource(
  deps: EventsDeps,
  ctx: RequestContext,
  { sourceId }: { sourceId: string },
): Promise<{ data: ActivitySource }> {
  const [source] = await findSources(deps, ctx, { sourceIds: [sourceId] });
  if (!source) throw new DomainError('not_found', `No activity source ${sourceId} in this tenant.`);
  return { data: source };
}
