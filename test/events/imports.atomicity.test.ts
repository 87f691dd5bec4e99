import { describe, expect } from 'vitest';
import type { Database } from '../../platform/db.ts';
import { contextFor } from '../../platform/context.ts';
import { eventsDeps } from '../../subgraphs/events/deps.ts';
import { runSourceImport } from '../../subgraphs/events/imports/imports.service.ts';
import { http, newTenant } from '../kit.ts';
import { platformTest } from '../platform-test.ts';
import { root } from './helpers.ts';

const it = platformTest();

/** The database, except that the transaction's n-th write (insert or SQL statement) fails: a crash in the middle of a write. */
function failingOnWrite(db: Database, failAt: number): Database {
  return new Proxy(db, {
    get(target, property, receiver) {
      if (property !== 'transaction') return Reflect.get(target, property, receiver);
      return (work: (tx: Database) => Promise<unknown>) =>
        target.transaction((tx) => {
          let writes = 0;
          const faulty = new Proxy(tx, {
            get(inner, name, innerReceiver) {
              const value = Reflect.get(inner, name, innerReceiver);
              if (name !== 'insert' && name !== 'execute')
                return typeof value === 'function' ? value.bind(inner) : value;
              return (...args: unknown[]) => {
                writes += 1;
                if (writes === failAt) throw new Error('injected failure');
                return (value as (...a: unknown[]) => unknown).apply(inner, args);
              };
            },
          });
          return work(faulty as Database);
        });
    },
  });
}

describe('source import atomicity', () => {
  it('leaves nothing behind when the write fails after 1000 rows were inserted', async ({ platform }) => {
    const caller = await newTenant(platform, { scopes: ['events:read', 'events:write'] });
    const deps = eventsDeps(platform.runtime);
    const ctx = contextFor(await platform.runtime.auth.authenticate(`Bearer ${caller.token}`), {
      requestId: 'r',
      traceId: 't',
    });
    const records = Array.from({ length: 1000 }, (_, index) => ({
      id: `v-${index}`,
      user_id: `s-${index % 9}`,
      date: '2026-09-01',
      activity_id: `a-${index % 4}`,
    }));
    const body = { sourceSystem: 'vendor_production', adapter: 'vendor_learning_event_v1', records };
    // Write 1 registers the source-system activity source, 2 stores the 1000 events, 3 records the import.
    await expect(
      runSourceImport({ ...deps, db: failingOnWrite(deps.db, 3) }, ctx, { body, idempotencyKey: undefined }),
    ).rejects.toThrow('injected failure');
    expect((await http(platform, 'GET', `${root}/events`, { token: caller.token })).body.data).toEqual([]);
    expect((await http(platform, 'GET', `${root}/activity-sources`, { token: caller.token })).body.data).toEqual([]);
    const retried = await runSourceImport(deps, ctx, { body, idempotencyKey: undefined });
    expect([retried.value.acceptedCount, retried.value.materializedCount]).toEqual([1000, 1000]);
  });
});
