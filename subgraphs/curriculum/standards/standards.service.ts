import { tenantRows } from '../../../platform/tenant-rows.ts';
import { createHash, randomUUID } from 'node:crypto';
import { eq, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { lockKey, type Database } from '../../../platform/db.ts';
import type { RequestContext } from '../../../platform/context.ts';
import { requireAccess } from '../../../platform/auth.ts';
import { DomainError, type FieldError } from '../../../platform/errors.ts';
import { canonicalJson, type CommandResult } from '../../../platform/idempotency.ts';
import { isoTimestamp, isUuid, parseInput } from '../../../platform/validation.ts';
import { listRule, updatedSince } from '../lists.ts';
import { standardKcMaps, standardsFrameworks, standardsReleases } from '../tables.ts';
import { ACCESS } from '../access.ts';
import { runCommand } from '../../../platform/commands.ts';
import type { CurriculumDeps } from '../deps.ts';
import type { CommandInput, KcIdsInput } from '../rule-inputs.ts';
import {
  CASE_UUID_SHAPE,
  ImportStandardsInput,
  ListFrameworksQuery,
  ListMapsQuery,
  type CasePackage,
} from './standards.schema.ts';
import { requireActiveKcs } from '../queries.ts';

/**
 * Standards frameworks and standard-to-KC maps (rules 2, 15, 16). Invariants: a release is frozen
 * and addressed by the SHA-256 of its canonical package, so the same package imported again is the
 * same release; an import never creates KCs, and every mapped KC is an active registry KC of the
 * tenant, share-locked so a concurrent KC retire waits; the maps of a framework's newest release are
 * the live ones; the whole import is one transaction.
 */

type FrameworkRow = typeof standardsFrameworks.$inferSelect;
type ReleaseRow = typeof standardsReleases.$inferSelect;
type MapRow = typeof standardKcMaps.$inferSelect;

export function presentFramework(row: FrameworkRow) {
  return {
    standards_framework_id: row.standardsFrameworkId,
    framework_identifier: row.frameworkIdentifier,
    title: row.title,
    creator: row.creator,
    subject_ids: row.subjectIds as string[],
    language: row.language,
    version: row.frameworkVersion,
    case_version: row.caseVersion,
    current_release_id: row.currentReleaseId,
    current_checksum_sha256: row.currentChecksum,
    created_at: isoTimestamp(row.createdAt),
    updated_at: isoTimestamp(row.updatedAt),
  };
}
export type StandardsFramework = ReturnType<typeof presentFramework>;

/** tenant_id, match_type and retired_at stay inside. */
export function presentMap(row: MapRow) {
  return {
    map_id: row.mapId,
    source_release_id: row.sourceReleaseId,
    standard_id: row.standardId,
    kc_id: row.kcId,
    relationship: row.relationship,
    status: row.retiredAt ? 'retired' : 'active',
    updated_at: isoTimestamp(row.updatedAt),
  };
}
export type StandardKcMap = ReturnType<typeof presentMap>;

function presentJob(release: ReleaseRow, framework: FrameworkRow) {
  return {
    import_job_id: release.releaseId,
    status: 'completed',
    standards_framework_id: framework.standardsFrameworkId,
    framework_identifier: framework.frameworkIdentifier,
    release_id: release.releaseId,
    checksum_sha256: release.checksumSha256,
    item_count: release.itemCount,
    association_count: release.associationCount,
    map_count: release.mapCount,
    created_at: isoTimestamp(release.createdAt),
  };
}
export type StandardsImportJob = ReturnType<typeof presentJob>;

/** The address of a package: SHA-256 of its RFC 8785 canonical JSON (keys sorted, no whitespace). */
export function packageChecksum(rawPackage: unknown): string {
  return createHash('sha256').update(canonicalJson(rawPackage)).digest('hex');
}

/**
 * CASE identifiers are UUIDs, which are case-insensitive: A1B2... and a1b2... name the same node. Any
 * 8-4-4-4-12 hex counts (real exports use placeholders such as d0000000-0000-...).
 */
const identifierKey = (identifier: string) =>
  CASE_UUID_SHAPE.test(identifier) ? identifier.toLowerCase() : identifier;

/** The index of each identifier's first use; a later use of the same identifier is a problem at its field. */
function uniqueIdentifiers(
  nodes: ReadonlyArray<{ identifier: string }>,
  field: string,
  problems: FieldError[],
): Map<string, number> {
  const first = new Map<string, number>();
  nodes.forEach((node, index) => {
    const key = identifierKey(node.identifier);
    if (first.has(key))
      problems.push({ field: `${field}.${index}.identifier`, message: `${node.identifier} appears twice` });
    else first.set(key, index);
  });
  return first;
}

/**
 * Shape rules across the package and the maps, checked before the transaction. Returns the maps with
 * each standard_id spelled as the package spells its CFItem, so a map is stored and read by that name.
 */
function checkedMaps<Sent extends { standard_id: string; kc_id: string }>(
  pkg: CasePackage,
  maps: readonly Sent[],
): Sent[] {
  const problems: FieldError[] = [];
  const items = uniqueIdentifiers(pkg.CFItems, 'package.CFItems', problems);
  uniqueIdentifiers(pkg.CFAssociations, 'package.CFAssociations', problems);
  const pairs = new Set<string>();
  const named = maps.map((map, index) => {
    const item = items.get(identifierKey(map.standard_id));
    if (item === undefined)
      problems.push({
        field: `standard_kc_maps.${index}.standard_id`,
        message: `${map.standard_id} is not a CFItem of this package`,
      });
    const standardId = item === undefined ? map.standard_id : pkg.CFItems[item].identifier;
    const pair = `${standardId}|${map.kc_id}`;
    if (pairs.has(pair))
      problems.push({ field: `standard_kc_maps.${index}`, message: 'this standard and KC are mapped twice' });
    pairs.add(pair);
    return { ...map, standard_id: standardId };
  });
  if (problems.length > 0)
    throw new DomainError('validation_failed', 'The package or its maps are inconsistent.', { fieldErrors: problems });
  return named;
}

function subjectIdsOf(pkg: CasePackage): string[] {
  const subjects = [
    ...(pkg.CFDocument.subject ?? []),
    ...(pkg.CFDefinitions?.CFSubjects ?? []).map((subject) => subject.identifier),
  ];
  return [...new Set(subjects)];
}

/** Rows per INSERT, well under PostgreSQL's bind-parameter limit. */
const INSERT_CHUNK = 1000;

/**
 * POST /standards-frameworks/import: a new checksum creates a frozen release of its framework (201)
 * and its maps become the framework's live maps; the same checksum answers its release (200), and is
 * refused if the maps sent differ from the frozen ones.
 */
export async function importStandards(
  deps: CurriculumDeps,
  ctx: RequestContext,
  { body: rawInput, idempotencyKey }: CommandInput,
): Promise<CommandResult<StandardsImportJob>> {
  requireAccess(ctx.principal, ACCESS.import, 'import standards frameworks');
  const input = parseInput(ImportStandardsInput, rawInput);
  const checksum = packageChecksum((rawInput as { package: unknown }).package);
  if (checksum !== input.checksum_sha256) {
    throw new DomainError(
      'curriculum:checksum_mismatch',
      'checksum_sha256 is not the SHA-256 of the canonical JSON (RFC 8785) of package.',
      {
        fieldErrors: [{ field: 'checksum_sha256', message: `the package hashes to ${checksum}` }],
      },
    );
  }
  const maps = checkedMaps(input.package, input.standard_kc_maps);
  const document = input.package.CFDocument;
  // The package is compared through its checksum (the hash of its canonical JSON); the rest as sent.
  const sent = { ...(rawInput as Record<string, unknown>), package: checksum };
  return runCommand(deps, ctx, { operation: 'standards.import', key: idempotencyKey, sent }, async (tx) => {
    await lockKey(tx, `standards|${ctx.tenantId}|${identifierKey(document.identifier)}`);
    // The framework keeps the identifier as its first release spelled it; a later one in another case is the same.
    const [known] = await tx
      .select({ identifier: standardsFrameworks.frameworkIdentifier })
      .from(standardsFrameworks)
      .where(tenantRows(standardsFrameworks, ctx.tenantId, {}, frameworkIdentifierIs(document.identifier)));
    const [frozen] = await tx
      .select()
      .from(standardsReleases)
      .where(tenantRows(standardsReleases, ctx.tenantId, { checksumSha256: checksum }));
    if (frozen) return { value: await answerFrozenRelease(tx, ctx, frozen, maps), created: false };
    await requireActiveKcs(
      tx,
      ctx.tenantId,
      maps.map((map, index) => ({ kcId: map.kc_id, field: `standard_kc_maps.${index}.kc_id` })),
    );
    const now = ctx.now.toISOString();
    const releaseId = randomUUID();
    const described = {
      title: document.title,
      creator: document.creator ?? null,
      subjectIds: subjectIdsOf(input.package),
      language: document.language ?? null,
      frameworkVersion: document.version ?? null,
      caseVersion: document.caseVersion ?? null,
      currentReleaseId: releaseId,
      currentChecksum: checksum,
      updatedAt: now,
    };
    const [framework] = await tx
      .insert(standardsFrameworks)
      .values({
        tenantId: ctx.tenantId,
        standardsFrameworkId: randomUUID(),
        frameworkIdentifier: known?.identifier ?? document.identifier,
        createdAt: now,
        ...described,
      })
      .onConflictDoUpdate({
        target: [standardsFrameworks.tenantId, standardsFrameworks.frameworkIdentifier],
        set: described,
      })
      .returning();
    const [release] = await tx
      .insert(standardsReleases)
      .values({
        tenantId: ctx.tenantId,
        releaseId,
        standardsFrameworkId: framework.standardsFrameworkId,
        checksumSha256: checksum,
        package: sql`${JSON.stringify((rawInput as { package: unknown }).package)}::jsonb`,
        itemCount: input.package.CFItems.length,
        associationCount: input.package.CFAssociations.length,
        mapCount: maps.length,
        importedBy: ctx.principal.subject,
        createdAt: now,
      })
      .returning();
    // The newest release's maps are the live ones: the previous release's maps retire with it.
    await tx
      .update(standardKcMaps)
      .set({ retiredAt: now, updatedAt: now })
      .where(
        tenantRows(
          standardKcMaps,
          ctx.tenantId,
          { standardsFrameworkId: framework.standardsFrameworkId },
          isNull(standardKcMaps.retiredAt),
        ),
      );
    const rows = maps.map((map) => ({
      tenantId: ctx.tenantId,
      mapId: randomUUID(),
      sourceReleaseId: releaseId,
      standardsFrameworkId: framework.standardsFrameworkId,
      standardId: map.standard_id,
      kcId: map.kc_id,
      relationship: map.relationship,
      createdAt: now,
      updatedAt: now,
    }));
    for (let start = 0; start < rows.length; start += INSERT_CHUNK)
      await tx.insert(standardKcMaps).values(rows.slice(start, start + INSERT_CHUNK));
    return { value: presentJob(release, framework), created: true };
  });
}

/** The same package again: its release, unless the maps sent are not the ones frozen with it. */
async function answerFrozenRelease(
  tx: Database,
  ctx: RequestContext,
  release: ReleaseRow,
  maps: ReadonlyArray<{ standard_id: string; kc_id: string; relationship: string }>,
): Promise<StandardsImportJob> {
  const stored = await tx
    .select({
      standardId: standardKcMaps.standardId,
      kcId: standardKcMaps.kcId,
      relationship: standardKcMaps.relationship,
    })
    .from(standardKcMaps)
    .where(tenantRows(standardKcMaps, ctx.tenantId, { sourceReleaseId: release.releaseId }));
  const key = (map: { standard_id: string; kc_id: string; relationship: string }) =>
    `${map.standard_id}|${map.kc_id}|${map.relationship}`;
  const frozen = new Set(
    stored.map((map) => key({ standard_id: map.standardId, kc_id: map.kcId, relationship: map.relationship })),
  );
  if (frozen.size !== maps.length || maps.some((map) => !frozen.has(key(map)))) {
    throw new DomainError(
      'curriculum:standards_release_frozen',
      `Release ${release.releaseId} of this package is frozen with other maps; change the maps with a new release.`,
      {
        extensions: { release_id: release.releaseId },
      },
    );
  }
  const [framework] = await tx
    .select()
    .from(standardsFrameworks)
    .where(tenantRows(standardsFrameworks, ctx.tenantId, { standardsFrameworkId: release.standardsFrameworkId }));
  return presentJob(release, framework);
}

export const listFrameworks = listRule({
  reads: 'list standards frameworks',
  query: ListFrameworksQuery,
  table: standardsFrameworks,
  id: 'standardsFrameworkId',
  sorts: { standards_framework_id: 'standardsFrameworkId', updated_at: 'updatedAt', title: 'title' },
  where: (query) => [
    query.frameworkId ? frameworkIdMatches(query.frameworkId) : undefined,
    query.subjectId ? sql`${standardsFrameworks.subjectIds} @> ${JSON.stringify([query.subjectId])}::jsonb` : undefined,
    updatedSince(standardsFrameworks.updatedAt, query.updated_since),
  ],
  present: presentFramework,
});

/** A CASE identifier (a CFDocument's, a CFItem's) that is a UUID is matched in any case, as the import matches it. */
function caseIdentifierIs(column: AnyPgColumn, identifier: string): SQL {
  return CASE_UUID_SHAPE.test(identifier)
    ? sql`lower(${column}) = ${identifier.toLowerCase()}`
    : eq(column, identifier);
}

const frameworkIdentifierIs = (identifier: string) =>
  caseIdentifierIs(standardsFrameworks.frameworkIdentifier, identifier);

function frameworkIdMatches(frameworkId: string): SQL | undefined {
  const byIdentifier = frameworkIdentifierIs(frameworkId);
  return isUuid(frameworkId)
    ? or(eq(standardsFrameworks.standardsFrameworkId, frameworkId), byIdentifier)
    : byIdentifier;
}

export async function getFramework(
  deps: CurriculumDeps,
  ctx: RequestContext,
  { frameworkId }: { frameworkId: string },
): Promise<StandardsFramework> {
  requireAccess(ctx.principal, ACCESS.read, 'read standards frameworks');
  const [row] = await deps.db
    .select()
    .from(standardsFrameworks)
    .where(tenantRows(standardsFrameworks, ctx.tenantId, {}, frameworkIdMatches(frameworkId)));
  if (!row) throw new DomainError('not_found', `No standards framework ${frameworkId} in this tenant.`);
  return presentFramework(row);
}

export const listStandardKcMaps = listRule({
  reads: 'read standard-KC maps',
  query: ListMapsQuery,
  table: standardKcMaps,
  id: 'mapId',
  where: (query) => [
    // a release's maps stay readable as it froze them; without one, only the live maps
    query.source_release_id
      ? eq(standardKcMaps.sourceReleaseId, query.source_release_id)
      : isNull(standardKcMaps.retiredAt),
    query.standard_id ? caseIdentifierIs(standardKcMaps.standardId, query.standard_id) : undefined,
    query.kc_id ? eq(standardKcMaps.kcId, query.kc_id) : undefined,
    query.relationship ? eq(standardKcMaps.relationship, query.relationship) : undefined,
    updatedSince(standardKcMaps.updatedAt, query.updated_since),
  ],
  present: presentMap,
});

/** Live maps of many KCs, for the KnowledgeComponent.standardMaps loader. */
export async function loadStandardMapsOf(
  deps: CurriculumDeps,
  ctx: RequestContext,
  { kcIds }: KcIdsInput,
): Promise<Map<string, StandardKcMap[]>> {
  requireAccess(ctx.principal, ACCESS.read, 'read standard-KC maps');
  const byKc = new Map<string, StandardKcMap[]>(kcIds.map((id) => [id, []]));
  const ids = [...new Set(kcIds)].filter(isUuid);
  if (ids.length === 0) return byKc;
  const rows = await deps.db
    .select()
    .from(standardKcMaps)
    .where(
      tenantRows(standardKcMaps, ctx.tenantId, {}, isNull(standardKcMaps.retiredAt), inArray(standardKcMaps.kcId, ids)),
    )
    .orderBy(standardKcMaps.mapId);
  for (const row of rows) byKc.get(row.kcId)?.push(presentMap(row));
  return byKc;
}
