import { describe, expect } from 'vitest';
import { curriculumV1, http, newTenant, roots, tenantRoot } from '../kit.ts';
import { platformTest } from '../platform-test.ts';
import { createItem, uploadPng } from '../content/helpers.ts';

const it = platformTest();

describe('Accept negotiation', () => {
  it('answers 406 on every service when Accept excludes JSON, and JSON under any Accept that allows it', async ({
    platform,
  }) => {
    const caller = await newTenant(platform);
    const paths = {
      'content.': `${tenantRoot(caller.tenantId)}/items`,
      'curriculum:': `${curriculumV1}/kcs`,
      'events:': `${roots.events}/events`,
    };
    for (const [prefix, path] of Object.entries(paths)) {
      for (const accept of ['application/xml', 'text/html', 'application/json;q=0, text/csv']) {
        const refused = await http(platform, 'GET', path, { token: caller.token, headers: { accept } });
        expect([refused.status, refused.body.code, refused.headers.get('content-type')], `${path} ${accept}`).toEqual([
          406,
          `${prefix}not_acceptable`,
          'application/problem+json; charset=utf-8',
        ]);
      }
      for (const accept of [
        '*/*',
        'application/*',
        'application/json',
        'application/problem+json',
        'application/xml;q=0.9, application/json;q=0.5',
        'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
      ]) {
        const answered = await http(platform, 'GET', path, { token: caller.token, headers: { accept } });
        expect([answered.status, Array.isArray(answered.body.data)], `${path} ${accept}`).toEqual([200, true]);
      }
      const withoutAccept = await fetch(`${platform.url}${path}`, {
        headers: { authorization: `Bearer ${caller.token}`, accept: '' },
      });
      expect(withoutAccept.status, path).toBe(200);
    }
  });

  it('leaves paths that answer other types to their own types', async ({ platform }) => {
    const caller = await newTenant(platform);
    const item = await createItem(platform, caller, { content_kind: 'article' });
    const uploaded = await uploadPng(platform, caller, item.content_id);
    const media = await fetch(`${platform.url}${new URL(uploaded.body.delivery_url).pathname}`, {
      headers: { authorization: `Bearer ${caller.token}`, accept: 'image/png' },
    });
    expect([media.status, media.headers.get('content-type')]).toEqual([200, 'image/png']);
    for (const service of ['content', 'curriculum', 'events'] as const) {
      const docs = await fetch(`${platform.url}${roots[service]}/docs`, { headers: { accept: 'text/html' } });
      expect(docs.status, service).toBe(200);
    }
    const landing = await fetch(`${platform.url}/graphql`, { headers: { accept: 'text/html' } });
    expect(landing.status).toBe(200);
  });
});
