import { inArray } from 'drizzle-orm';
import type { Database } from '../../platform/db.ts';
import { tenantRows } from '../../platform/tenant-rows.ts';
import { isUuid } from '../../platform/validation.ts';
import { activitySources } from './tables.ts';

/** Finders several events features share, always within one tenant. */

export type SourceRow = typeof activitySources.$inferSelect;

/** The tenant's activity sources among `ids`; a malformed id matches nothing. */
export async function findSourceRows(db: Database, tenantId: string, ids: readonly string[]): Promise<SourceRow[]> {
  const valid = [...new Set(ids)].filter(isUuid);
  if (valid.length === 0) return [];
  return db
    .select()
    .from(activitySources)
    .where(tenantRows(activitySources, tenantId, {}, inArray(activitySources.sourceId, valid)));
}
