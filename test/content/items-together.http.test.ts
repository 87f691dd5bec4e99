import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { http, newTenant, tenantRoot, type Caller, type Reply } from '../kit.ts';
import { platformTest } from '../platform-test.ts';
import { holdLock } from '../held-lock.ts';
import type { RunningPlatform } from '../../gateway/platform.ts';
import { rowsOf } from '../../platform/db.ts';

const it = platformTest();

interface Sent {
  key: string;
  body: Record<string, unknown>;
}

const post = (platform: RunningPlatform, caller: Caller, { key, body }: Sent) =>
  http(platform, 'POST', `${tenantRoot(caller.tenantId)}/items`, {
    token: caller.token,
    headers: { 'idempotency-key': key },
    body,
  });

/**
 * On PostgreSQL the first create's insert waits on the held items table, so the others arrive while it
 * runs and go in the next statement together.
 */
async function burst(platform: RunningPlatform, caller: Caller, sent: Sent[]): Promise<Reply[]> {
  const held =
    platform.runtime.database.driver === 'postgres'
      ? await holdLock((tx) => tx`lock table content.items in access exclusive mode`)
      : undefined;
  const first = post(platform, caller, sent[0]);
  if (held) await held.waitedOn();
  const others = Promise.all(sent.slice(1).map((request) => post(platform, caller, request)));
  if (held) {
    await new Promise((resolve) => setTimeout(resolve, 300));
    await held.release();
  }
  return [await first, ...(await others)];
}

const keyRecords = async (platform: RunningPlatform, caller: Caller, key: string) =>
  rowsOf<{ n: number }>(
    await platform.runtime.database.db.execute(
      sql`select count(*)::int as n from content.idempotency_records where tenant_id = ${caller.tenantId} and idempotency_key = ${key}`,
    ),
  )[0].n;

const itemCount = async (platform: RunningPlatform, caller: Caller) =>
  rowsOf<{ n: number }>(
    await platform.runtime.database.db.execute(
      sql`select count(*)::int as n from content.items where tenant_id = ${caller.tenantId}`,
    ),
  )[0].n;

describe('POST {tenant_root}/items arriving together (group commit)', () => {
  it('stores each item with its first version and its key; of two creates of one id, one is refused alone', async ({
    platform,
  }) => {
    const caller = await newTenant(platform);
    const fresh: Sent[] = Array.from({ length: 6 }, (_, index) => ({
      key: randomUUID(),
      body: { content_kind: 'article', title: `Together ${index} ${randomUUID()}` },
    }));
    const contentId = randomUUID();
    const chosen: Sent = {
      key: randomUUID(),
      body: { content_kind: 'article', title: 'Chosen', content_id: contentId },
    };
    const rival: Sent = { key: randomUUID(), body: { ...chosen.body, title: 'Rival' } };
    const { stats } = platform.runtime.database;
    const before = stats.queries;
    const replies = await burst(platform, caller, [...fresh, chosen, rival]);
    const statements = stats.queries - before;

    // Each created item answers its own row, and a replay of its key answers it byte for byte.
    for (const [index, reply] of replies.slice(0, fresh.length).entries()) {
      expect(reply.status, JSON.stringify(reply.body)).toBe(201);
      expect(reply.body.title).toBe(fresh[index].body.title);
      const replay = await post(platform, caller, fresh[index]);
      expect([replay.status, replay.headers.get('idempotency-replayed'), replay.body]).toEqual([
        200,
        'true',
        reply.body,
      ]);
      const versions = await http(
        platform,
        'GET',
        `${tenantRoot(caller.tenantId)}/items/${reply.body.content_id}/versions`,
        { token: caller.token },
      );
      expect(versions.body.data.map((version: { version_id: string }) => version.version_id)).toEqual([
        reply.body.latest_version_id,
      ]);
    }

    // One of the two creates of the chosen id is stored; the other is refused and leaves its key free.
    const [chosenReply, rivalReply] = replies.slice(fresh.length);
    const [won, lost, wonReply, lostReply] =
      chosenReply.status === 201 ? [chosen, rival, chosenReply, rivalReply] : [rival, chosen, rivalReply, chosenReply];
    expect([wonReply.status, wonReply.body.title]).toEqual([201, won.body.title]);
    expect([lostReply.status, lostReply.body.code]).toEqual([409, 'content.item_exists']);
    expect([await keyRecords(platform, caller, won.key), await keyRecords(platform, caller, lost.key)]).toEqual([1, 0]);
    expect(await itemCount(platform, caller)).toBe(fresh.length + 1);
    // The refused create did not fail the others' statement: fewer statements than requests.
    if (platform.runtime.database.driver === 'postgres') expect(statements).toBeLessThan(replies.length);
  });

  it('replays a key sent twice in one burst and refuses it changed', async ({ platform }) => {
    const caller = await newTenant(platform);
    const fresh: Sent[] = Array.from({ length: 3 }, (_, index) => ({
      key: randomUUID(),
      body: { content_kind: 'article', title: `Keyed ${index}` },
    }));
    const changed: Sent = { key: fresh[2].key, body: { ...fresh[2].body, title: 'Changed' } };
    const replies = await burst(platform, caller, [...fresh, fresh[1], changed]);
    const [first, second, third, repeated, changedReply] = replies;
    expect(first.status).toBe(201);
    expect([second.status, repeated.status].sort()).toEqual([200, 201]);
    expect(repeated.body).toEqual(second.body);
    // The requests of a burst are not served in the order sent: whichever body under the third key came first is
    // stored, and the other is refused.
    const [stored, refused, storedBody] =
      third.status === 201 ? [third, changedReply, fresh[2].body] : [changedReply, third, changed.body];
    expect([stored.status, stored.body.title]).toEqual([201, storedBody.title]);
    expect([refused.status, refused.body.code]).toEqual([409, 'content.idempotency_conflict']);
    expect(await itemCount(platform, caller)).toBe(fresh.length);
  });

  it.skipIf(!process.env.DATABASE_URL)(
    'writes a burst of fresh items in fewer statements than items',
    async ({ platform }) => {
      const caller = await newTenant(platform);
      const count = 8;
      const { stats } = platform.runtime.database;
      const before = stats.queries;
      const replies = await burst(
        platform,
        caller,
        Array.from({ length: count }, (_, index) => ({
          key: randomUUID(),
          body: { content_kind: 'article', title: `Burst ${index}` },
        })),
      );
      expect(replies.map((reply) => reply.status)).toEqual(Array(count).fill(201));
      // One statement each without grouping; here the first alone and the others together.
      expect(stats.queries - before).toBe(2);
    },
  );
});
