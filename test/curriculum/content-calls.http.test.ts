import { randomUUID } from 'node:crypto';
import { describe, expect } from 'vitest';
import { curriculumV1, eligibleVersion, newTenant } from '../kit.ts';
import { platformTest } from '../platform-test.ts';
import { pinOf } from './helpers.ts';

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
});
