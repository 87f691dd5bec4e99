import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { openDatabase, rowsOf, type Database } from '../../platform/db.ts';
import { loadConfig } from '../../platform/config.ts';

const url = process.env.DATABASE_URL;

async function backendOf(db: Database): Promise<number> {
  return rowsOf<{ pid: number }>(await db.execute(sql`select pg_backend_pid() as pid`))[0].pid;
}

describe('the read pool (PostgreSQL)', () => {
  it('reads its configuration: two read connections by default, 0 to share the write pool, no empty write pool', () => {
    expect(loadConfig({}).databaseReadPoolMax).toBe(2);
    expect(loadConfig({}).databasePoolMax).toBe(10);
    expect(loadConfig({ DATABASE_READ_POOL_MAX: '0', DATABASE_POOL_MAX: '3' })).toMatchObject({
      databaseReadPoolMax: 0,
      databasePoolMax: 3,
    });
    expect(() => loadConfig({ DATABASE_POOL_MAX: '0' })).toThrow(/DATABASE_POOL_MAX must be at least 1/);
    expect(() => loadConfig({ DATABASE_READ_POOL_MAX: 'many' })).toThrow(/DATABASE_READ_POOL_MAX/);
  });

  it.skipIf(!url)(
    'serves a read while every write connection is held by an open transaction; reads inside a transaction stay in it',
    async () => {
      const database = await openDatabase({ ...loadConfig({ DATABASE_URL: url }), databasePoolMax: 2 });
      const { db } = database;
      let release = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      try {
        const transactionBackends: number[] = [];
        const holding = [1, 2].map(() =>
          db.transaction(async (tx) => {
            await tx.execute(sql`select set_config('read_pool.marker', 'inside', true)`);
            // A read inside the transaction runs on the transaction's connection and sees its state.
            const [row] = rowsOf<{ marker: string; pid: number }>(
              await tx.execute(
                sql`select current_setting('read_pool.marker', true) as marker, pg_backend_pid() as pid`,
              ),
            );
            expect(row.marker).toBe('inside');
            transactionBackends.push(row.pid);
            await held;
          }),
        );
        await expect.poll(() => transactionBackends.length).toBe(2);
        expect(database.pool.transactionsInFlight).toBe(2);

        // Both write connections are taken: the read is answered by the read pool all the same.
        const reads = await Promise.all(Array.from({ length: 8 }, () => backendOf(db)));
        expect(reads.filter((pid) => transactionBackends.includes(pid))).toEqual([]);
        expect(new Set(reads).size).toBeLessThanOrEqual(2);

        // A locking statement outside a transaction stays on the write pool, like every write: it waits there.
        let written = false;
        const write = db.execute(sql`select 1 as one for update`).then(() => (written = true));
        await new Promise((resolve) => setTimeout(resolve, 100));
        expect(written).toBe(false);
        release();
        await Promise.all(holding);
        await write;
      } finally {
        release();
        await database.close();
      }
    },
  );
});
