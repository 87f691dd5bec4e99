import { afterEach, describe, expect, it } from 'vitest';
import Fastify from 'fastify';

/**
 * The in-memory service call (`runtime.local`, Fastify `inject`) as the pinned create uses it:
 * light-my-request patched to compile its raw-header patterns once (patches/), and the call's
 * options passed with `validate: false`. The answer must stay what a validated inject answers.
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
