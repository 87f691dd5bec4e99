import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { curriculumV1, http as call, startTestPlatform, type TestPlatform } from '../kit.ts';

/** Operators' endpoints. Real tenants' tokens: test/platform/remote-tokens.test.ts. */
let platform: TestPlatform;

beforeAll(async () => {
  platform = await startTestPlatform();
});

afterAll(async () => {
  await platform?.close();
});

describe('operations', () => {
  it('answers liveness and readiness', async () => {
    expect((await call(platform, 'GET', '/healthz')).body).toEqual({ status: 'ok' });
    const ready = await call(platform, 'GET', '/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body.status).toBe('ready');
  });

  it('answers its root with where each API and its description live', async () => {
    const index = await call(platform, 'GET', '/');
    expect(index.status).toBe(200);
    expect(index.body).toMatchObject({
      graphql: '/graphql',
      graphiql: '/graphiql',
      health: '/healthz',
      problems: '/problems',
    });
    expect(index.body.services.map((service: { service: string }) => service.service)).toEqual([
      'curriculum',
      'content',
      'events',
    ]);
    for (const service of index.body.services) {
      const descriptor = await call(platform, 'GET', service.basePath);
      expect(descriptor.body).toMatchObject({ service: service.service, openapi: service.openapi, docs: service.docs });
    }
  });

  it('lists the problem table', async () => {
    const problems = await call(platform, 'GET', '/problems');
    expect(problems.body.data).toEqual(
      expect.arrayContaining([expect.objectContaining({ code: 'content.version_not_serveable', status: 409 })]),
    );
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
    expect(traced.body).toMatchObject({
      requestId: 'req-123',
      traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
      code: 'curriculum:unauthenticated',
    });
  });
});
