import net from 'node:net';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { rawExchange } from '../test/net.ts';
import { createHttpApp, declareRoute, preferredReturn } from './http.ts';

/** A route whose handler answers a member its response schema does not declare. */
async function answerWithUndeclaredMember(answerChecks: boolean | undefined) {
  const app = createHttpApp({ logLevel: 'silent', publicOrigin: () => 'http://localhost', answerChecks });
  declareRoute(app, 'test', {
    method: 'GET',
    url: '/thing',
    summary: 'A thing',
    public: true,
    response: z.strictObject({ name: z.string() }),
    handler: async () => ({ name: 'a', extra: 1 }),
  });
  const reply = await app.inject({ method: 'GET', url: '/thing' });
  await app.close();
  return reply;
}

describe('declareRoute answer checks', () => {
  it('refuses to send a 2xx body its response schema does not describe, by default and when on', async () => {
    for (const answerChecks of [undefined, true]) {
      const reply = await answerWithUndeclaredMember(answerChecks);
      expect([reply.statusCode, reply.json().code]).toEqual([500, 'internal_error']);
    }
  });

  it('sends the body as the route built it when off (production)', async () => {
    const reply = await answerWithUndeclaredMember(false);
    expect([reply.statusCode, reply.json()]).toEqual([200, { name: 'a', extra: 1 }]);
  });
});

describe('preferredReturn (RFC 7240)', () => {
  it('reads return among other preferences, their parameters, quotes, case and repeated headers', () => {
    expect(preferredReturn('return=minimal')).toBe('minimal');
    expect(preferredReturn('respond-async, wait=10, RETURN = "Minimal"; x=y')).toBe('minimal');
    expect(preferredReturn(['respond-async', 'return=representation'])).toBe('representation');
    expect(preferredReturn('return=minimal, return=minimal')).toBe('minimal');
  });

  it('ignores what it does not know, and a return stated two ways', () => {
    for (const header of [undefined, '', 'respond-async', 'return=everything', 'return-minimal', 'x-return=minimal']) {
      expect(preferredReturn(header)).toBeUndefined();
    }
    expect(preferredReturn('return=minimal, return=representation')).toBeUndefined();
  });
});

describe('trace ids', () => {
  it('are 32 random hex digits, new for every request without a traceparent, across entropy batches', async () => {
    const app = createHttpApp({ logLevel: 'silent', publicOrigin: () => 'http://localhost' });
    const traceIds = new Set<string>();
    for (let index = 0; index < 600; index += 1) {
      const reply = await app.inject({ method: 'GET', url: '/nowhere' });
      traceIds.add(reply.json().traceId);
    }
    const given = await app.inject({
      method: 'GET',
      url: '/nowhere',
      headers: { traceparent: `00-${'ab'.repeat(16)}-${'cd'.repeat(8)}-01` },
    });
    await app.close();
    expect(traceIds.size).toBe(600);
    expect([...traceIds].every((id) => /^[0-9a-f]{32}$/.test(id))).toBe(true);
    expect(given.json().traceId).toBe('ab'.repeat(16));
  });
});

describe('request logging', () => {
  it('writes the lines of enabled levels only, each with the request id and the trace id', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const logStream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(JSON.parse(chunk.toString()));
        done();
      },
    });
    const app = createHttpApp({ logLevel: 'warn', publicOrigin: () => 'http://localhost', logStream });
    app.get('/logs', async (request) => {
      request.log.info('not written at warn');
      request.log.warn({ detail: 1 }, 'written');
      return request.log.level;
    });
    const traceId = 'ef'.repeat(16);
    const reply = await app.inject({
      method: 'GET',
      url: '/logs',
      headers: { 'x-request-id': 'req-1', traceparent: `00-${traceId}-${'cd'.repeat(8)}-01` },
    });
    await app.close();
    expect(reply.body).toBe('warn');
    expect(lines.map(({ msg, reqId, traceId: trace, detail }) => ({ msg, reqId, traceId: trace, detail }))).toEqual([
      { msg: 'written', reqId: 'req-1', traceId, detail: 1 },
    ]);
  });
});

describe('requests the HTTP parser refuses', () => {
  /** Sends raw bytes to an app with two routes at /thing and reads its answer. */
  async function exchange(raw: string, requestTimeoutMs?: number, logStream?: Writable) {
    const app = createHttpApp({
      logLevel: logStream ? 'warn' : 'silent',
      publicOrigin: () => 'http://localhost',
      requestTimeoutMs,
      logStream,
    });
    app.post('/thing', async () => ({ name: 'a' }));
    app.get('/thing', async () => ({ name: 'a' }));
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as net.AddressInfo;
    try {
      return await rawExchange(port, raw);
    } finally {
      await app.close();
    }
  }

  it('answers a request line over the limit with a 431 problem', async () => {
    const { statusLine, head, problem } = await exchange(
      `GET /thing?q=${'a'.repeat(20_000)} HTTP/1.1\r\nhost: x\r\n\r\n`,
    );
    expect(statusLine).toBe('HTTP/1.1 431 Request Header Fields Too Large');
    expect(head).toContain('content-type: application/problem+json');
    expect(problem).toMatchObject({
      status: 431,
      code: 'headers_too_large',
      type: 'http://localhost/problems/headers_too_large',
    });
    expect(problem.requestId).toEqual(expect.any(String));
  });

  it('answers headers that do not arrive in time with a 408 problem', async () => {
    const started = Date.now();
    const { statusLine, head, problem } = await exchange('GET /thing HTTP/1.1\r\nhost: x\r\n', 200);
    expect(statusLine).toBe('HTTP/1.1 408 Request Timeout');
    expect(head).toContain('content-type: application/problem+json');
    expect(problem).toMatchObject({ status: 408, code: 'request_timeout' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(200);
  });

  it('answers a body that does not arrive in time with a 408 problem, and logs no fault of its own', async () => {
    const levels: number[] = [];
    const logStream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        levels.push(JSON.parse(chunk.toString()).level);
        done();
      },
    });
    const { statusLine, problem } = await exchange(
      'POST /thing HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 20\r\n\r\n{"name":',
      200,
      logStream,
    );
    expect(statusLine).toBe('HTTP/1.1 408 Request Timeout');
    expect(problem).toMatchObject({ status: 408, code: 'request_timeout' });
    // The abandoned body reaches the route's error handler once the connection is gone: a client's doing.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(levels.filter((level) => level >= 50)).toEqual([]);
  });

  it('answers bytes that are not HTTP with a 400 problem', async () => {
    const { statusLine, problem } = await exchange('NOT HTTP AT ALL\r\n\r\n');
    expect(statusLine).toBe('HTTP/1.1 400 Bad Request');
    expect(problem).toMatchObject({ status: 400, code: 'validation_failed' });
  });
});
