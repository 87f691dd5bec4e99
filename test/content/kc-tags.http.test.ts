import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { http, newTenant, sameTenant, tenantRoot } from '../kit.ts';
import { platformTest } from '../platform-test.ts';
import { createItem, expectUnchanged } from './helpers.ts';
import { registryKc, startFakeCurriculum, type FakeCurriculum } from './fake-curriculum.ts';

let curriculum: FakeCurriculum;
beforeAll(async () => {
  curriculum = await startFakeCurriculum();
});
afterAll(async () => {
  await curriculum?.close();
});
const it = platformTest(() => ({ config: { curriculumUrl: curriculum.url, serviceCallTimeoutMs: 400 } }));

describe('{tenant_root}/items/{contentId}/kc-tags', () => {
  it('creates and replaces a weighted tag to an active registry KC, asking curriculum with a service token', async ({
    platform,
  }) => {
    const caller = await newTenant(platform);
    const item = await createItem(platform, caller, { content_kind: 'question' });
    const kcId = randomUUID();
    curriculum.kcs.set(kcId, registryKc(kcId));
    const url = `${tenantRoot(caller.tenantId)}/items/${item.content_id}/kc-tags`;
    const created = await http(platform, 'POST', url, { token: caller.token, body: { kc_id: kcId, weight: 0.6 } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ content_id: item.content_id, kc_id: kcId, weight: 0.6, status: 'active' });
    const asked = curriculum.requests.find((request) => request.path.endsWith(`/alpha/curriculum/v1/kcs/${kcId}`));
    expect(asked?.authorization).toMatch(/^Bearer /);
    const replaced = await http(platform, 'POST', url, { token: caller.token, body: { kc_id: kcId, weight: 1 } });
    expect(replaced.status).toBe(200);
    expect(replaced.body.weight).toBe(1);
    const listed = await http(platform, 'GET', url, { token: caller.token });
    expect(listed.body.data).toEqual([replaced.body]);
  });

  it('refuses unknown, retired and CASE KC ids, and fails closed when curriculum does not answer well, writing nothing', async ({
    platform,
  }) => {
    const caller = await newTenant(platform);
    const item = await createItem(platform, caller, { content_kind: 'question' });
    const url = `${tenantRoot(caller.tenantId)}/items/${item.content_id}/kc-tags`;
    const retired = randomUUID();
    curriculum.kcs.set(retired, registryKc(retired, { retired_at: '2026-01-01T00:00:00Z' }));
    const caseKc = randomUUID();
    curriculum.kcs.set(caseKc, { kc_id: caseKc, stored_as: 'case.cf_item' });
    const cases: Array<[string, number, string]> = [
      [randomUUID(), 409, 'content.kc_not_active'],
      [retired, 409, 'content.kc_not_active'],
    ];
    for (const [kcId, status, code] of cases) {
      await expectUnchanged(platform, caller, `/items/${item.content_id}/kc-tags`, async () => {
        const refused = await http(platform, 'POST', url, { token: caller.token, body: { kc_id: kcId, weight: 0.5 } });
        expect([refused.status, refused.body.code]).toEqual([status, code]);
      });
    }
    for (const failure of ['hang', 'error', 'garbage'] as const) {
      const kcId = randomUUID();
      curriculum.kcs.set(kcId, failure);
      await expectUnchanged(platform, caller, `/items/${item.content_id}/kc-tags`, async () => {
        const refused = await http(platform, 'POST', url, { token: caller.token, body: { kc_id: kcId, weight: 0.5 } });
        expect([refused.status, refused.body.code], failure).toEqual([503, 'content.kc_registry_unavailable']);
      });
    }
    // A CASE item identifier answered with another shape is not a registry KC either.
    const refusedCase = await http(platform, 'POST', url, {
      token: caller.token,
      body: { kc_id: caseKc, weight: 0.5 },
    });
    expect([refusedCase.status, refusedCase.body.code]).toEqual([409, 'content.kc_not_active']);
    for (const body of [
      { kc_id: 'urn:case:123', weight: 0.5 },
      { kc_id: randomUUID(), weight: 0 },
      { kc_id: randomUUID(), weight: 1.5 },
      { kc_id: randomUUID() },
      { kc_id: randomUUID(), weight: 0.5, note: 'x' },
    ]) {
      const refused = await http(platform, 'POST', url, { token: caller.token, body });
      expect([refused.status, refused.body.code], JSON.stringify(body)).toEqual([400, 'content.validation_failed']);
    }
    expect((await http(platform, 'GET', url, { token: caller.token })).body.data).toEqual([]);
  });

  it('needs link:kc to write and read:content to read; unknown items and other tenants are 404', async ({
    platform,
  }) => {
    const caller = await newTenant(platform);
    const item = await createItem(platform, caller, { content_kind: 'question' });
    const kcId = randomUUID();
    curriculum.kcs.set(kcId, registryKc(kcId));
    const url = `${tenantRoot(caller.tenantId)}/items/${item.content_id}/kc-tags`;
    const author = await sameTenant(platform, caller, { scopes: ['author:content', 'read:content'] });
    expect(
      (await http(platform, 'POST', url, { token: author.token, body: { kc_id: kcId, weight: 0.5 } })).status,
    ).toBe(403);
    const linker = await sameTenant(platform, caller, { scopes: ['link:kc'] });
    expect((await http(platform, 'GET', url, { token: linker.token })).status).toBe(403);
    expect(
      (await http(platform, 'POST', url, { token: linker.token, body: { kc_id: kcId, weight: 0.5 } })).status,
    ).toBe(201);
    const unknown = await http(platform, 'POST', `${tenantRoot(caller.tenantId)}/items/${randomUUID()}/kc-tags`, {
      token: caller.token,
      body: { kc_id: kcId, weight: 0.5 },
    });
    expect([unknown.status, unknown.body.code]).toEqual([404, 'content.not_found']);
    const stranger = await newTenant(platform);
    expect(
      (
        await http(platform, 'GET', `${tenantRoot(stranger.tenantId)}/items/${item.content_id}/kc-tags`, {
          token: stranger.token,
        })
      ).status,
    ).toBe(404);
    expect((await http(platform, 'GET', url, { token: stranger.token })).body.code).toBe('content.tenant_mismatch');
  });
});

describe('GET {tenant_root}/items?curriculum_node_id (rule 11)', () => {
  it('projects archive links of the subtree plus the targets of its active components, and fails closed without an answer', async ({
    platform,
  }) => {
    const caller = await newTenant(platform);
    const targeted = await createItem(platform, caller, { content_kind: 'article' });
    const archivedItem = await createItem(platform, caller, { content_kind: 'article' });
    const retiredTarget = await createItem(platform, caller, { content_kind: 'article' });
    await createItem(platform, caller, { content_kind: 'article' });
    const { curriculumLinks } = await import('../../subgraphs/content/tables.ts');
    await platform.runtime.database.db.insert(curriculumLinks).values({
      tenantId: caller.tenantId,
      linkId: randomUUID(),
      contentId: archivedItem.content_id,
      curriculumNodeId: 'lesson-2',
      curriculumLinkKind: 'practices',
      archivedAt: new Date().toISOString(),
    });
    const root = `course-${randomUUID()}`;
    curriculum.trees.set(root, {
      component_id: root,
      status: 'active',
      alpha: {},
      children: [
        {
          component_id: 'lesson-1',
          status: 'active',
          alpha: { target_ref: { content_id: targeted.content_id } },
          children: [],
        },
        { component_id: 'lesson-2', status: 'active', alpha: {}, children: [] },
        {
          component_id: 'lesson-3',
          status: 'retired',
          alpha: { target_ref: { content_id: retiredTarget.content_id } },
          children: [],
        },
      ],
    });
    const url = `${tenantRoot(caller.tenantId)}/items?curriculum_node_id=`;
    const projected = await http(platform, 'GET', `${url}${root}`, { token: caller.token });
    expect(projected.status).toBe(200);
    expect(projected.body.data.map((item: any) => item.content_id).sort()).toEqual(
      [targeted.content_id, archivedItem.content_id].sort(),
    );
    const legacy = await http(platform, 'GET', `${url}lesson-2`, { token: caller.token });
    expect(legacy.body.data.map((item: any) => item.content_id)).toEqual([archivedItem.content_id]);
    curriculum.trees.set('broken', 'error');
    const before = await http(platform, 'GET', `${tenantRoot(caller.tenantId)}/items/${archivedItem.content_id}`, {
      token: caller.token,
    });
    expect(before.body.etag).toBe(archivedItem.etag);
    const failed = await http(platform, 'GET', `${url}broken`, { token: caller.token });
    expect([failed.status, failed.body.code]).toEqual([503, 'content.curriculum_unavailable']);
  });
});
