import { randomUUID } from 'node:crypto';
import { describe, expect } from 'vitest';
import { curriculumV1, eligibleVersion, http, tenantRoot, newTenant, type Caller } from '../kit.ts';
import { platformTest } from '../platform-test.ts';
import { holdLock, type HeldLock } from '../held-lock.ts';
import type { RunningPlatform } from '../../gateway/platform.ts';
import { createComponent, expectProblem, pinOf, readComponent, tenantRowCounts } from './helpers.ts';

const it = platformTest();

const post = (platform: RunningPlatform, caller: Caller, body: unknown) =>
  http(platform, 'POST', `${curriculumV1}/components`, { token: caller.token, body });

/**
 * On PostgreSQL the first create's prior-row read waits on the held tables and the others' wait behind
 * it; released, they go together, and so do their eligibility reads and their inserts.
 */
async function burst(platform: RunningPlatform, send: Array<() => ReturnType<typeof post>>) {
  const held: HeldLock | undefined =
    platform.runtime.database.driver === 'postgres'
      ? await holdLock((tx) => tx`lock table curriculum.components, content.versions in access exclusive mode`)
      : undefined;
  const first = send[0]();
  if (held) await held.waitedOn();
  const others = Promise.all(send.slice(1).map((request) => request()));
  if (held) {
    await new Promise((resolve) => setTimeout(resolve, 300));
    await held.release();
  }
  return [await first, ...(await others)];
}

describe('POST /components: the eligibility reads of creates arriving together', () => {
  it('judges each create on its own prior row and its own pin', async ({ platform }) => {
    const caller = await newTenant(platform);
    const eligible = await eligibleVersion(platform, caller);
    const untrusted = await http(
      platform,
      'POST',
      `${tenantRoot(caller.tenantId)}/items/${eligible.contentId}/versions`,
      {
        token: caller.token,
        body: { student_view: { blocks: [{ type: 'text', text: 'Not reviewed', order: 0 }] } },
      },
    );
    expect(untrusted.status).toBe(201);
    const pin = pinOf(eligible);
    const refusedPin = { ...pin, content_version_id: untrusted.body.version_id };
    const existing = {
      component_id: `existing-${randomUUID()}`,
      kind: 'lesson',
      name: 'Kept',
      alpha: { target_ref: pin },
    };
    const stored = await createComponent(platform, caller, existing);
    const fresh = Array.from({ length: 6 }, (_, index) => ({
      component_id: `burst-${randomUUID()}`,
      kind: 'lesson',
      name: `Lesson ${index}`,
      alpha: { target_ref: pin },
    }));
    const unserveable = { component_id: `refused-${randomUUID()}`, kind: 'lesson', alpha: { target_ref: refusedPin } };
    const rival = { ...existing, name: 'Another' };
    const [firstReply, ...replies] = await burst(
      platform,
      [fresh[0], unserveable, ...fresh.slice(1), existing, rival].map((body) => () => post(platform, caller, body)),
    );
    const [refusedReply, ...rest] = replies;
    const created = [firstReply, ...rest.slice(0, fresh.length - 1)];
    const [retryReply, rivalReply] = rest.slice(fresh.length - 1);

    for (const [index, reply] of created.entries()) {
      expect(reply.status, JSON.stringify(reply.body)).toBe(201);
      expect(reply.body).toMatchObject({ component_id: fresh[index].component_id, name: `Lesson ${index}` });
      expect((await readComponent(platform, caller, fresh[index].component_id)).body).toEqual(reply.body);
    }
    expectProblem(refusedReply, 409, 'curriculum:target_not_serveable');
    expect((await readComponent(platform, caller, unserveable.component_id)).status).toBe(404);
    expect([retryReply.status, retryReply.body]).toEqual([200, stored]);
    expectProblem(rivalReply, 409, 'curriculum:component_exists');
    const counts = await tenantRowCounts(platform, caller.tenantId);
    expect([counts.components, counts.pin_audit]).toEqual([fresh.length + 1, fresh.length + 1]);
  });

  it.skipIf(!process.env.DATABASE_URL)(
    'reads the prior rows and the eligibility of a burst in fewer statements than one per create',
    async ({ platform }) => {
      const caller = await newTenant(platform);
      const pin = pinOf(await eligibleVersion(platform, caller));
      const { stats } = platform.runtime.database;
      const count = 16;
      const before = stats.queries;
      const replies = await burst(
        platform,
        Array.from(
          { length: count },
          () => () =>
            post(platform, caller, {
              component_id: `burst-${randomUUID()}`,
              kind: 'lesson',
              alpha: { target_ref: pin },
            }),
        ),
      );
      expect(replies.map((reply) => reply.status)).toEqual(Array(count).fill(201));
      // Grouped: two rounds of prior-row reads (the first held, the others waiting behind it), then a
      // few rounds each of eligibility reads and of inserts. One prior-row read per create would be
      // count statements alone.
      expect(stats.queries - before).toBeLessThan(count);
    },
  );
});
