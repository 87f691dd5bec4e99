import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type { Logger } from 'drizzle-orm/logger';
import type { Sql } from 'postgres';
import type { PlatformConfig } from './config.ts';
import { lockDataDirectory } from './data-dir-lock.ts';
import { analyzeGrownTables } from './pglite-statistics.ts';
import { pgliteUpkeep, UPKEEP } from './pglite-upkeep.ts';
import { analyzeGrownPostgresTables, POSTGRES_GROWTH } from './postgres-statistics.ts';
import { keepUp } from './upkeep.ts';
import { preparePgliteStatements } from './pglite-statements.ts';
import { rememberFileSizes } from './pglite-file-sizes.ts';

/** One handle type for both drivers: domain code never knows which one it runs on. */
export type Database = PgDatabase<PgQueryResultHKT, Record<string, never>>;

/**
 * A statement built once per database handle (or transaction) and reused: on the hottest reads
 * drizzle's query building cost more than the lookup itself. Only the statement is kept, never a
 * result, so a write is seen by the very next read.
 */
export function prepareOncePerDatabase<T>(build: (db: Database) => T): (db: Database) => T {
  const built = new WeakMap<Database, T>();
  return (db) => {
    let statement = built.get(db);
    if (statement === undefined) {
      statement = build(db);
      built.set(db, statement);
    }
    return statement;
  };
}

const inEventLoop = new WeakSet<object>();

/** Whether `db`'s statements run inside this process's event loop (PGlite's WASM Postgres), not in a server's. */
export function runsInEventLoop(db: object): boolean {
  return inEventLoop.has(db);
}

export interface DatabaseHandle {
  db: Database;
  driver: 'pglite' | 'postgres' | 'none';
  /** Count of SQL statements sent, for query-count assertions and benchmarks. */
  stats: { queries: number };
  /** Pool figures for the operators' metrics. */
  pool: PoolFigures;
  migrate(service: string): Promise<void>;
  /**
   * Planner statistics once the platform's data is in place (on PGlite the whole database, on PostgreSQL
   * the tables grown past theirs), then kept fresh as tables grow.
   */
  analyze(): Promise<void>;
  /** Analyzes the tables that have outgrown their statistics, as `analyze` goes on doing every few seconds; their names. */
  analyzeGrownTables(): Promise<string[]>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface PoolFigures {
  /** Connections of the pool that runs transactions and writes. */
  max: number;
  /** Connections kept for reads outside a transaction; 0 when they share the pool above. */
  readMax: number;
  transactionsInFlight: number;
}

/** Each transaction holds one pool connection for its whole run, so counting them shows pool pressure. */
function countTransactions(db: Database, pool: PoolFigures): Database {
  const transaction = db.transaction.bind(db);
  db.transaction = (async (run, config) => {
    pool.transactionsInFlight += 1;
    try {
      return await transaction(run, config);
    } finally {
      pool.transactionsInFlight -= 1;
    }
  }) as Database['transaction'];
  return db;
}

const MIGRATIONS_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../drizzle');

class CountingLogger implements Logger {
  constructor(private readonly stats: { queries: number }) {}
  logQuery(): void {
    this.stats.queries += 1;
  }
}

/** The upkeep's failures are warnings: a round that failed is tried again at the next. */
const warn = (error: unknown) => process.emitWarning(error as Error);

async function openPglite(config: PlatformConfig, stats: { queries: number }): Promise<DatabaseHandle> {
  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  const pgDir = path.join(config.dataDir, 'pglite');
  const unlock = await lockDataDirectory(config.dataDir);
  let client: InstanceType<typeof PGlite>;
  try {
    client = await PGlite.create(pgDir);
  } catch (error) {
    await unlock();
    throw error;
  }
  preparePgliteStatements(client);
  rememberFileSizes(client);
  const pool = { max: 1, readMax: 0, transactionsInFlight: 0 };
  const driverDb = drizzle(client, { logger: new CountingLogger(stats) });
  const db = countTransactions(driverDb as unknown as Database, pool);
  inEventLoop.add(db);
  let upkeep: ReturnType<typeof keepUp> | undefined;
  return {
    db,
    driver: 'pglite',
    stats,
    pool,
    async migrate(service) {
      await migrate(driverDb, migrationOptions(service));
    },
    // PGlite runs no autovacuum, so without this no table there ever has planner statistics, and without
    // them the planner judged a tenant-led index as good as the primary key for a read by id: the
    // component read walked every component of the tenant (twice as slow at 5,000). The whole database
    // only at start: an ANALYZE runs inside PGlite's synchronous WASM and stalls the event loop (up to
    // 1 s when grown); afterwards one grown table at a time, on a small sample, beside the checkpoints
    // no background process takes there (`pglite-upkeep.ts`).
    async analyze() {
      await client.exec('analyze');
      upkeep ??= keepUp(pgliteUpkeep(client), warn, UPKEEP.checkEveryMs);
    },
    analyzeGrownTables: () => analyzeGrownTables(client),
    async ping() {
      await client.query('select 1');
    },
    async close() {
      await upkeep?.stop();
      await client.close();
      await unlock();
    },
  };
}

/**
 * A statement that only reads and takes no lock: outside a transaction it may run on the read pool.
 * Writes stay off it: a write waiting on a row lock would hold up every read pipelined behind it.
 */
function isPlainRead(query: string): boolean {
  return /^\s*select\s/i.test(query) && !LOCKING_READ.test(query);
}
const LOCKING_READ = /\sfor\s+(?:update|share|no\s+key\s+update|key\s+share)\b|pg_advisory/i;

/**
 * postgres.js pipelines statements only on busy connections: with a pool as large as the writes
 * need, 16 concurrent reads each took a connection of their own (a socket write and a backend
 * wake-up per statement). Reads outside a transaction therefore go to a small pool of their own,
 * where they queue on busy connections and leave in one write; transactions (and with them every
 * read inside one, advisory locks, commands) keep the write pool, so a read never waits for a write.
 */
function routeReads(writes: Sql, reads: Sql): Sql {
  const routed = Object.create(writes) as Sql;
  routed.unsafe = (query, parameters, options) =>
    (isPlainRead(query) ? reads : writes).unsafe(query, parameters, options);
  return routed;
}

/**
 * What postgres.js needs to reach the server a connection URL names. libpq's `host` and `port` parameters
 * (`postgres://user:secret@/db?host=/run/postgresql`, a Unix socket's directory, the form Cloud SQL and
 * psql document) become options: postgres.js refuses a URL without a host, and would send `host` to the
 * server as a setting while connecting to localhost. Any other URL is handed over as it is.
 */
export function postgresTarget(url: string): { url: string; host?: string; port?: number } {
  const withHost = url.replace(/^(postgres(?:ql)?:\/\/(?:[^@/?#]*@)?)(?=[/?#]|$)/, '$1localhost');
  let parsed: URL;
  try {
    parsed = new URL(withHost);
  } catch {
    return { url };
  }
  const host = parsed.searchParams.get('host');
  if (!host) return { url };
  const port = parsed.searchParams.get('port') ?? parsed.port;
  parsed.searchParams.delete('host');
  parsed.searchParams.delete('port');
  parsed.port = '';
  return { url: parsed.toString(), host, ...(port ? { port: Number(port) } : {}) };
}

async function openPostgres(config: PlatformConfig, url: string, stats: { queries: number }): Promise<DatabaseHandle> {
  const { default: postgres } = await import('postgres');
  const { drizzle } = await import('drizzle-orm/postgres-js');
  const { migrate } = await import('drizzle-orm/postgres-js/migrator');
  const pool = { max: config.databasePoolMax, readMax: config.databaseReadPoolMax, transactionsInFlight: 0 };
  const { url: driverUrl, ...target } = postgresTarget(url);
  const connect = (max: number) => postgres(driverUrl, { ...target, max, onnotice: () => {} });
  const client = connect(pool.max);
  const readClient = pool.readMax > 0 ? connect(pool.readMax) : undefined;
  // drizzle sets its type parsers on the client it is given: the read pool needs the same ones.
  if (readClient) drizzle(readClient);
  const driverDb = drizzle(readClient ? routeReads(client, readClient) : client, {
    logger: new CountingLogger(stats),
  });
  const db = countTransactions(driverDb as unknown as Database, pool);
  let upkeep: ReturnType<typeof keepUp> | undefined;
  return {
    db,
    driver: 'postgres',
    stats,
    pool,
    async migrate(service) {
      // Services started together must not race on creating the same schema: whoever holds the
      // session lock migrates, the others wait for it and then find nothing left to do.
      const lockId = 0x5e7c1ce;
      const reserved = await client.reserve();
      try {
        await reserved`select pg_advisory_lock(${lockId})`;
        await migrate(driverDb, migrationOptions(service));
      } finally {
        await reserved`select pg_advisory_unlock(${lockId})`;
        reserved.release();
      }
    },
    // Autovacuum comes by once a minute, and generic plans keep the statistics they were made with until an
    // ANALYZE: a table that grows faster is analyzed again as it grows (`postgres-statistics.ts`).
    async analyze() {
      await analyzeGrownPostgresTables(client);
      upkeep ??= keepUp(() => analyzeGrownPostgresTables(client), warn, POSTGRES_GROWTH.checkEveryMs);
    },
    analyzeGrownTables: () => analyzeGrownPostgresTables(client),
    async ping() {
      await client`select 1`;
    },
    async close() {
      await upkeep?.stop();
      await Promise.all([client.end({ timeout: 5 }), readClient?.end({ timeout: 5 })]);
    },
  };
}

function migrationOptions(service: string) {
  return {
    migrationsFolder: path.join(MIGRATIONS_ROOT, service),
    // Bookkeeping lives apart from the service schema, which the first migration creates.
    migrationsSchema: 'drizzle',
    migrationsTable: `${service}_migrations`,
  };
}

export async function openDatabase(config: PlatformConfig): Promise<DatabaseHandle> {
  const stats = { queries: 0 };
  return config.databaseUrl ? openPostgres(config, config.databaseUrl, stats) : openPglite(config, stats);
}

/** A process that hosts no service (a gateway alone) keeps no database. */
export function noDatabase(): DatabaseHandle {
  return {
    db: new Proxy({} as Database, {
      get() {
        throw new Error('this process hosts no service and has no database');
      },
    }),
    driver: 'none',
    stats: { queries: 0 },
    pool: { max: 0, readMax: 0, transactionsInFlight: 0 },
    async migrate() {},
    async analyze() {},
    async analyzeGrownTables() {
      return [];
    },
    async ping() {},
    async close() {},
  };
}

/** Rows of a raw `execute`, whichever driver answered (postgres.js: an array; PGlite: `{ rows }`). */
export function rowsOf<T>(result: unknown): T[] {
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
}

/** Serializes concurrent commands on one logical key for the rest of the transaction. */
export async function lockKey(tx: Database, key: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`);
}
