import { and, eq, sql } from 'drizzle-orm';
import { prepareOncePerDatabase, type Database } from '../../platform/db.ts';
import { isUuid } from '../../platform/validation.ts';
import { activitySources } from './tables.ts';

/** Finders several events features share, always within one tenant. */

export type SourceRow = typeof activitySources.$inferSelect;

/** Prepared once: every page of events reads the sources of its rows, and building the read cost more than it. */
const sourcesById = prepareOncePerDatabase((db) =>
  db
    .select()
    .from(activitySources)
    .where(
      and(
        eq(activitySources.tenantId, sql.placeholder('tenantId')),
        sql`${activitySources.sourceId} = any(${sql.placeholder('sourceIds')}::uuid[])`,
      ),
    )
    .prepare('events_sources_by_id'),
);

/** The tenant's activity sources among `ids`; a malformed id matches nothing. */
export async function findSourceRows(db: Database, tenantId: string, ids: readonly string[]): Promise<SourceRow[]> {
  const valid = [...new Set(ids)].filter(isUuid);
  if (valid.length === 0) return [];
  return sourcesById(db).execute({ tenantId, sourceIds: valid });
}
