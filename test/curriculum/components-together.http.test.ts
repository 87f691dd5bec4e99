import { randomUUID } from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { curriculumV1, eligibleVersion, http, newTenant, type Caller } from '../kit.ts';
import { platformTest } from '../platform-test.ts';
import { holdLock } from '../held-lock.ts';
import type { RunningPlatform } from '../../gateway/platform.ts';
import { components, pinAudit } from '../../subgraphs/curriculum/tables.ts';
import { pinOf, readComponent, rowsOf } from './helpers.ts';

const it = platformTest();

const post = (platform: RunningPlatform, caller: Caller, body: unknown) =>
  http(platform, 'POST', `${curriculumV1}/components`, { token: caller.token, body });

describe('POST /components arriving together (group commit)', () => {
  it('stores each create whole with its own answer and pin audit; a same-id retry or rival is answered alone', async ({
    platform,
  }) => {
    const caller = await newTenant(platform);
    const pin = pinOf(await eligibleVersion(platform, caller));
    const { db, driver } = platform.runtime.database;
    const count = 5 + Math.floor(Math.random() * 6);
    const bodies = Array.from({ length: count }, (_, index) => ({
      component_id: `together-${randomUUID()}`,
      kind: 'lesson',
      name: `Lesson ${index}`,
      // Every third one unpinned: no audit row, same statement.
      alpha: index % 3 === 2 ? {} : { target_ref: pin },
    }));
    const retry = bodies[1];
    const rival = { ...bodies[2], name: 'Another lesson' };
    // On PostgreSQL the first create's insert waits on an uncommitted row of its id (rolled back on
    // release), so the others arrive while it runs and must go in the next statement together.
    const held =
      driver === 'postgres'
        ? await holdLock(
            (
              tx,
            ) => tx`insert into curriculum.components (tenant_id, component_id, kind, alpha, publication_status, status, version, created_at, updated_at)
              values (${caller.tenantId}, ${bodies[0].component_id}, 'lesson', '{}', 'draft', 'active', 1, now(), now())`,
          )
        : undefined;
    const first = post(platform, caller, bodies[0]);
    if (held) await held.waitedOn();
    const others = Promise.all([...bodies.slice(1), retry, rival].map((body) => post(platform, caller, body)));
    if (held) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      await held.release();
    }
    const replies = [await first, ...(await others)];
    const [retryReply, rivalReply] = replies.slice(count);
    const created = replies.slice(0, count);
    for (const [index, reply] of created.entries()) {
      if (index === 1) expect([reply.status, retryReply.status].sort()).toEqual([200, 201]);
      else if (index === 2) expect([reply.status, rivalReply.status].sort()).toEqual([201, 409]);
      else expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    }
    // The identical retry answers the same component, whichever of the two came first.
    expect(retryReply.body).toEqual(created[1].body);
    const storedSecond = created[2].status === 201 ? created[2] : rivalReply;
    expect(storedSecond.body).toMatchObject({ component_id: bodies[2].component_id, version: 1 });

    // Each stored component reads back as its 201 answered it, ETag included.
    for (const [index, body] of bodies.entries()) {
      const answer = index === 2 ? storedSecond : created[index].status === 201 ? created[index] : retryReply;
      const read = await readComponent(platform, caller, body.component_id);
      expect(read.body).toEqual(answer.body);
      expect([read.status, read.headers.get('etag')]).toEqual([200, answer.body.etag]);
    }
    const audited = await db
      .select({ componentId: pinAudit.componentId, operation: pinAudit.operation, targetRef: pinAudit.targetRef })
      .from(pinAudit)
      .where(eq(pinAudit.tenantId, caller.tenantId));
    expect(audited.map((row) => row.componentId).sort()).toEqual(
      bodies
        .filter((_, index) => index % 3 !== 2)
        .map((body) => body.component_id)
        .sort(),
    );
    for (const row of audited) expect(row).toMatchObject({ operation: 'create', targetRef: pin });

    if (held) {
      // The waiting create committed alone, all the others in one transaction.
      const transactions = rowsOf<{ xmin: string }>(
        await db.execute(
          sql`select distinct xmin::text as xmin from ${components} where ${and(
            eq(components.tenantId, caller.tenantId),
            inArray(
              components.componentId,
              bodies.map((body) => body.component_id),
            ),
          )}`,
        ),
      );
      expect(transactions).toHaveLength(2);
    }
  });
});
