import type { PGlite } from '@electric-sql/pglite';

/**
 * VACUUM on PGlite, which runs no autovacuum. Without it a table that is updated or deleted from keeps every
 * dead row version (its heap and indexes only grow, and reads walk the dead versions), no page is ever marked
 * all-visible, and transaction ids are never frozen: after about two billion write transactions the rows never
 * frozen would be lost to transaction-id wraparound (PostgreSQL refuses writes before that point; a single-user
 * backend, as PGlite's is, only warns).
 *
 * A table is vacuumed by autovacuum's own rules and settings (`autovacuum_vacuum_threshold` and
 * `_scale_factor` for dead rows, `autovacuum_vacuum_insert_threshold` and `_scale_factor` for inserted rows,
 * `autovacuum_freeze_max_age` for the age of its oldest unfrozen transaction id, catalogs included), with one
 * difference: VACUUM runs inside PGlite's synchronous WASM, a stall of the event loop that grows with the pages
 * it has to visit, so the insert rule is capped at `insertedRowsCap` rows: an append-only table is vacuumed
 * every 50,000 new rows (or every check, under heavier writes) instead of every fifth of its size, which at a
 * million rows would be a 100 ms stall. Measured under the bench's full POST /events load: one VACUUM of the
 * events table a check, 14 to 21 ms each for about 90,000 new rows. A table with many dead rows also has its
 * indexes walked, as on PostgreSQL. One table per turn of the event loop.
 */
export interface VacuumBounds {
  /** Rows inserted since a table's last VACUUM that call for one even when autovacuum's scale asks for more. */
  insertedRowsCap: number;
  /** The transaction-id age that calls for a VACUUM; PostgreSQL's `autovacuum_freeze_max_age` when not given. */
  freezeMaxAge?: number;
}

export const VACUUM: VacuumBounds = { insertedRowsCap: 50_000 };

const WORN_TABLES = `
  select c.oid::regclass::text as name
  from pg_class c
  join pg_namespace n on n.oid = c.relnamespace
  left join pg_stat_all_tables s on s.relid = c.oid
  where c.relkind in ('r', 'm') and c.relpersistence <> 't' and n.nspname <> 'information_schema'
    and (
      coalesce(s.n_dead_tup, 0) > current_setting('autovacuum_vacuum_threshold')::float8
        + current_setting('autovacuum_vacuum_scale_factor')::float8 * greatest(c.reltuples, 0)
      or coalesce(s.n_ins_since_vacuum, 0) > least($1::float8,
        current_setting('autovacuum_vacuum_insert_threshold')::float8
        + current_setting('autovacuum_vacuum_insert_scale_factor')::float8 * greatest(c.reltuples, 0))
      or age(c.relfrozenxid) > coalesce($2::float8, current_setting('autovacuum_freeze_max_age')::float8)
    )
  order by age(c.relfrozenxid) desc, c.oid`;

/** Vacuums, one table at a time, every table that autovacuum's rules (capped, see above) would; returns their names. */
export async function vacuumWornTables(client: PGlite, bounds: VacuumBounds = VACUUM): Promise<string[]> {
  const worn = await client.query<{ name: string }>(WORN_TABLES, [bounds.insertedRowsCap, bounds.freezeMaxAge ?? null]);
  const names = worn.rows.map((row) => row.name);
  for (const name of names) {
    await new Promise((resolve) => setImmediate(resolve));
    // The name is the catalog's own regclass text, quoted where it needs to be.
    await client.exec(`vacuum ${name}`);
  }
  return names;
}
