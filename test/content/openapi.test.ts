import { describe, expect } from 'vitest';
import { http, roots } from '../kit.ts';
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
});
