import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
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

interface DriverQueue<T> {
  readonly length: number;
  push(entry: T): T;
  shift(): T | undefined;
  remove(entry: T): T | null;
}

/** postgres.js's connection queue (open, busy, full...), as patched by patches/postgres+3.4.9.patch. */
async function driverQueue<T>(): Promise<DriverQueue<T>> {
  const file = new URL('../../node_modules/postgres/src/queue.js', import.meta.url).href;
  const { default: Queue } = (await import(file)) as { default: () => DriverQueue<T> };
  return Queue();
}

describe("the driver's connection queue", () => {
  it('answers as a first-in first-out list with removal, whatever the operations', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.oneof(fc.constant('push'), fc.constant('shift'), fc.nat({ max: 8 })), { maxLength: 3000 }),
        async (operations) => {
          const queue = await driverQueue<{ entry: number }>();
          const expected: Array<{ entry: number }> = [];
          for (const [entry, operation] of operations.entries()) {
            if (operation === 'push') {
              const pushed = { entry };
              expected.push(pushed);
              expect(queue.push(pushed)).toBe(pushed);
            } else if (operation === 'shift') {
              if (expected.length > 0) expect(queue.shift()).toBe(expected.shift());
            } else {
              const removed = expected[operation] ?? { entry: -1 };
              const at = expected.indexOf(removed);
              if (at !== -1) expected.splice(at, 1);
              expect(queue.remove(removed)).toBe(at === -1 ? null : removed);
            }
            expect(queue.length).toBe(expected.length);
          }
        },
      ),
    );
  });

  it('keeps its array near its live entries when connections cycle through it under load', async () => {
    // What the pool does for every statement while all its connections are busy: take the first busy
    // connection, move it (remove from its queue: no longer there) and push it back.
    const queue = await driverQueue<string>();
    queue.push('first');
    queue.push('second');
    let widestScan = 0;
    let stillQueued = 0;
    const indexOf = Array.prototype.indexOf;
    // A spy of Array.prototype.indexOf: how many entries each removal looks at.
    Array.prototype.indexOf = function (this: unknown[], entry: unknown, from?: number) {
      widestScan = Math.max(widestScan, this.length - (from ?? 0));
      return indexOf.call(this, entry, from);
    };
    try {
      for (let statement = 0; statement < 20_000; statement += 1) {
        const connection = queue.shift() as string;
        if (queue.remove(connection) !== null) stillQueued += 1;
        queue.push(connection);
      }
    } finally {
      Array.prototype.indexOf = indexOf;
    }
    expect(stillQueued).toBe(0);
    expect(widestScan).toBeLessThanOrEqual(2);
    expect(queue.length).toBe(2);
  });
});
