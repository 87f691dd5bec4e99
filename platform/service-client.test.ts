import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { allInOrder, callService, type LocalDispatch } from './service-client.ts';

/** A dispatcher for this process's own origin; nothing listens there, so a socket call would fail. */
function localApp(answer: LocalDispatch['dispatch']): LocalDispatch & { seen: unknown[] } {
  const seen: unknown[] = [];
  return {
    origin: 'http://127.0.0.1:9',
    seen,
    dispatch: (request) => {
      seen.push(request);
      return answer(request);
    },
  };
}

describe('callService to a service hosted in this process', () => {
  it('sends the same request through the app in memory and reads its answer', async () => {
    const local = localApp(async () => ({ statusCode: 404, body: '{"code":"content.not_found"}' }));
    const result = await callService(
      'http://127.0.0.1:9/content/items/x?a=1',
      { method: 'POST', body: { b: 2 }, headers: { authorization: 'Bearer t' }, timeoutMs: 500 },
      local,
    );
    expect(result).toEqual({ ok: true, status: 404, body: { code: 'content.not_found' } });
    expect(local.seen).toEqual([
      {
        method: 'POST',
        url: '/content/items/x?a=1',
        headers: {
          accept: 'application/json, application/problem+json',
          'content-type': 'application/json',
          authorization: 'Bearer t',
        },
        payload: '{"b":2}',
      },
    ]);
  });

  it('fails closed as over HTTP: a timeout, a failure, a body that is not JSON', async () => {
    const slow = localApp(() => new Promise(() => {}));
    const started = Date.now();
    expect(await callService('http://127.0.0.1:9/x', { timeoutMs: 50 }, slow)).toEqual({ ok: false, kind: 'timeout' });
    expect(Date.now() - started).toBeLessThan(1000);
    const failing = localApp(async () => {
      throw new Error('route crashed');
    });
    expect(await callService('http://127.0.0.1:9/x', { timeoutMs: 500 }, failing)).toEqual({
      ok: false,
      kind: 'unavailable',
      reason: 'route crashed',
    });
    const html = localApp(async () => ({ statusCode: 502, body: '<html>bad gateway</html>' }));
    expect(await callService('http://127.0.0.1:9/x', { timeoutMs: 500 }, html)).toEqual({
      ok: false,
      kind: 'malformed',
      status: 502,
    });
  });

  it('calls any other origin over HTTP', async () => {
    const server = http.createServer((_request, response) => {
      response.setHeader('content-type', 'application/json');
      response.end('{"over":"http"}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const local = localApp(async () => {
        throw new Error('dispatched in memory');
      });
      const { port } = server.address() as AddressInfo;
      expect(await callService(`http://127.0.0.1:${port}/x`, { timeoutMs: 2000 }, local)).toEqual({
        ok: true,
        status: 200,
        body: { over: 'http' },
      });
      expect(local.seen).toEqual([]);
    } finally {
      server.close();
    }
  });
});

describe('allInOrder', () => {
  const after = <T>(ms: number, settle: () => T) =>
    new Promise<T>((resolve) => setTimeout(() => resolve(settle()), ms));

  it('answers every call in argument order', async () => {
    expect(await allInOrder([after(20, () => 'slow'), after(1, () => 2), Promise.resolve(null)])).toEqual([
      'slow',
      2,
      null,
    ]);
  });

  it('throws the first failure in argument order, not the first to arrive', async () => {
    const first = new Error('first');
    const fast = after(1, () => Promise.reject(new Error('fast')));
    const slow = after(30, () => Promise.reject(first));
    await expect(allInOrder([Promise.resolve(1), slow, fast])).rejects.toBe(first);
  });
});
