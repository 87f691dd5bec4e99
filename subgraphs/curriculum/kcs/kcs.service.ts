import { tenantRows } from '../../../platform/tenant-rows.ts';
import { randomUUID } from 'node:crypto';
import { and, eq, gte, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../../platform/db.ts';
import { lockKey } from '../../../platform/db.ts';
import type { RequestContext } from '../../../platform/context.ts';
import { requireAccess } from '../../../platform/auth.ts';
import { DomainError } from '../../../platform/errors.ts';
import { checkIfMatch, etagOf } from '../../../platform/etag.ts';
import { canonicalJson } from '../../../platform/idempotency.ts';
import type { Page } from '../../../platform/cursor.ts';
import { keysetPage, pageRequest, tablePage, uniqueOrder } from '../../../platform/keyset.ts';
import { idAsStored, isoTimestamp, parseInput, isUuid } from '../../../platform/validation.ts';
import {
  components,
  kcFirmingEvents,
  kcPrerequisites,
  kcRelations,
  kcVersions,
  knowledgeComponents,
  standardKcMaps,
} from '../tables.ts';
import type { CurriculumDeps } from '../deps.ts';
import { commandRule, retireRule } from '../commands.ts';
import type { KcIdsInput, ListInput, WriteHeaders } from '../rule-inputs.ts';
import { ACCESS } from '../access.ts';
import { AppendKcVersionInput, CreateKcInput, ListKcsQuery, PageQuery, PublishKcInput } from './kcs.schema.ts';
import { findKcVersionRows, type KcVersionRow } from '../queries.ts';

/**
 * The governed KC registry. Invariants: kc_id is the only identity (source_kc_id is provenance of
 * exactly one identity and never resolves anything); versions are only inserted, numbered densely,
 * and the identity's current_version_id only moves by appending one; a version is firm exactly when
 * a firming event names it; publishing the identity never firms a version; a KC with any active
 * reference is never retired.
 */

type KcRow = typeof knowledgeComponents.$inferSelect;

export function presentKcVersion(row: KcVersionRow, firmingEventId: string | null) {
  return {
    version_id: row.versionId,
    kc_id: row.kcId,
    version_number: row.versionNumber,
    state: firmingEventId ? ('firm' as const) : ('draft' as const),
    firming_event_id: firmingEventId,
    definition: row.definition,
    alpha: row.alpha as Record<string, unknown>,
    created_by: row.createdBy,
    created_at: isoTimestamp(row.createdAt),
  };
}
export type KcVersion = ReturnType<typeof presentKcVersion>;

export function presentKc(row: KcRow, currentVersion?: KcVersion) {
  return {
    kc_id: row.kcId,
    stored_as: row.storedAs,
    definition: row.definition,
    source_kc_id: row.sourceKcId,
    alpha: row.alpha as Record<string, unknown>,
    publication_status: row.publicationStatus,
    status: row.status,
    current_version_id: row.currentVersionId,
    ...(currentVersion ? { current_version: currentVersion } : {}),
    version: row.version,
    etag: etagOf(row.kcId, row.version),
    created_at: isoTimestamp(row.createdAt),
    updated_at: isoTimestamp(row.updatedAt),
    retired_at: isoTimestamp(row.retiredAt),
  };
}
export type KnowledgeComponent = ReturnType<typeof presentKc>;

export function kcNotFound(kcId: string): DomainError {
  return new DomainError('not_found', `No KC ${kcId} in this tenant.`);
}

async function lockKc(tx: Database, tenantId: string, kcId: string): Promise<KcRow | undefined> {
  if (!isUuid(kcId)) return undefined;
  const [row] = await tx
    .select()
    .from(knowledgeComponents)
    .where(tenantRows(knowledgeComponents, tenantId, { kcId }))
    .for('update');
  return row;
}

async function insertVersion(
  tx: Database,
  ctx: RequestContext,
  kcId: string,
  number: number,
  definition: string,
  alpha: unknown,
) {
  const [row] = await tx
    .insert(kcVersions)
    .values({
      tenantId: ctx.tenantId,
      versionId: randomUUID(),
      kcId,
      versionNumber: number,
      definition,
      alpha,
      createdBy: ctx.principal.subject,
      createdAt: ctx.now.toISOString(),
    })
    .returning();
  return row;
}

/** What a retry must repeat exactly to be the same creation. */
function identityOf(input: { definition: string; source_kc_id?: string | null; alpha: unknown }) {
  return canonicalJson({ definition: input.definition, source_kc_id: input.source_kc_id ?? null, alpha: input.alpha });
}

/**
 * POST /kcs. A retry with the same Idempotency-Key replays; a retry with the exact kc_id and the same
 * definition answers the existing KC (200); anything else under a taken kc_id or source_kc_id is 409.
 */
export const createKc = commandRule({
  writes: 'create KCs',
  body: CreateKcInput,
  operation: 'kcs.create',
  run: async (tx, input, ctx) => {
    const kcId = input.kc_id ?? randomUUID();
    await lockKey(tx, `kc|${ctx.tenantId}|${kcId}`);
    if (input.source_kc_id !== undefined) await lockKey(tx, `kc-source|${ctx.tenantId}|${input.source_kc_id}`);
    const existing = await lockKc(tx, ctx.tenantId, kcId);
    if (existing) {
      if (
        identityOf({ definition: existing.definition, source_kc_id: existing.sourceKcId, alpha: existing.alpha }) ===
        identityOf(input)
      ) {
        return { value: await readKc(tx, ctx.tenantId, existing), created: false };
      }
      throw new DomainError('curriculum:kc_exists', `KC ${kcId} already exists; semantic edits append a version.`);
    }
    if (input.source_kc_id !== undefined) {
      const [taken] = await tx
        .select({ kcId: knowledgeComponents.kcId })
        .from(knowledgeComponents)
        .where(tenantRows(knowledgeComponents, ctx.tenantId, { sourceKcId: input.source_kc_id }));
      if (taken) {
        throw new DomainError(
          'curriculum:source_kc_id_taken',
          `source_kc_id ${input.source_kc_id} already belongs to another KC; retry with its kc_id.`,
          {
            fieldErrors: [{ field: 'source_kc_id', message: 'provenance of another kc_id' }],
          },
        );
      }
    }
    const now = ctx.now.toISOString();
    const version = await insertVersion(tx, ctx, kcId, 1, input.definition, input.alpha);
    const [row] = await tx
      .insert(knowledgeComponents)
      .values({
        tenantId: ctx.tenantId,
        kcId,
        storedAs: input.stored_as,
        definition: input.definition,
        sourceKcId: input.source_kc_id ?? null,
        subjectId: input.alpha.subject_id ?? null,
        kcKind: input.alpha.kc_kind ?? null,
        alpha: input.alpha,
        publicationStatus: 'draft',
        status: 'active',
        currentVersionId: version.versionId,
        version: 1,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    return { value: presentKc(row, presentKcVersion(version, null)), created: true };
  },
});

async function firmingOf(db: Database, tenantId: string, versionIds: string[]): Promise<Map<string, string>> {
  if (versionIds.length === 0) return new Map();
  const rows = await db
    .select({ versionId: kcFirmingEvents.kcVersionId, eventId: kcFirmingEvents.firmingEventId })
    .from(kcFirmingEvents)
    .where(tenantRows(kcFirmingEvents, tenantId, {}, inArray(kcFirmingEvents.kcVersionId, versionIds)));
  return new Map(rows.map((row) => [row.versionId, row.eventId]));
}

async function presentVersions(db: Database, tenantId: string, rows: KcVersionRow[]): Promise<KcVersion[]> {
  const firm = await firmingOf(
    db,
    tenantId,
    rows.map((row) => row.versionId),
  );
  return rows.map((row) => presentKcVersion(row, firm.get(row.versionId) ?? null));
}

async function readKc(db: Database, tenantId: string, row: KcRow): Promise<KnowledgeComponent> {
  const [current] = row.currentVersionId ? await findKcVersionRows(db, tenantId, [row.currentVersionId]) : [];
  return presentKc(row, current ? (await presentVersions(db, tenantId, [current]))[0] : undefined);
}

/** Batched read of KC identities with their current versions (loaders, single reads). */
export async function loadKcs(
  deps: CurriculumDeps,
  ctx: RequestContext,
  { kcIds }: KcIdsInput,
): Promise<KnowledgeComponent[]> {
  requireAccess(ctx.principal, ACCESS.read, 'read KCs');
  const valid = [...new Set(kcIds.filter(isUuid))];
  if (valid.length === 0) return [];
  const rows = await deps.db
    .select()
    .from(knowledgeComponents)
    .where(tenantRows(knowledgeComponents, ctx.tenantId, {}, inArray(knowledgeComponents.kcId, valid)));
  const versions = await findKcVersionRows(
    deps.db,
    ctx.tenantId,
    rows.map((row) => row.currentVersionId).filter((id): id is string => id !== null),
  );
  const presented = new Map(
    (await presentVersions(deps.db, ctx.tenantId, versions)).map((version) => [version.version_id, version]),
  );
  return rows.map((row) => presentKc(row, row.currentVersionId ? presented.get(row.currentVersionId) : undefined));
}

export async function getKc(
  deps: CurriculumDeps,
  ctx: RequestContext,
  { kcId }: { kcId: string },
): Promise<KnowledgeComponent> {
  const [found] = await loadKcs(deps, ctx, { kcIds: [kcId] });
  if (!found) throw kcNotFound(kcId);
  return found;
}

export async function listKcs(
  deps: CurriculumDeps,
  ctx: RequestContext,
  { query: rawQuery }: ListInput,
): Promise<Page<KnowledgeComponent>> {
  requireAccess(ctx.principal, ACCESS.read, 'list KCs');
  const query = parseInput(ListKcsQuery, rawQuery);
  const conditions: Array<SQL | undefined> = [
    eq(knowledgeComponents.tenantId, ctx.tenantId),
    query.includeRetired ? undefined : eq(knowledgeComponents.status, 'active'),
    query.subject_id ? eq(knowledgeComponents.subjectId, query.subject_id) : undefined,
    query.kc_kind ? eq(knowledgeComponents.kcKind, query.kc_kind) : undefined,
    query.publication_status ? eq(knowledgeComponents.publicationStatus, query.publication_status) : undefined,
    query.updated_since ? gte(knowledgeComponents.updatedAt, new Date(query.updated_since).toISOString()) : undefined,
  ];
  const order = uniqueOrder<{ kcId: string }>(knowledgeComponents.kcId, (row) => row.kcId);
  const page = await keysetPage(deps.cursors, pageRequest(ctx.tenantId, query), order, ({ after, orderBy, limit }) =>
    deps.db
      .select({ kcId: knowledgeComponents.kcId })
      .from(knowledgeComponents)
      .where(and(...conditions, after))
      .orderBy(...orderBy)
      .limit(limit),
  );
  const ids = page.data.map((row) => row.kcId);
  const byId = new Map((await loadKcs(deps, ctx, { kcIds: ids })).map((kc) => [kc.kc_id, kc]));
  return { data: ids.map((id) => byId.get(id) as KnowledgeComponent), next_cursor: page.next_cursor };
}

/** Locks an active KC for a mutation after checking its If-Match. */
async function lockForMutation(
  tx: Database,
  ctx: RequestContext,
  kcId: string,
  ifMatch: string | undefined,
): Promise<KcRow> {
  const row = await lockKc(tx, ctx.tenantId, kcId);
  if (!row) throw kcNotFound(kcId);
  checkIfMatch(ifMatch, etagOf(row.kcId, row.version));
  return row;
}

/** PATCH /kcs/{id}: identity publication only; it never firms a version. */
export const publishKc = commandRule({
  writes: 'publish KCs',
  body: PublishKcInput,
  operation: ({ kcId }: { kcId: string } & WriteHeaders) => `kcs.publish:${kcId}`,
  keyRequired: true,
  run: async (tx, _input, ctx, { kcId, ...headers }) => {
    const row = await lockForMutation(tx, ctx, kcId, headers.ifMatch);
    if (row.status !== 'active') throw new DomainError('curriculum:kc_retired', `KC ${kcId} is retired.`);
    if (row.publicationStatus === 'published') return { value: await readKc(tx, ctx.tenantId, row), created: false };
    const [updated] = await tx
      .update(knowledgeComponents)
      .set({ publicationStatus: 'published', version: row.version + 1, updatedAt: ctx.now.toISOString() })
      .where(tenantRows(knowledgeComponents, ctx.tenantId, { kcId }))
      .returning();
    return { value: await readKc(tx, ctx.tenantId, updated), created: false };
  },
});

/** What still points at a KC: any of these blocks its retirement. */
async function activeReferences(tx: Database, tenantId: string, kcId: string) {
  const prerequisites = await tx
    .select({ id: kcPrerequisites.prerequisiteId })
    .from(kcPrerequisites)
    .where(
      tenantRows(
        kcPrerequisites,
        tenantId,
        { status: 'active' },
        or(eq(kcPrerequisites.prerequisiteKcId, kcId), eq(kcPrerequisites.dependentKcId, kcId)),
      ),
    );
  const relations = await tx
    .select({ id: kcRelations.relationId })
    .from(kcRelations)
    .where(
      tenantRows(
        kcRelations,
        tenantId,
        { status: 'active' },
        or(eq(kcRelations.fromKcId, kcId), eq(kcRelations.toKcId, kcId)),
      ),
    );
  const standardMaps = await tx
    .select({ id: standardKcMaps.mapId })
    .from(standardKcMaps)
    .where(tenantRows(standardKcMaps, tenantId, { kcId }, isNull(standardKcMaps.retiredAt)));
  const referencing = await tx
    .select({ componentId: components.componentId, alpha: components.alpha })
    .from(components)
    .where(
      tenantRows(
        components,
        tenantId,
        { status: 'active' },
        or(
          sql`${components.alpha}->'scope_kc_refs' @> ${JSON.stringify([kcId])}::jsonb`,
          sql`${components.alpha}->'remediation_entries' @> ${JSON.stringify([{ kc_ref: kcId }])}::jsonb`,
        ),
      ),
    );
  const scoped = referencing.filter((row) =>
    ((row.alpha as { scope_kc_refs?: string[] }).scope_kc_refs ?? []).includes(kcId),
  );
  const remediating = referencing.filter((row) =>
    ((row.alpha as { remediation_entries?: Array<{ kc_ref: string }> }).remediation_entries ?? []).some(
      (entry) => entry.kc_ref === kcId,
    ),
  );
  return {
    prerequisite_ids: prerequisites.map((row) => row.id),
    relation_ids: relations.map((row) => row.id),
    standard_map_ids: standardMaps.map((row) => row.id),
    scope_component_ids: scoped.map((row) => row.componentId),
    remediation_component_ids: remediating.map((row) => row.componentId),
  };
}

/** DELETE /kcs/{id}: soft-retire, refused while any active reference remains. */
export const retireKc = retireRule({
  writes: 'retire KCs',
  operation: ({ kcId }: { kcId: string } & WriteHeaders) => `kcs.retire:${kcId}`,
  run: async (tx, ctx, { kcId, ...headers }) => {
    const row = await lockForMutation(tx, ctx, kcId, headers.ifMatch);
    if (row.status !== 'active') return { value: await readKc(tx, ctx.tenantId, row), created: false };
    const references = await activeReferences(tx, ctx.tenantId, kcId);
    if (Object.values(references).some((ids) => ids.length > 0)) {
      throw new DomainError('curriculum:kc_in_use', `KC ${kcId} still has active references; remove them first.`, {
        extensions: { active_references: references },
      });
    }
    const now = ctx.now.toISOString();
    const [updated] = await tx
      .update(knowledgeComponents)
      .set({ status: 'retired', retiredAt: now, updatedAt: now, version: row.version + 1 })
      .where(tenantRows(knowledgeComponents, ctx.tenantId, { kcId }))
      .returning();
    return { value: await readKc(tx, ctx.tenantId, updated), created: false };
  },
});

/** POST /kcs/{id}/versions: a semantic edit appends the next immutable draft version. */
export const appendKcVersion = commandRule({
  writes: 'append KC versions',
  body: AppendKcVersionInput,
  operation: ({ kcId }: { kcId: string }) => `kcs.versions.append:${kcId}`,
  keyRequired: true,
  run: async (tx, input, ctx, { kcId }) => {
    const row = await lockKc(tx, ctx.tenantId, kcId);
    if (!row) throw kcNotFound(kcId);
    if (row.status !== 'active') throw new DomainError('curriculum:kc_retired', `KC ${kcId} is retired.`);
    const [last] = await tx
      .select({ number: sql<number>`max(${kcVersions.versionNumber})` })
      .from(kcVersions)
      .where(tenantRows(kcVersions, ctx.tenantId, { kcId }));
    const definition = input.definition ?? row.definition;
    const alpha = input.alpha ?? row.alpha;
    const version = await insertVersion(tx, ctx, kcId, Number(last?.number ?? 0) + 1, definition, alpha);
    const alphaFields = alpha as { subject_id?: string; kc_kind?: string };
    await tx
      .update(knowledgeComponents)
      .set({
        definition,
        alpha,
        subjectId: alphaFields.subject_id ?? null,
        kcKind: alphaFields.kc_kind ?? null,
        currentVersionId: version.versionId,
        version: row.version + 1,
        updatedAt: ctx.now.toISOString(),
      })
      .where(tenantRows(knowledgeComponents, ctx.tenantId, { kcId }));
    return { value: presentKcVersion(version, null), created: true };
  },
});

export async function listKcVersions(
  deps: CurriculumDeps,
  ctx: RequestContext,
  { kcId, query: rawQuery }: { kcId: string; query: unknown },
): Promise<Page<KcVersion>> {
  requireAccess(ctx.principal, ACCESS.read, 'read KC versions');
  const query = parseInput(PageQuery, rawQuery);
  await getKc(deps, ctx, { kcId });
  const order = uniqueOrder<KcVersionRow>(kcVersions.versionNumber, (row) => row.versionNumber);
  const conditions = [eq(kcVersions.tenantId, ctx.tenantId), eq(kcVersions.kcId, kcId)];
  const request = { ...query, tenantId: ctx.tenantId, filters: { kcId } };
  const page = await tablePage(deps.db, deps.cursors, kcVersions, order, request, conditions);
  return { data: await presentVersions(deps.db, ctx.tenantId, page.data), next_cursor: page.next_cursor };
}

export async function getKcVersion(
  deps: CurriculumDeps,
  ctx: RequestContext,
  { kcId, versionId }: { kcId: string; versionId: string },
): Promise<KcVersion> {
  requireAccess(ctx.principal, ACCESS.read, 'read KC versions');
  const [row] = await findKcVersionRows(deps.db, ctx.tenantId, [versionId]);
  if (!row || row.kcId !== idAsStored(kcId))
    throw new DomainError('not_found', `No version ${versionId} of KC ${kcId} in this tenant.`);
  return (await presentVersions(deps.db, ctx.tenantId, [row]))[0];
}
