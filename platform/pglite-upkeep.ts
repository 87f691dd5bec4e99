import type { PGlite } from '@electric-sql/pglite';
import { analyzeGrownTables, GROWTH, type GrowthBounds } from './pglite-statistics.ts';
import { vacuumWornTables, VACUUM, type VacuumBounds } from './pglite-vacuum.ts';

/**
 * PGlite runs Postgres as a single-user backend: no autovacuum and no checkpointer. Without a checkpoint
 * no write-ahead log is ever recycled, so a platform that kept writing grew its `pg_wal` without end (1.6 GB
 * past `max_wal_size`, measured) and a restart after a crash replayed every segment since the start
 * (1.7 s for 650 MB). The upkeep does these jobs on a timer: statistics that follow the tables' growth
 * (`pglite-statistics.ts`), autovacuum's VACUUM (`pglite-vacuum.ts`) and a checkpoint once enough log has
 * been written since the last one.
 *
 * A checkpoint writes the dirty shared buffers inside PGlite's synchronous WASM, a stall of the event loop
 * that grows with the log behind it (about 20 ms for 40 MB, 60 ms for 160 MB, fsync being off): checking
 * every few seconds keeps each one under about 70 ms even under the heaviest writes (40 MB of log a second),
 * and the log on disk near `min_wal_size` plus what one interval writes.
 */
export interface UpkeepBounds extends GrowthBounds, VacuumBounds {
  /** Write-ahead log, in bytes, written since the last checkpoint's redo point that calls for a new one. */
  checkpointAfterWalBytes: number;
}

export const UPKEEP: UpkeepBounds = { ...GROWTH, ...VACUUM, checkpointAfterWalBytes: 64 * 1024 * 1024 };

const WAL_SINCE_CHECKPOINT = `
  select pg_wal_lsn_diff(pg_current_wal_lsn(), redo_lsn)::float8 as bytes from pg_control_checkpoint()`;

/** Checkpoints once the log written since the last checkpoint reaches the bound; whether it did. */
export async function checkpointAfterWal(client: PGlite, walBytes: number): Promise<boolean> {
  const { rows } = await client.query<{ bytes: number }>(WAL_SINCE_CHECKPOINT);
  if ((rows[0]?.bytes ?? 0) < walBytes) return false;
  await client.exec('checkpoint');
  return true;
}

/** One round of the upkeep, for `keepUp` (`upkeep.ts`) every `bounds.checkEveryMs`. */
export function pgliteUpkeep(client: PGlite, bounds: UpkeepBounds = UPKEEP): () => Promise<void> {
  return async () => {
    await analyzeGrownTables(client, bounds);
    await vacuumWornTables(client, bounds);
    await checkpointAfterWal(client, bounds.checkpointAfterWalBytes);
  };
}
