import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import { QueryBuilder, type PgColumn, type PgTable } from 'drizzle-orm/pg-core';
import { lockKey, type Database } from '../../platform/db.ts';
import { DomainError } from '../../platform/errors.ts';
import { tenantRows, type ColumnMatch } from '../../platform/tenant-rows.ts';
import { isUuid } from '../../platform/validation.ts';
import type { Page } from '../../platform/cursor.ts';
import { contentReferences, items, trustEvidence, versions } from './tables.ts';
import type { TrustStatus } from './vocabulary.ts';

/**
 * Finders several content features share: an item or exact version by key and the trust of exact
 * versions, always within one tenant. A malformed id matches nothing (it is the same 404 as an
 * unknown one).
 */

export type ItemRow = typeof items.$inferSelect;
export type VersionRow = typeof versions.$inferSelect;

/** Join condition: the item a version belongs to. */
export const itemOfVersion = and(eq(items.tenantId, versions.tenantId), eq(items.contentId, versions.contentId));

/** Join condition: the item a reference points at. */
export const referencedItem = and(
  eq(items.tenantId, contentReferences.tenantId),
  eq(items.contentId, contentReferences.referencedContentId),
);

/** A list short enough to answer whole: one page, no cursor. */
export function wholeList<T>(data: T[]): Page<T> {
  return { data, next_cursor: null };
}

export function itemNotFound(contentId: string): DomainError {
  return new DomainError('not_found', `No content item ${contentId} in this tenant.`);
}

export function versionNotFound(contentId: string, versionId: string): DomainError {
  return new DomainError('not_found', `No version ${versionId} of content item ${contentId} in this tenant.`);
}

export async function findItemRow(db: Database, tenantId: string, contentId: string): Promise<ItemRow | undefined> {
  return (await findItemRows(db, tenantId, [contentId]))[0];
}

/** The item a path names, or the tenant's 404; `lock` takes its row lock inside a transaction. */
export async function requireItemRow(
  db: Database,
  tenantId: string,
  contentId: string,
  options: { lock?: boolean } = {},
): Promise<ItemRow> {
  if (!isUuid(contentId)) throw itemNotFound(contentId);
  const query = db
    .select()
    .from(items)
    .where(tenantRows(items, tenantId, { contentId }));
  const [row] = options.lock ? await query.for('update') : await query;
  if (!row) throw itemNotFound(contentId);
  return row;
}

/** A table holding at most one record an item has (its composition, its external link). */
type ItemRecordTable = PgTable & { tenantId: PgColumn; contentId: PgColumn };

/** The one record of an existing item in `table`, or a 404 naming the missing `record`. */
export async function requireItemRecord<T extends ItemRecordTable>(
  db: Database,
  tenantId: string,
  table: T,
  contentId: string,
  record: string,
): Promise<T['$inferSelect']> {
  await requireItemRow(db, tenantId, contentId);
  const [row] = await db
    .select()
    .from(table as PgTable)
    .where(tenantRows(table, tenantId, { contentId } as unknown as ColumnMatch<T>));
  if (!row) throw new DomainError('not_found', `Content item ${contentId} has no ${record}.`);
  return row as T['$inferSelect'];
}

export async function findItemRows(db: Database, tenantId: string, contentIds: readonly string[]): Promise<ItemRow[]> {
  const valid = [...new Set(contentIds)].filter(isUuid);
  if (valid.length === 0) return [];
  return db
    .select()
    .from(items)
    .where(tenantRows(items, tenantId, {}, inArray(items.contentId, valid)));
}

/**
 * A batched read of many items' rows (GraphQL): `load` runs one statement for the well-formed ids and
 * its rows come back grouped by item, every asked item present (empty when it has none).
 */
export async function rowsByItem<Row, T>(
  contentIds: readonly string[],
  load: (validIds: string[]) => Promise<Row[]>,
  itemOf: (row: Row) => string,
  present: (row: Row) => T,
): Promise<Map<string, T[]>> {
  const valid = [...new Set(contentIds)].filter(isUuid);
  const found = new Map<string, T[]>(valid.map((id) => [id, []]));
  if (valid.length === 0) return found;
  for (const row of await load(valid)) found.get(itemOf(row))?.push(present(row));
  return found;
}

export async function findVersionRows(
  db: Database,
  tenantId: string,
  versionIds: readonly string[],
): Promise<VersionRow[]> {
  const valid = versionIds.filter(isUuid);
  if (valid.length === 0) return [];
  return db
    .select()
    .from(versions)
    .where(tenantRows(versions, tenantId, {}, inArray(versions.versionId, valid)));
}

/** The exact version a read is about: the one named, which must belong to the item, or the newest. */
export async function resolveVersion(db: Database, tenantId: string, contentId: string, versionId: string | undefined) {
  const item = await findItemRow(db, tenantId, contentId);
  if (!item || !item.latestVersionId) throw itemNotFound(contentId);
  const wanted = versionId ?? item.latestVersionId;
  const [version] = await db
    .select()
    .from(versions)
    .where(tenantRows(versions, tenantId, { contentId, versionId: wanted }));
  if (!version) throw versionNotFound(contentId, wanted);
  return { item: { kind: item.contentKind, title: item.title, latestVersionId: item.latestVersionId }, version };
}

// A query builder, not raw SQL: drizzle strips the table from columns written in a single-table selection,
// which would correlate the subquery with itself instead of with the enclosing version row.
const newestEvidence = new QueryBuilder()
  .select({ trustStatus: trustEvidence.trustStatus })
  .from(trustEvidence)
  .where(and(eq(trustEvidence.tenantId, versions.tenantId), eq(trustEvidence.versionId, versions.versionId)))
  .orderBy(desc(trustEvidence.evidenceSeq))
  .limit(1);

/**
 * The trust of the `versions` row of the enclosing query: its newest evidence (evidence is
 * append-only), unknown when there is none. Every read of a version's trust selects this.
 */
export const versionTrust = sql<TrustStatus>`coalesce((${newestEvidence}), 'unknown')`;

/** The trust of one exact version of the tenant; unknown when it has no evidence. */
export async function currentTrust(db: Database, tenantId: string, versionId: string): Promise<TrustStatus> {
  const [version] = await db
    .select({ trustStatus: versionTrust })
    .from(versions)
    .where(tenantRows(versions, tenantId, { versionId }));
  return version?.trustStatus ?? 'unknown';
}

/** Holds the trust of one exact version for the rest of the transaction. */
export async function lockTrust(tx: Database, tenantId: string, versionId: string): Promise<void> {
  await lockKey(tx, `trust|${tenantId}|${versionId}`);
}
