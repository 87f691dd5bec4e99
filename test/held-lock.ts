import postgres from 'postgres';
import { loadConfig } from '../platform/config.ts';

export interface HeldLock {
  /** Answers once a statement of another connection waits on the held lock. */
  waitedOn(): Promise<void>;
  /** Ends the holding transaction (rolled back) and its connection. */
  release(): Promise<void>;
}

/**
 * Runs `take` in a transaction of its own connection to DATABASE_URL (outside the platform's statement
 * count) and keeps the transaction open, with whatever `take` locked, until released; only PostgreSQL
 * can hold a lock against the platform's statements.
 */
export async function holdLock(take: (tx: postgres.TransactionSql) => Promise<unknown>): Promise<HeldLock> {
  const url = loadConfig(process.env).databaseUrl;
  if (!url) throw new Error('holdLock needs DATABASE_URL');
  const connection = postgres(url, { max: 2, onnotice: () => {} });
  let holder!: number;
  let held!: () => void;
  let release!: () => void;
  const lockTaken = new Promise<void>((resolve) => (held = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  const holding = connection
    .begin(async (tx) => {
      await take(tx);
      [{ pid: holder }] = await tx`select pg_backend_pid() as pid`;
      held();
      await released;
      throw new Error('rolled back');
    })
    .catch(() => {});
  await lockTaken;
  return {
    async waitedOn() {
      for (let attempt = 0; attempt < 500; attempt += 1) {
        const [row] =
          await connection`select count(*)::int as waiting from pg_stat_activity where ${holder} = any(pg_blocking_pids(pid))`;
        if (row.waiting > 0) return;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      throw new Error('no statement waited on the held lock');
    },
    async release() {
      release();
      await holding;
      await connection.end();
    },
  };
}
