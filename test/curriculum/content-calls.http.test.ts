import { randomUUID } from 'node:crypto';
import { describe, expect } from 'vitest';
import { curriculumV1, eligibleVersion, newTenant } from '../kit.ts';
import { platformTest } from '../platform-test.ts';
import { sql } from 'drizzle-orm';
import { rowsOf } from '../../platform/db.ts';
import { pinOf, tenantRowCounts } from './helpers.ts';

const it = platformTest();

describe('content calls in the embedded shape', () => {
  it('asks content through its published route in memory: no request reaches the listener', async ({ platform }) => {
    const caller = await newTenant(platform);
    const version = await eligibleVersion(platform, caller);
    const overSockets: string[] = [];
    const count = (request: { url?: string }) => overSockets.push(request.url ?? '');
    platform.app.server.on('request', count);
    try {
      const send = (target: unknown) =>
        platform.app.inject({
          method: 'POST',
          url: `${curriculumV1}/components`,
          headers: { authorization: `Bearer ${caller.token}`, 'content-type': 'application/json' },
          payload: JSON.stringify({ component_id: `c-${randomUUID()}`, kind: 'lesson', alpha: { target_ref: target } }),
        });
      const pinned = await send(pinOf(version));
      expect(pinned.statusCode, pinned.body).toBe(201);
      expect(pinned.json().alpha.target_ref.content_version_id).toBe(version.versionId);
      // Content's refusal still arrives with its status and typed problem, and fails the write closed.
      const unknown = await send(pinOf({ ...version, versionId: randomUUID() }));
      expect([unknown.statusCode, unknown.json().code]).toEqual([409, 'curriculum:target_not_serveable']);
      expect(overSockets).toEqual([]);
    } finally {
      platform.app.server.off('request', count);
    }
  });

  it('a pinned create writes the component and its audit row in one statement; a refused pin writes neither', async ({
    platform,
  }) => {
    const caller = await newTenant(platform);
    const version = await eligibleVersion(platform, caller);
    const { stats, db } = platform.runtime.database;
    const create = async (componentId: string, target: unknown) => {
      const before = stats.queries;
      const reply = await platform.app.inject({
        method: 'POST',
        url: `${curriculumV1}/components`,
        headers: { authorization: `Bearer ${caller.token}`, 'content-type': 'application/json' },
        payload: JSON.stringify({ component_id: componentId, kind: 'lesson', alpha: { target_ref: target } }),
      });
      return { reply, statements: stats.queries - before };
    };
    const componentId = `c-${randomUUID()}`;
    const created = await create(componentId, pinOf(version));
    expect(created.reply.statusCode, created.reply.body).toBe(201);
    // The prior-row read, content's eligibility read, then the insert with its audit row.
    expect(created.statements).toBe(3);
    const audit = rowsOf<{ operation: string; previous_target_ref: unknown; target_ref: unknown; actor: string }>(
      await db.execute(
        sql`select operation, previous_target_ref, target_ref, actor from curriculum.pin_audit
            where tenant_id = ${caller.tenantId} and component_id = ${componentId}`,
      ),
    );
    expect(audit).toEqual([
      { operation: 'create', previous_target_ref: null, target_ref: pinOf(version), actor: expect.any(String) },
    ]);
    const before = await tenantRowCounts(platform, caller.tenantId);
    const refused = await create(`c-${randomUUID()}`, pinOf({ ...version, versionId: randomUUID() }));
    expect([refused.reply.statusCode, refused.reply.json().code]).toEqual([409, 'curriculum:target_not_serveable']);
    expect(await tenantRowCounts(platform, caller.tenantId)).toEqual(before);
    // The same create again is answered from the row, unchanged, and records no second audit row.
    const again = await create(componentId, pinOf(version));
    expect([again.reply.statusCode, again.reply.json()]).toEqual([200, created.reply.json()]);
    expect((await tenantRowCounts(platform, caller.tenantId)).pin_audit).toBe(before.pin_audit);
  });
});
