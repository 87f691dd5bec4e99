import { and, eq, inArray } from 'drizzle-orm';
import type { Database } from '../../platform/db.ts';
import { DomainError } from '../../platform/errors.ts';
import { isUuid } from '../../platform/validation.ts';
import { items, versions } from './tables.ts';

/**
 * Finders several content features share: an item or exact version by key, always within one
 * tenant. A malformed id matches nothing (it is the same 404 as an unknown one).
 */

export type ItemRow = typeof items.$inferSelect;
export type VersionRow = typeof versions.$inferSelect;

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
    .where(and(eq(items.tenantId, tenantId), eq(items.contentId, contentId)));
  const [row] = options.lock ? await query.for('update') : await query;
  if (!row) throw itemNotFound(contentId);
  return row;
}

export async function findItemRows(db: Database, tenantId: string, contentIds: readonly string[]): Promise<ItemRow[]> {
  const valid = [...new Set(contentIds)].filter(isUuid);
  if (valid.length === 0) return [];
  return db
    .select()
    .from(items)
    .where(and(eq(items.tenantId, tenantId), inArray(items.contentId, valid)));
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
    .where(and(eq(versions.tenantId, tenantId), inArray(versions.versionId, valid)));
}

/** The exact version a read is about: the one named, which must belong to the item, or the newest. */
export async function resolveVersion(db: Database, tenantId: string, contentId: string, versionId: string | undefined) {
  const item = await findItemRow(db, tenantId, contentId);
  if (!item || !item.latestVersionId) throw itemNotFound(contentId);
  const wanted = versionId ?? item.latestVersionId;
  const [version] = await db
    .select()
    .from(versions)
    .where(and(eq(versions.tenantId, tenantId), eq(versions.contentId, contentId), eq(versions.versionId, wanted)));
  if (!version) throw versionNotFound(contentId, wanted);
  return { item: { kind: item.contentKind, title: item.title, latestVersionId: item.latestVersionId }, version };
}
