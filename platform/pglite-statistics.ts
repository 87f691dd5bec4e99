import type { PGlite } from '@electric-sql/pglite';

/**
 * Planner statistics that follow the tables' growth on PGlite, which runs no autovacuum. With only the
 * start's statistics, a table that held 5 rows then and 30,000 later kept them, and the generic plan of
 * a read by key took an index led by the tenant over the primary key: every read walked the tenant's
 * whole index (0.2 to 2 ms a read after a long run of creates).
 *
 * A table is analyzed again once it has more than doubled in pages since its statistics were taken,
 * so a table growing from one page to a million is analyzed about twenty times in all. The sample is
 * small (statistics target 10: 3,000 rows, at most as many pages read) because ANALYZE runs inside
 * PGlite's synchronous WASM: about 20 ms at 300,000 rows, where the default sample took 70 and a whole
 * database's ANALYZE up to a second, all of it a stall of the event loop. One table per turn.
 */
export interface GrowthBounds {
  /** How often the tables' sizes are compared with their statistics. */
  checkEveryMs: number;
  /** Growth in pages since the last ANALYZE that calls for a new one. */
  factor: number;
  /** Pages below which a table is too small to matter. */
  minimumPages: number;
}

export const GROWTH: GrowthBounds = { checkEveryMs: 5_000, factor: 2, minimumPages: 4 };

const TABLE_PAGES = `
  select c.oid::regclass::text as name, c.relpages,
    (pg_relation_size(c.oid) / current_setting('block_size')::int)::int as pages
  from pg_class c join pg_namespace n on n.oid = c.relnamespace
  where c.relkind = 'r'
    and n.nspname not in ('pg_catalog', 'information_schema', 'pg_toast')
  order by c.oid`;

/**
 * Each table's pages when its statistics were last taken, per database. `relpages` says so only until a
 * VACUUM (`pglite-vacuum.ts`), which sets it to the table's size without new statistics: a table is remembered
 * from the first time this sees it (right after the whole database's ANALYZE at start, before any VACUUM).
 */
const pagesAtAnalyze = new WeakMap<PGlite, Map<string, number>>();

/** Analyzes, one table at a time, every table that has outgrown its statistics; returns their names. */
export async function analyzeGrownTables(client: PGlite, bounds: GrowthBounds = GROWTH): Promise<string[]> {
  const remembered = pagesAtAnalyze.get(client) ?? new Map<string, number>();
  pagesAtAnalyze.set(client, remembered);
  const { rows } = await client.query<{ name: string; relpages: number; pages: number }>(TABLE_PAGES);
  const grown: string[] = [];
  for (const { name, relpages, pages } of rows) {
    const analyzedAt = remembered.get(name) ?? relpages;
    remembered.set(name, analyzedAt);
    if (pages <= Math.max(analyzedAt, bounds.minimumPages) * bounds.factor) continue;
    await new Promise((resolve) => setImmediate(resolve));
    // The name is the catalog's own regclass text, quoted where it needs to be.
    await client.exec(`begin; set local default_statistics_target = 10; analyze ${name}; commit`);
    remembered.set(name, pages);
    grown.push(name);
  }
  return grown;
}
