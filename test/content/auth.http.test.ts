import { randomUUID } from 'node:crypto';
import { describe, expect } from 'vitest';
import { DEMO_SCOPES } from '../../platform/auth.ts';
import { http, newTenant, sameTenant, tenantRoot } from '../kit.ts';
import { platformTest } from '../platform-test.ts';
import { createItem } from './helpers.ts';

const it = platformTest();

type Letter = 'S' | 'A' | 'R' | 'K' | 'L' | 'P';
const SCOPE_OF: Partial<Record<Letter, string>> = {
  A: 'author:content',
  R: 'read:content',
  K: 'read:answer_key',
  L: 'link:kc',
  P: 'publish:content',
};

/** Every documented path of this issue with its Auth letter (the content document's Auth column). */
const ENDPOINTS: Array<[Letter, string, string]> = [
  ['S', 'GET', '/items'],
  ['A', 'POST', '/items'],
  ['S', 'GET', '/items/{id}'],
  ['A', 'PATCH', '/items/{id}'],
  ['R', 'GET', '/items/{id}/blueprint'],
  ['R', 'GET', '/items/{id}/bank-members'],
  ['R', 'GET', '/items/{id}/versions'],
  ['A', 'POST', '/items/{id}/versions'],
  ['R', 'GET', '/items/{id}/versions/{v}'],
  ['R', 'GET', '/items/{id}/versions/{v}/release-eligibility'],
  ['R', 'GET', '/items/{id}/versions/{v}/test-serve-eligibility'],
  ['R', 'POST', '/test-serve-authorizations'],
  ['R', 'GET', '/items/{id}/student-view'],
  ['R', 'GET', '/items/{id}/answer-slots'],
  ['K', 'GET', '/items/{id}/answer-keys'],
  ['R', 'GET', '/items/{id}/assessment-components'],
  ['R', 'GET', '/items/{id}/interactive-composition'],
  ['A', 'PUT', '/items/{id}/interactive-composition'],
  ['R', 'GET', '/items/{id}/scoring-plan'],
  ['R', 'GET', '/items/{id}/media'],
  ['A', 'POST', '/items/{id}/media'],
  ['R', 'GET', '/items/{id}/media/{m}'],
  ['R', 'GET', '/items/{id}/references'],
  ['A', 'POST', '/items/{id}/references'],
  ['A', 'DELETE', '/items/{id}/references/{m}'],
  ['R', 'GET', '/items/{id}/external-link'],
  ['A', 'POST', '/items/{id}/external-link'],
  ['R', 'GET', '/items/{id}/curriculum-links'],
  ['R', 'GET', '/items/{id}/kc-tags'],
  ['L', 'POST', '/items/{id}/kc-tags'],
  ['R', 'GET', '/items/{id}/catalog-facets'],
  ['A', 'POST', '/items/{id}/catalog-facets'],
  ['R', 'GET', '/items/{id}/effectiveness'],
  ['R', 'GET', '/items/{id}/trust'],
  ['P', 'POST', '/items/{id}/publish'],
  ['R', 'GET', '/catalog-facets'],
  ['A', 'POST', '/catalog-facets'],
  ['R', 'GET', '/trust-status'],
  ['R', 'GET', '/policies'],
];

describe('Auth column, role by role', () => {
  it("refuses a token without the letter's scope or role (403), another tenant's token (403) and no token (401) on every path", async ({
    platform,
  }) => {
    const owner = await newTenant(platform);
    const item = await createItem(platform, owner, { content_kind: 'article' });
    const stranger = await newTenant(platform);
    for (const [letter, method, template] of ENDPOINTS) {
      const path = template
        .replace('{id}', item.content_id)
        .replace('{v}', item.latest_version_id)
        .replace('{m}', randomUUID());
      const url = `${tenantRoot(owner.tenantId)}${path}`;
      const body = method === 'GET' || method === 'DELETE' ? undefined : {};
      const headers = { 'idempotency-key': randomUUID(), 'if-match': item.etag };
      const missing =
        letter === 'S'
          ? await sameTenant(platform, owner, { scopes: DEMO_SCOPES, roles: ['reviewer'] })
          : letter === 'P'
            ? await sameTenant(platform, owner, { scopes: DEMO_SCOPES, roles: ['demo'] })
            : await sameTenant(platform, owner, {
                scopes: DEMO_SCOPES.filter((scope) => scope !== SCOPE_OF[letter]),
                roles: ['demo', 'reviewer'],
              });
      const refused = await http(platform, method, url, { token: missing.token, body, headers });
      expect([refused.status, refused.body.code], `${method} ${template} without ${letter}`).toEqual([
        403,
        'content.forbidden',
      ]);
      const foreign = await http(platform, method, url, { token: stranger.token, body, headers });
      expect([foreign.status, foreign.body.code], `${method} ${template} other tenant`).toEqual([
        403,
        'content.tenant_mismatch',
      ]);
      const anonymous = await http(platform, method, url, { body, headers });
      expect(anonymous.status, `${method} ${template} anonymous`).toBe(401);
    }
  });
});
