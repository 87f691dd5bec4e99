import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT, exportJWK, generateKeyPair } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { curriculumV1, http as call, startTestPlatform, type TestPlatform } from '../kit.ts';

/** Operators' endpoints and real tenants' tokens verified against a configured JWKS. */
let platform: TestPlatform;
let jwksServer: http.Server;
let signingKey: CryptoKey;

beforeAll(async () => {
  const pair = await generateKeyPair('ES256', { extractable: true });
  signingKey = pair.privateKey as CryptoKey;
  const publicJwk = { ...(await exportJWK(pair.publicKey)), kid: 'tenant-idp-1', alg: 'ES256', use: 'sig' };
  jwksServer = http.createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [publicJwk] }));
  });
  await new Promise<void>((resolve) => jwksServer.listen(0, '127.0.0.1', resolve));
  const { port } = jwksServer.address() as AddressInfo;
  platform = await startTestPlatform({ config: { jwksUrl: `http://127.0.0.1:${port}/.well-known/jwks.json` } });
});

afterAll(async () => {
  await platform?.close();
  await new Promise<void>((resolve) => jwksServer.close(() => resolve()));
});

describe('operations', () => {
  it('answers liveness and readiness', async () => {
    expect((await call(platform, 'GET', '/healthz')).body).toEqual({ status: 'ok' });
    const ready = await call(platform, 'GET', '/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body.status).toBe('ready');
  });

  it('lists the problem table', async () => {
    const problems = await call(platform, 'GET', '/problems');
    expect(problems.body.data).toEqual(expect.arrayContaining([expect.objectContaining({ code: 'content.version_not_serveable', status: 409 })]));
  });

  it('answers unknown routes with a problem', async () => {
    const missing = await call(platform, 'GET', `${curriculumV1}/nowhere`);
    expect([missing.status, missing.body.code]).toEqual([404, 'curriculum:not_found']);
    expect(missing.headers.get('content-type')).toContain('application/problem+json');
  });

  it('echoes a safe X-Request-Id and keeps a W3C trace id', async () => {
    const traced = await call(platform, 'GET', `${curriculumV1}/components`, {
      headers: { 'x-request-id': 'req-123', traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' },
    });
    expect(traced.headers.get('x-request-id')).toBe('req-123');
    expect(traced.body).toMatchObject({ requestId: 'req-123', traceId: '4bf92f3577b34da6a3ce929d0e0e4736', code: 'curriculum:unauthenticated' });
  });
});

describe('tokens of real tenants', () => {
  async function tenantToken(claims: Record<string, unknown>, expiresIn = '5m'): Promise<string> {
    return new SignJWT(claims).setProtectedHeader({ alg: 'ES256', kid: 'tenant-idp-1' }).setSubject('teacher-7').setIssuedAt().setExpirationTime(expiresIn).sign(signingKey);
  }

  it('are accepted when signed by a key of the configured JWKS', async () => {
    const token = await tenantToken({ tenant_id: 'district-9', scope: 'curriculum:read' });
    const listed = await call(platform, 'GET', `${curriculumV1}/components`, { token });
    expect(listed.status).toBe(200);
    expect(listed.body.data).toEqual([]);
  });

  it('are refused when expired, tenantless or not signed by a known key', async () => {
    const expired = await tenantToken({ tenant_id: 'district-9', scope: 'curriculum:read' }, '-1m');
    const tenantless = await tenantToken({ scope: 'curriculum:read' });
    const { privateKey } = await generateKeyPair('ES256');
    const stranger = await new SignJWT({ tenant_id: 'district-9', scope: 'curriculum:read' }).setProtectedHeader({ alg: 'ES256', kid: 'tenant-idp-1' }).setExpirationTime('5m').sign(privateKey);
    for (const token of [expired, tenantless, stranger, 'a.b.c']) {
      const refused = await call(platform, 'GET', `${curriculumV1}/components`, { token });
      expect([refused.status, refused.body.code]).toEqual([401, 'curriculum:unauthenticated']);
      expect(refused.headers.get('www-authenticate')).toBe('Bearer');
    }
  });
});
