import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { IDEMPOTENCY_RETENTION_DAYS, sweepIdempotencyRecords } from '../../platform/idempotency.ts';
import { curriculumIdempotency } from '../../subgraphs/curriculum/tables.ts';
import { curriculumV1, http, newTenant, type Caller } from '../kit.ts';
import { filePlatform, platformTest } from '../platform-test.ts';
import { kcBody, rowsOf } from '../curriculum/helpers.ts';

const it = platformTest();

const createKc = (caller: Caller, idempotencyKey: string, body = kcBody()) =>
  http(filePlatform(), 'POST', `${curriculumV1}/kcs`, {
    token: caller.token,
    headers: { 'idempotency-key': idempotencyKey },
    body,
  });

/** Moves a tenant's records back in time, as if they had been written that many days ago. */
async function age(tenantId: string, days: number): Promise<void> {
  await filePlatform().runtime.database.db.execute(
    sql`update curriculum.idempotency_records set created_at = now() - make_interval(days => ${days}) where tenant_id = ${tenantId}`,
  );
}

async function recordCount(tenantId: string): Promise<number> {
  const result = await filePlatform().runtime.database.db.execute(
    sql`select count(*)::int as n from curriculum.idempotency_records where tenant_id = ${tenantId}`,
  );
  return Number(rowsOf<{ n: number }>(result)[0].n);
}

describe(`Idempotency-Key retention (${IDEMPOTENCY_RETENTION_DAYS} days)`, () => {
  it('replays within the window and refuses a changed request there', async ({ platform }) => {
    const caller = await newTenant(platform);
    const key = randomUUID();
    const first = await createKc(caller, key);
    await age(caller.tenantId, IDEMPOTENCY_RETENTION_DAYS - 1);
    const replay = await createKc(caller, key, { ...kcBody(), definition: first.body.definition });
    expect([replay.status, replay.headers.get('idempotency-replayed'), replay.body.kc_id]).toEqual([
      200,
      'true',
      first.body.kc_id,
    ]);
    expect((await createKc(caller, key)).body.code).toBe('curriculum:idempotency_conflict');
  });

  it('frees a key past the window: the request runs as new and its answer replaces the old record', async ({
    platform,
  }) => {
    const caller = await newTenant(platform);
    const key = randomUUID();
    const first = await createKc(caller, key);
    await age(caller.tenantId, IDEMPOTENCY_RETENTION_DAYS + 1);
    const second = await createKc(caller, key);
    expect(second.status).toBe(201);
    expect(second.body.kc_id).not.toBe(first.body.kc_id);
    const replay = await createKc(caller, key, { ...kcBody(), definition: second.body.definition });
    expect([replay.status, replay.body.kc_id]).toEqual([200, second.body.kc_id]);
    expect(await recordCount(caller.tenantId)).toBe(1);
  });

  it('the sweep deletes the records past the window and keeps the rest', async ({ platform }) => {
    const old = await newTenant(platform);
    const recent = await newTenant(platform);
    await createKc(old, randomUUID());
    await createKc(recent, randomUUID());
    await age(old.tenantId, IDEMPOTENCY_RETENTION_DAYS + 1);
    expect(await sweepIdempotencyRecords(platform.runtime.database.db, curriculumIdempotency)).toBeGreaterThanOrEqual(
      1,
    );
    expect([await recordCount(old.tenantId), await recordCount(recent.tenantId)]).toEqual([0, 1]);
  });
});
