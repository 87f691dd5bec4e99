import { randomUUID } from 'node:crypto';
import { describe, expect } from 'vitest';
import { startTestPlatform, http, newTenant, sameTenant, tenantRoot, eligibleVersion } from '../kit.ts';
import { platformTest } from '../platform-test.ts';
import { policies, curriculumLinks } from '../../subgraphs/content/tables.ts';
import { createItem, expectUnchanged } from './helpers.ts';

const it = platformTest();

describe('external link', () => {
  it('sets and replaces the governed link of an external_link item', async ({ platform }) => {
    const caller = await newTenant(platform);
    const item = await createItem(platform, caller, { content_kind: 'external_link' });
    const url = `${tenantRoot(caller.tenantId)}/items/${item.content_id}/external-link`;
    expect((await http(platform, 'GET', url, { token: caller.token })).status).toBe(404);
    const created = await http(platform, 'POST', url, {
      token: caller.token,
      body: { url: 'https://example.org/lesson?page=2', external_open_policy: 'new_tab', provider: 'Example' },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      url: 'https://example.org/lesson?page=2',
      external_open_policy: 'new_tab',
      provider: 'Example',
    });
    const replaced = await http(platform, 'POST', url, {
      token: caller.token,
      // An anchor is not a parameter, whatever its name.
      body: { url: 'https://example.org/b#key', external_open_policy: 'embedded_iframe_allowed' },
    });
    expect(replaced.status).toBe(200);
    expect((await http(platform, 'GET', url, { token: caller.token })).body).toEqual(replaced.body);
  });

  it('refuses secrets, other schemes, unknown policies and other kinds, changing nothing', async ({ platform }) => {
    const caller = await newTenant(platform);
    const item = await createItem(platform, caller, { content_kind: 'external_link' });
    const url = `${tenantRoot(caller.tenantId)}/items/${item.content_id}/external-link`;
    await http(platform, 'POST', url, {
      token: caller.token,
      body: { url: 'https://example.org/a', external_open_policy: 'same_tab' },
    });
    await expectUnchanged(platform, caller, `/items/${item.content_id}/external-link`, async () => {
      for (const body of [
        { url: 'https://user:pw@example.org/', external_open_policy: 'same_tab' },
        { url: 'https://example.org/?access_token=abc', external_open_policy: 'same_tab' },
        { url: 'https://example.org/?api_key=abc', external_open_policy: 'same_tab' },
        { url: 'https://example.org/?API-Key=abc', external_open_policy: 'same_tab' },
        { url: 'https://example.org/?X-Amz-Security-Token=abc', external_open_policy: 'same_tab' },
        { url: 'https://example.org/callback#state=1&access_token=abc', external_open_policy: 'same_tab' },
        { url: 'javascript:alert(1)', external_open_policy: 'same_tab' },
        { url: 'not a url', external_open_policy: 'same_tab' },
        { url: 'https://', external_open_policy: 'same_tab' },
        { url: `https://example.org/${'a'.repeat(2048)}`, external_open_policy: 'same_tab' },
        { url: 'https://example.org/', external_open_policy: 'popup' },
        { url: 'https://example.org/', external_open_policy: 'same_tab', secret: 'x' },
      ]) {
        const refused = await http(platform, 'POST', url, { token: caller.token, body });
        expect([refused.status, refused.body.code], JSON.stringify(body)).toEqual([400, 'content.validation_failed']);
      }
      const reader = await sameTenant(platform, caller, { scopes: ['read:content'] });
      expect(
        (
          await http(platform, 'POST', url, {
            token: reader.token,
            body: { url: 'https://e.org/', external_open_policy: 'same_tab' },
          })
        ).status,
      ).toBe(403);
    });
    const article = await createItem(platform, caller, { content_kind: 'article' });
    const wrongKind = await http(
      platform,
      'POST',
      `${tenantRoot(caller.tenantId)}/items/${article.content_id}/external-link`,
      { token: caller.token, body: { url: 'https://e.org/', external_open_policy: 'same_tab' } },
    );
    expect([wrongKind.status, wrongKind.body.code]).toEqual([400, 'content.validation_failed']);
    expect(
      (
        await http(platform, 'POST', `${tenantRoot(caller.tenantId)}/items/${randomUUID()}/external-link`, {
          token: caller.token,
          body: { url: 'https://e.org/', external_open_policy: 'same_tab' },
        })
      ).status,
    ).toBe(404);
  });
});

describe('read-only records', () => {
  it('curriculum-links reads the frozen archive, which has no write path', async ({ platform }) => {
    const caller = await newTenant(platform);
    const item = await createItem(platform, caller, { content_kind: 'article' });
    await createItem(platform, caller, { content_kind: 'article' });
    const { db } = platform.runtime.database;
    await db.insert(curriculumLinks).values({
      tenantId: caller.tenantId,
      linkId: randomUUID(),
      contentId: item.content_id,
      curriculumNodeId: 'node-7',
      curriculumLinkKind: 'teaches',
      archivedAt: new Date().toISOString(),
    });
    const links = await http(
      platform,
      'GET',
      `${tenantRoot(caller.tenantId)}/items/${item.content_id}/curriculum-links`,
      { token: caller.token },
    );
    expect(links.body.data).toMatchObject([
      { curriculum_node_id: 'node-7', curriculum_link_kind: 'teaches', frozen: true },
    ]);
    const read = await http(platform, 'GET', `${tenantRoot(caller.tenantId)}/items/${item.content_id}`, {
      token: caller.token,
    });
    expect(read.body.etag).toBe(item.etag);
    for (const method of ['POST', 'PUT', 'DELETE']) {
      expect(
        (
          await http(platform, method, `${tenantRoot(caller.tenantId)}/items/${item.content_id}/curriculum-links`, {
            token: caller.token,
            body: {},
          })
        ).status,
      ).toBe(405);
    }
  });

  it('effectiveness is derived and read-only; policies list provisioned rows of the tenant only', async ({
    platform,
  }) => {
    const caller = await newTenant(platform);
    const item = await createItem(platform, caller, { content_kind: 'article' });
    const effectiveness = await http(
      platform,
      'GET',
      `${tenantRoot(caller.tenantId)}/items/${item.content_id}/effectiveness`,
      { token: caller.token },
    );
    expect(effectiveness.body).toMatchObject({
      content_id: item.content_id,
      effectiveness_status: 'insufficient_data',
    });
    expect(
      (
        await http(platform, 'GET', `${tenantRoot(caller.tenantId)}/items/${randomUUID()}/effectiveness`, {
          token: caller.token,
        })
      ).status,
    ).toBe(404);
    expect(
      (await http(platform, 'GET', `${tenantRoot(caller.tenantId)}/policies`, { token: caller.token })).body.data,
    ).toEqual([]);
    await platform.runtime.database.db.insert(policies).values({
      tenantId: caller.tenantId,
      policyId: randomUUID(),
      policyKey: 'test_serve_grant',
      status: 'active',
      value: { subject: 'x' },
      provisionedBy: 'operator',
      provisionedAt: new Date().toISOString(),
    });
    const listed = await http(platform, 'GET', `${tenantRoot(caller.tenantId)}/policies`, { token: caller.token });
    expect(listed.body.data).toMatchObject([
      { policy_key: 'test_serve_grant', status: 'active', value: { subject: 'x' } },
    ]);
    const other = await newTenant(platform);
    expect(
      (await http(platform, 'GET', `${tenantRoot(other.tenantId)}/policies`, { token: other.token })).body.data,
    ).toEqual([]);
    const noScope = await sameTenant(platform, caller, { scopes: [] });
    expect(
      (await http(platform, 'GET', `${tenantRoot(caller.tenantId)}/policies`, { token: noScope.token })).status,
    ).toBe(403);
  });

  it('trust-status lists current trust per exact version, missing evidence as unknown, filterable and paged', async ({
    platform,
  }) => {
    const caller = await newTenant(platform);
    const pin = await eligibleVersion(platform, caller);
    // Newer evidence of another tenant must not become this tenant's current trust.
    const stranger = await newTenant(platform);
    const strangerVersion = await eligibleVersion(platform, stranger);
    const failed = await http(
      platform,
      'POST',
      `${tenantRoot(stranger.tenantId)}/items/${strangerVersion.contentId}/versions/${strangerVersion.versionId}/qc-decisions`,
      { token: (await sameTenant(platform, stranger)).token, body: { trust_status: 'failed', reason: 'broken' } },
    );
    expect(failed.status).toBe(201);
    const all = await http(platform, 'GET', `${tenantRoot(caller.tenantId)}/trust-status`, { token: caller.token });
    expect(all.body.data).toHaveLength(2);
    const trusted = await http(platform, 'GET', `${tenantRoot(caller.tenantId)}/trust-status?trust_status=trusted`, {
      token: caller.token,
    });
    expect(trusted.body.data).toEqual([
      { content_id: pin.contentId, version_id: pin.versionId, version_number: 2, trust_status: 'trusted' },
    ]);
    const unknown = await http(platform, 'GET', `${tenantRoot(caller.tenantId)}/trust-status?trust_status=unknown`, {
      token: caller.token,
    });
    expect(unknown.body.data.map((x: any) => x.version_number)).toEqual([1]);
    const first = await http(platform, 'GET', `${tenantRoot(caller.tenantId)}/trust-status?limit=1`, {
      token: caller.token,
    });
    const second = await http(
      platform,
      'GET',
      `${tenantRoot(caller.tenantId)}/trust-status?limit=1&cursor=${first.body.next_cursor}`,
      { token: caller.token },
    );
    expect([...first.body.data, ...second.body.data].map((x: any) => x.version_id).sort()).toEqual(
      all.body.data.map((x: any) => x.version_id).sort(),
    );
    expect(
      (
        await http(platform, 'GET', `${tenantRoot(caller.tenantId)}/trust-status?trust_status=great`, {
          token: caller.token,
        })
      ).status,
    ).toBe(400);
  });
});

describe('demo provisioning', () => {
  it('the seeded demo tenant carries one active test-serve grant', async () => {
    const demo = await startTestPlatform({ seedDemo: true });
    try {
      const caller = await newTenant(demo, { tenantId: 'demo' });
      const listed = await http(demo, 'GET', `${tenantRoot('demo')}/policies`, { token: caller.token });
      expect(listed.body.data).toMatchObject([{ policy_key: 'test_serve_grant', status: 'active' }]);
    } finally {
      await demo.close();
    }
  });
});

describe('image block urls', () => {
  it('take absolute http(s) links only, creating no version otherwise', async ({ platform }) => {
    const caller = await newTenant(platform);
    const item = await createItem(platform, caller, { content_kind: 'article' });
    const versions = `${tenantRoot(caller.tenantId)}/items/${item.content_id}/versions`;
    const imageBlock = (url: string) => ({
      student_view: { blocks: [{ type: 'image', url, alt: 'a figure', order: 0 }] },
    });
    await expectUnchanged(platform, caller, `/items/${item.content_id}/versions`, async () => {
      for (const url of ['not a url', 'javascript:alert(1)', 'data:image/png;base64,AAAA', 'file:///etc/passwd']) {
        const refused = await http(platform, 'POST', versions, { token: caller.token, body: imageBlock(url) });
        expect([refused.status, refused.body.code, refused.body.fieldErrors?.[0]?.field], url).toEqual([
          400,
          'content.validation_failed',
          'student_view.blocks.0.url',
        ]);
      }
    });
    const accepted = await http(platform, 'POST', versions, {
      token: caller.token,
      body: imageBlock('https://cdn.example.org/figure.png'),
    });
    expect(accepted.status).toBe(201);
  });
});
