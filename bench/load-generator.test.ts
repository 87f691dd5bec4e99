import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import autocannon from 'autocannon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The bench's load generator keeps a response's body only for what reads it (patches/autocannon+8.0.0.patch):
 * the bench reads none, and decoding every answer into a string cost the load generator CPU that grew with the
 * answers' size (docs/performance-history.md, the fortieth pass).
 */
const BODY = JSON.stringify({ data: 'x'.repeat(200_000) });

interface ClientInternals {
  pipelinedRequests: { addBody(data: Buffer): void };
}

let server: http.Server;
let url: string;

beforeAll(async () => {
  server = http.createServer((_request, response) => {
    response.setHeader('content-type', 'application/json');
    response.end(BODY);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** Runs `amount` requests on one connection; counts the body chunks the client kept. */
async function run(options: Partial<autocannon.Options>): Promise<{ kept: number; result: autocannon.Result }> {
  let kept = 0;
  const result = await autocannon({
    url,
    connections: 1,
    amount: 3,
    setupClient: (client) => {
      const { pipelinedRequests } = client as unknown as ClientInternals;
      const addBody = pipelinedRequests.addBody.bind(pipelinedRequests);
      pipelinedRequests.addBody = (data) => {
        kept += 1;
        addBody(data);
      };
    },
    ...options,
  });
  return { kept, result };
}

describe("the bench's load generator", () => {
  it('keeps no body when nothing reads it, and still counts every answer and its bytes', async () => {
    const { kept, result } = await run({});
    expect(kept).toBe(0);
    expect(result['2xx']).toBe(3);
    expect(result.throughput.total).toBeGreaterThan(3 * BODY.length);
  });

  it("hands a request's onResponse the whole body, however many chunks it came in", async () => {
    const bodies: string[] = [];
    const { kept } = await run({
      requests: [{ method: 'GET', onResponse: (_status: number, body: string) => void bodies.push(body) }],
    });
    expect(bodies).toEqual([BODY, BODY, BODY]);
    expect(kept).toBeGreaterThan(3);
  });

  it('checks bodies against verifyBody and expectBody', async () => {
    const verified = await run({ verifyBody: (body) => body === BODY });
    expect(verified.result.mismatches).toBe(0);
    expect(verified.kept).toBeGreaterThan(0);
    const expected = await run({ expectBody: 'something else' });
    expect(expected.result.mismatches).toBe(3);
  });
});
