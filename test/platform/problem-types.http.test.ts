import { describe, expect } from 'vitest';
import { curriculumV1, http, newTenant, roots, tenantRoot } from '../kit.ts';
import { platformTest } from '../platform-test.ts';

const it = platformTest();

describe("a problem's type", () => {
  it('is the same absolute URI scheme in every service, and GET on it documents the code', async ({ platform }) => {
    const caller = await newTenant(platform);
    const missing = [
      await http(platform, 'GET', `${tenantRoot(caller.tenantId)}/items/00000000-0000-4000-8000-000000000000`, {
        token: caller.token,
      }),
      await http(platform, 'GET', `${curriculumV1}/components/nowhere`, { token: caller.token }),
      await http(platform, 'GET', `${roots.events}/events/nowhere`, { token: caller.token }),
    ];
    expect(missing.map((reply) => reply.body.code)).toEqual([
      'content.not_found',
      'curriculum:not_found',
      'events:not_found',
    ]);
    for (const { body } of missing) {
      expect(body.type).toBe(`${platform.url}/problems/${encodeURIComponent(body.code)}`);
      const documented = await http(platform, 'GET', new URL(body.type).pathname);
      expect(documented.status).toBe(200);
      expect(documented.body).toEqual({ code: body.code, status: 404, title: body.title, type: body.type });
    }
    const unknown = await http(platform, 'GET', '/problems/content.nothing_like_this');
    expect(unknown.status).toBe(404);
  });

  it('is described in every served OpenAPI as an absolute URI', async ({ platform }) => {
    for (const root of [roots.content, roots.curriculum, roots.events]) {
      const description = await http(platform, 'GET', `${root}/openapi.json`);
      expect(description.body.components.schemas.Problem.properties.type).toMatchObject({ format: 'uri' });
    }
  });
});

describe('a method a path does not have', () => {
  it('is 405 naming the methods it has, in the namespace of the service; an unknown path stays 404', async ({
    platform,
  }) => {
    const caller = await newTenant(platform);
    const cases = [
      ['PUT', `${roots.events}/attendance-events/nowhere`, 'events:method_not_allowed', 'GET, HEAD'],
      ['DELETE', `${curriculumV1}/renderer-registry`, 'curriculum:method_not_allowed', 'GET, HEAD'],
      ['PUT', `${tenantRoot(caller.tenantId)}/trust-status`, 'content.method_not_allowed', 'GET, HEAD'],
      ['GET', `${roots.events}/dev/mint`, 'events:method_not_allowed', 'POST'],
      ['DELETE', '/graphql', 'method_not_allowed', 'GET, HEAD, POST'],
    ] as const;
    for (const [method, url, code, allow] of cases) {
      const refused = await http(platform, method, url, { token: caller.token });
      expect([method, url, refused.status, refused.body.code, refused.headers.get('allow')]).toEqual([
        method,
        url,
        405,
        code,
        allow,
      ]);
      expect(refused.headers.get('content-type')).toContain('application/problem+json');
    }
    const unknown = await http(platform, 'PUT', `${roots.events}/nothing-here`, { token: caller.token });
    expect([unknown.status, unknown.body.code, unknown.headers.get('allow')]).toEqual([404, 'events:not_found', null]);
  });

  it('of a token without the access an operation needs names the scope or roles it needs (it said only "may not"), as the served bearer scheme says, with the demo mint', async ({
    platform,
  }) => {
    const reader = await newTenant(platform, { scopes: ['curriculum:read', 'read:content'], roles: [] });
    const create = await http(platform, 'POST', `${curriculumV1}/components`, {
      token: reader.token,
      body: { component_id: 'c', kind: 'lesson' },
    });
    expect(create.status).toBe(403);
    expect(create.body.detail).toContain('curriculum:write');
    const record = await http(platform, 'POST', `${roots.events}/activity-sources`, {
      token: reader.token,
      body: { sourceIri: 'urn:example:app', name: 'App' },
    });
    expect(record.status).toBe(403);
    expect(record.body.detail).toContain('events:sources:write');
    expect(record.body.detail).toContain('operator');
    for (const service of ['curriculum', 'content', 'events'] as const) {
      const openapi = await http(platform, 'GET', `${roots[service]}/openapi.json`);
      const bearer = openapi.body.components.securitySchemes.bearer.description as string;
      expect(bearer).toContain('scope claim');
      expect(bearer).toContain(`POST ${roots[service]}/dev/mint?tenantId=demo`);
    }
  });
});
