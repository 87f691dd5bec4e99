import { describe, expect } from 'vitest';
import { http, newTenant, roots, tenantRoot } from '../kit.ts';
import { platformTest } from '../platform-test.ts';

const it = platformTest();

describe('content OpenAPI description', () => {
  it('documents every path of this service under {tenant_root}', async ({ platform }) => {
    const openapi = await http(platform, 'GET', `${roots.content}/openapi.json`);
    expect(openapi.status).toBe(200);
    const paths = Object.keys(openapi.body.paths).map((path) =>
      path.replace(`${roots.content}/tenants/{tenantId}/alpha/content`, ''),
    );
    for (const path of [
      '/items',
      '/items/{contentId}',
      '/items/{contentId}/blueprint',
      '/items/{contentId}/bank-members',
      '/items/{contentId}/versions',
      '/items/{contentId}/versions/{versionId}/test-serve-eligibility',
      '/test-serve-authorizations',
      '/items/{contentId}/student-view',
      '/items/{contentId}/answer-slots',
      '/items/{contentId}/answer-keys',
      '/items/{contentId}/assessment-components',
      '/items/{contentId}/interactive-composition',
      '/items/{contentId}/scoring-plan',
      '/items/{contentId}/media',
      '/items/{contentId}/media/{mediaId}',
      '/items/{contentId}/references',
      '/items/{contentId}/references/{referenceId}',
      '/items/{contentId}/external-link',
      '/items/{contentId}/curriculum-links',
      '/items/{contentId}/kc-tags',
      '/items/{contentId}/catalog-facets',
      '/items/{contentId}/effectiveness',
      '/items/{contentId}/trust',
      '/items/{contentId}/publish',
      '/catalog-facets',
      '/trust-status',
      '/policies',
    ]) {
      expect(paths, path).toContain(path);
    }
    expect(
      Object.keys(openapi.body.paths[`${roots.content}/tenants/{tenantId}/alpha/content/items/{contentId}`]),
    ).toEqual(expect.arrayContaining(['get', 'patch']));
  });

  it('requires the Idempotency-Key the server requires on POST /items and facet assignments', async ({ platform }) => {
    const openapi = await http(platform, 'GET', `${roots.content}/openapi.json`);
    const base = `${roots.content}/tenants/{tenantId}/alpha/content`;
    const caller = await newTenant(platform);
    for (const [path, sent] of [
      ['/items', '/items'],
      ['/items/{contentId}/catalog-facets', `/items/${crypto.randomUUID()}/catalog-facets`],
    ]) {
      const key = openapi.body.paths[`${base}${path}`].post.parameters.find(
        (parameter: { name: string }) => parameter.name === 'idempotency-key',
      );
      expect([key.in, key.required], path).toEqual(['header', true]);
      const refused = await http(platform, 'POST', `${tenantRoot(caller.tenantId)}${sent}`, {
        token: caller.token,
        body: { content_kind: 'article', title: 'A', facet_key: 'language', facet_value: 'en' },
      });
      expect([refused.status, refused.body.code], path).toEqual([400, 'content.idempotency_key_required']);
    }
  });
});
