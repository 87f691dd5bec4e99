import type { Sql } from 'postgres';

/**
 * Statistics that follow growth on PostgreSQL, between autovacuum's visits. Autovacuum analyzes a table
 * once a tenth of it has changed, but visits each database only once a minute (`autovacuum_naptime`), and a
 * new one first a minute or more after it is made. A prepared statement's generic plan is made once, from
 * the statistics of that moment, and kept until an ANALYZE: in a fresh database the pinned create's prior-row
 * read was planned before `curriculum.components` had any, on an index led by the tenant alone, and walked
 * the tenant's rows as they grew (backend CPU per create 302 -> 777 us over three 4 s rounds). Statistics
 * taken once at start, from the demo tenant's 5 rows, only made it a sequential scan.
 *
 * The check reads the statistics collector's counters (no lock on any table), and the ANALYZE skips a table
 * someone holds locked, so the follower never waits behind another session.
 */
export interface PostgresGrowthBounds {
  checkEveryMs: number;
  /** Growth in rows since the last ANALYZE that calls for a new one. */
  factor: number;
  /** Rows changed below which a table is too small to matter (it keeps the planner's guess for new tables). */
  minimumRows: number;
}

export const POSTGRES_GROWTH: PostgresGrowthBounds = { checkEveryMs: 5_000, factor: 2, minimumRows: 500 };

const GROWN_TABLES = `
  select format('%I.%I', s.schemaname, s.relname) as name
  from pg_stat_user_tables s join pg_class c on c.oid = s.relid
  where s.n_mod_since_analyze > greatest(c.reltuples, $2::float8) * ($1::float8 - 1)
  order by s.relid`;

/** Analyzes every table grown past its statistics (in rows changed since); their names. */
export async function analyzeGrownPostgresTables(
  sql: Sql,
  bounds: PostgresGrowthBounds = POSTGRES_GROWTH,
): Promise<string[]> {
  const grown = await sql.unsafe<{ name: string }[]>(GROWN_TABLES, [bounds.factor, bounds.minimumRows]);
  // The name is `format('%I')`'s, quoted where it needs to be.
  for (const { name } of grown) await sql.unsafe(`analyze (skip_locked) ${name}`);
  return grown.map((row) => row.name);
}
