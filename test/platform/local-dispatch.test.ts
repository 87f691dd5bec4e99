import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import Fastify, { type FastifyInstance } from 'fastify';
import { dispatchLocally, type LocalRequest } from '../../platform/local-dispatch.ts';

/**
 * Fastify `inject` (light-my-request), which tests and the layer bench use: patched to compile its
 * raw-header patterns once (patches/); with `validate: false` it answers what a validated inject does.
 */
function app() {
  const server = Fastify();
  server.get('/answer/:id', async (request, reply) =>
    reply.header('etag', '"1"').send({ id: (request.params as { id: string }).id, eligible: true }),
  );
  return server;
}

const request = { method: 'GET' as const, url: '/answer/v-1', headers: { accept: 'application/json' } };

describe('in-memory dispatch (Fastify inject)', () => {
  const NativeRegExp = globalThis.RegExp;
  afterEach(() => {
    globalThis.RegExp = NativeRegExp;
  });

  it('answers the same status, body and headers, raw date and connection included, without the option check', async () => {
    const server = app();
    const checked = await server.inject(request);
    const unchecked = await server.inject({ ...request, validate: false });
    expect(unchecked.statusCode).toBe(200);
    expect(unchecked.body).toBe(checked.body);
    expect(JSON.parse(unchecked.body)).toEqual({ id: 'v-1', eligible: true });
    const { date: checkedDate, ...checkedRest } = checked.headers;
    const { date, ...rest } = unchecked.headers;
    expect(rest).toEqual(checkedRest);
    expect(rest).toMatchObject({ connection: 'keep-alive', etag: '"1"' });
    expect(typeof date).toBe('string');
    expect(Number.isNaN(Date.parse(date as string))).toBe(false);
    expect(typeof checkedDate).toBe('string');
    await server.close();
  });

  it('builds no raw-header pattern per answer (before the patch: one per raw header, per answer)', async () => {
    const server = app();
    await server.inject(request);
    let rawHeaderPatterns = 0;
    globalThis.RegExp = new Proxy(NativeRegExp, {
      construct(target, args: [string | RegExp, string?]) {
        if (String(args[0]).includes('Date: ') || String(args[0]).includes('Connection: ')) rawHeaderPatterns += 1;
        return Reflect.construct(target, args);
      },
    });
    for (let index = 0; index < 10; index += 1) {
      expect((await server.inject({ ...request, validate: false })).statusCode).toBe(200);
    }
    globalThis.RegExp = NativeRegExp;
    expect(rawHeaderPatterns).toBe(0);
    await server.close();
  });
});

/**
 * The platform's in-memory service call (`runtime.local`): the app's router handed a minimal request
 * and response. Each answer must be inject's: status, the route's headers, body; hooks, validation,
 * error handling and 404 run as they do for inject.
 */
function routedApp(): { server: FastifyInstance; finished: string[] } {
  const finished: string[] = [];
  const server = Fastify();
  server.addHook('onRequest', async (request, reply) => {
    if (request.headers.authorization !== 'Bearer good') {
      return reply.code(401).type('application/problem+json').send({ code: 'unauthenticated' });
    }
  });
  server.addHook('onSend', async (request, reply) => {
    reply.header('x-seen', `${request.method} ${request.headers['user-agent']} ${request.headers.host} ${request.ip}`);
  });
  server.addHook('onResponse', async (request, reply) => {
    finished.push(`${request.url} ${reply.statusCode}`);
  });
  server.get(
    '/answer/:id',
    { schema: { params: { type: 'object', properties: { id: { type: 'string', minLength: 3 } } } } },
    async (request, reply) =>
      reply.header('etag', '"1"').send({ id: (request.params as { id: string }).id, query: request.query }),
  );
  server.post(
    '/echo',
    { schema: { body: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } } } },
    async (request, reply) => reply.code(201).header('location', '/echo/1').send(request.body),
  );
  server.get('/nothing', async (_request, reply) => reply.code(204).send());
  server.get('/text', async (_request, reply) => reply.type('text/plain; charset=utf-8').send('plain é'));
  server.get('/refused', async () => {
    throw Object.assign(new Error('not yours'), { statusCode: 403 });
  });
  server.get('/broken', async () => {
    throw new Error('boom');
  });
  server.get('/buffer', async (_request, reply) => reply.type('application/octet-stream').send(Buffer.from('bytes')));
  server.get('/destroyed', (_request, reply) => {
    reply.raw.destroy();
  });
  return { server, finished };
}

/** An answer's headers without HTTP/1's hop-by-hop ones (date, connection), which only inject's emulated socket writes. */
function routeHeaders(headers: Record<string, unknown>) {
  const { date: _date, connection: _connection, 'keep-alive': _keepAlive, ...rest } = headers;
  return rest;
}

describe('in-memory dispatch through the router (platform/local-dispatch.ts)', () => {
  const good = { authorization: 'Bearer good', accept: 'application/json' };
  const requests: LocalRequest[] = [
    { method: 'GET', url: `/answer/${randomUUID()}?page=2&tag=a&tag=b`, headers: good },
    { method: 'GET', url: '/answer/ab', headers: good },
    { method: 'GET', url: '/answer/abc', headers: { accept: 'application/json' } },
    { method: 'GET', url: '/answer/abc', headers: { ...good, Authorization: 'Bearer good', 'X-Request-Id': 'r-1' } },
    {
      method: 'POST',
      url: '/echo',
      headers: { ...good, 'content-type': 'application/json' },
      payload: JSON.stringify({ name: `n-${randomUUID()}é` }),
    },
    { method: 'POST', url: '/echo', headers: { ...good, 'content-type': 'application/json' }, payload: '{"name":' },
    { method: 'POST', url: '/echo', headers: { ...good, 'content-type': 'application/json' }, payload: '{}' },
    { method: 'POST', url: '/echo', headers: { ...good, 'content-type': 'text/csv' }, payload: 'a,b' },
    { method: 'GET', url: '/nothing', headers: good },
    { method: 'GET', url: '/text', headers: good },
    { method: 'GET', url: '/refused', headers: good },
    { method: 'GET', url: '/broken', headers: good },
    { method: 'GET', url: '/buffer', headers: good },
    { method: 'GET', url: '/nowhere', headers: good },
    { method: 'POST', url: '/answer/abc', headers: good },
  ];

  it.each(requests.map((request) => [`${request.method} ${request.url}`, request]))(
    '%s answers what inject answers',
    async (_name, request) => {
      const { server, finished } = routedApp();
      await server.ready();
      const injected = await server.inject({ ...request, validate: false });
      const routed = await dispatchLocally(server.routing, request);
      expect(routed.statusCode).toBe(injected.statusCode);
      expect(routed.body).toBe(injected.body);
      expect(routeHeaders(routed.headers)).toEqual(routeHeaders(injected.headers));
      expect(routed.headers.date).toBeUndefined();
      await new Promise((resolve) => setImmediate(resolve));
      // The onResponse hook ran for both, with the same status.
      expect(finished).toHaveLength(2);
      expect(finished[1]).toBe(finished[0]);
      await server.close();
    },
  );

  it('fails the call, as inject does, when the route destroys its response', async () => {
    const { server } = routedApp();
    await server.ready();
    const request: LocalRequest = { method: 'GET', url: '/destroyed', headers: good };
    await expect(server.inject(request)).rejects.toThrow('response destroyed before completion');
    await expect(dispatchLocally(server.routing, request)).rejects.toThrow('response destroyed before completion');
    await server.close();
  });

  it('answers concurrent calls each with its own answer', async () => {
    const { server } = routedApp();
    await server.ready();
    const ids = Array.from({ length: 20 }, () => randomUUID());
    const answers = await Promise.all(
      ids.map((id) => dispatchLocally(server.routing, { method: 'GET', url: `/answer/${id}`, headers: good })),
    );
    expect(answers.map((answer) => JSON.parse(answer.body).id)).toEqual(ids);
    await server.close();
  });
});
