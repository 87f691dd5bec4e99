import { randomUUID } from 'node:crypto';
import { describe, expect } from 'vitest';
import { newTenant, http, sameTenant, tenantRoot } from '../kit.ts';
import { platformTest } from '../platform-test.ts';
import { createItem, expectUnchanged, PNG, uploadPng } from './helpers.ts';

const it = platformTest();

describe('media', () => {
  it('uploads, lists and streams the bytes of the authenticated delivery_url', async ({ platform }) => {
    const caller = await newTenant(platform);
    const item = await createItem(platform, caller, { content_kind: 'article' });
    const url = `${tenantRoot(caller.tenantId)}/items/${item.content_id}/media`;
    const uploaded = await uploadPng(platform, caller, item.content_id);
    expect(uploaded.status).toBe(201);
    expect(uploaded.body).toMatchObject({ media_kind: 'thumbnail', mime_type: 'image/png', byte_size: PNG.length });
    const delivery = new URL(uploaded.body.delivery_url);
    expect(delivery.pathname).toBe(`${url}/${uploaded.body.media_id}`);
    const listed = await http(platform, 'GET', url, { token: caller.token });
    expect(listed.body.data).toEqual([uploaded.body]);
    const response = await fetch(`${platform.url}${delivery.pathname}`, {
      headers: { authorization: `Bearer ${caller.token}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await response.arrayBuffer()).equals(PNG)).toBe(true);
    const anonymous = await fetch(`${platform.url}${delivery.pathname}`);
    expect(anonymous.status).toBe(401);
    const stranger = await newTenant(platform);
    const foreign = await fetch(
      `${platform.url}${tenantRoot(stranger.tenantId)}/items/${item.content_id}/media/${uploaded.body.media_id}`,
      { headers: { authorization: `Bearer ${stranger.token}` } },
    );
    expect(foreign.status).toBe(404);
    const wrongTenantPath = await fetch(`${platform.url}${delivery.pathname}`, {
      headers: { authorization: `Bearer ${stranger.token}` },
    });
    expect(wrongTenantPath.status).toBe(403);
  });

  it('refuses bad kinds, types, empty or non-base64 bytes and readers, storing nothing', async ({ platform }) => {
    const caller = await newTenant(platform);
    const item = await createItem(platform, caller, { content_kind: 'article' });
    const url = `${tenantRoot(caller.tenantId)}/items/${item.content_id}/media`;
    await expectUnchanged(platform, caller, `/items/${item.content_id}/media`, async () => {
      for (const body of [
        { media_kind: 'poster', mime_type: 'image/png', data_base64: 'AAAA' },
        { media_kind: 'primary', mime_type: 'png', data_base64: 'AAAA' },
        { media_kind: 'primary', mime_type: 'image/png', data_base64: '' },
        { media_kind: 'primary', mime_type: 'image/png', data_base64: '***' },
        // Cut off mid-character, or padded where no padding belongs: Buffer decoded both to fewer bytes, silently.
        { media_kind: 'primary', mime_type: 'image/png', data_base64: 'QUJDR' },
        { media_kind: 'primary', mime_type: 'image/png', data_base64: 'QUJD==' },
        { media_kind: 'primary', mime_type: 'image/png', data_base64: 'AAAA', url: 'https://x' },
        { media_kind: 'primary', mime_type: 'image/png', file_name: '../etc/passwd', data_base64: 'AAAA' },
      ]) {
        const refused = await http(platform, 'POST', url, { token: caller.token, body });
        expect([refused.status, refused.body.code], JSON.stringify(body)).toEqual([400, 'content.validation_failed']);
      }
      const reader = await sameTenant(platform, caller, { scopes: ['read:content'] });
      expect(
        (
          await http(platform, 'POST', url, {
            token: reader.token,
            body: { media_kind: 'primary', mime_type: 'image/png', data_base64: 'AAAA' },
          })
        ).status,
      ).toBe(403);
    });
    expect(
      (
        await http(platform, 'POST', `${tenantRoot(caller.tenantId)}/items/${randomUUID()}/media`, {
          token: caller.token,
          body: { media_kind: 'primary', mime_type: 'image/png', data_base64: 'AAAA' },
        })
      ).status,
    ).toBe(404);
    expect((await http(platform, 'GET', `${url}/${randomUUID()}`, { token: caller.token })).status).toBe(404);
    const unpadded = await http(platform, 'POST', url, {
      token: caller.token,
      body: { media_kind: 'primary', mime_type: 'text/plain', data_base64: 'QUI' },
    });
    expect([unpadded.status, unpadded.body.byte_size]).toEqual([201, 2]);
  });

  it('streams media whose file name is past Latin-1 or holds a control character, naming it in filename*', async ({
    platform,
  }) => {
    const caller = await newTenant(platform);
    const item = await createItem(platform, caller, { content_kind: 'article' });
    const url = `${tenantRoot(caller.tenantId)}/items/${item.content_id}/media`;
    for (const [fileName, disposition] of [
      ['图片 "1".png', `inline; filename="__ _1_.png"; filename*=UTF-8''%E5%9B%BE%E7%89%87%20%221%22.png`],
      [
        "tab\tand\u0001 it's (1).txt",
        `inline; filename="tab_and_ it's (1).txt"; filename*=UTF-8''tab%09and%01%20it%27s%20%281%29.txt`,
      ],
      ['plain.png', 'inline; filename="plain.png"'],
    ]) {
      const uploaded = await http(platform, 'POST', url, {
        token: caller.token,
        body: {
          media_kind: 'primary',
          mime_type: 'image/png',
          file_name: fileName,
          data_base64: PNG.toString('base64'),
        },
      });
      expect([uploaded.status, uploaded.body.file_name]).toEqual([201, fileName]);
      const response = await fetch(`${platform.url}${new URL(uploaded.body.delivery_url).pathname}`, {
        headers: { authorization: `Bearer ${caller.token}` },
      });
      expect([response.status, response.headers.get('content-disposition')], fileName).toEqual([200, disposition]);
      expect(Buffer.from(await response.arrayBuffer()).equals(PNG)).toBe(true);
    }
  });
});
