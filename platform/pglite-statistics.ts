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

const GROWN_TABLES = `
  select c.oid::regclass::text as name
  from pg_class c join pg_namespace n on n.oid = c.relnamespace
  where c.relkind = 'r'
    and n.nspname not in ('pg_catalog', 'information_schema', 'pg_toast')
    and pg_relation_size(c.oid) / current_setting('block_size')::int > greatest(c.relpages, $2::int) * $1::float8
  order by c.oid`;

/** Analyzes, one table at a time, every table that has outgrown its statistics; returns their names. */
export async function analyzeGrownTables(client: PGlite, bounds: GrowthBounds = GROWTH): Promise<string[]> {
  const grown = await client.query<{ name: string }>(GROWN_TABLES, [bounds.factor, bounds.minimumPages]);
  const names = grown.rows.map((row) => row.name);
  for (const name of names) {
    await new Promise((resolve) => setImmediate(resolve));
    // The name is the catalog's own regclass text, quoted where it needs to be.
    await client.exec(`begin; set local default_statistics_target = 10; analyze ${name}; commit`);
  }
  return names;
}
