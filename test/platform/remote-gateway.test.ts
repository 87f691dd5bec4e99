import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../platform/config.ts';
import { startTestPlatform, type TestPlatform } from '../kit.ts';

/**
 * The gateway apart from the services (`SERVICE=gateway`), in front of subgraphs that fail: it waits at most
 * SUBGRAPH_TIMEOUT_MS for each, and a service that does not answer is a typed error, never internal_error.
 */
const opened: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const resource of opened.splice(0).reverse()) await resource.close();
});

/** A subgraph URL served by `handle` (which may never answer). */
async function fakeSubgraph(handle: http.RequestListener): Promise<string> {
  const server = http.createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  opened.push({
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;
}

async function gatewayOver(curriculum: string, env: Record<string, string> = {}): Promise<TestPlatform> {
  const platform = await startTestPlatform({
    services: [],
    gateway: { subgraphUrls: { curriculum, content: curriculum, events: curriculum } },
    env,
  });
  opened.push(platform);
  return platform;
}

async function askComponent(platform: TestPlatform) {
  const response = await fetch(`${platform.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: '{ component(componentId: "any") { componentId } }' }),
  });
  return { status: response.status, body: await response.json() };
}

describe('the remote gateway and failing subgraphs', () => {
  it('waits 30 s for a subgraph unless SUBGRAPH_TIMEOUT_MS says otherwise, and never for ever', () => {
    expect(loadConfig({}).subgraphTimeoutMs).toBe(30_000);
    expect(loadConfig({ SUBGRAPH_TIMEOUT_MS: '250' }).subgraphTimeoutMs).toBe(250);
    expect(() => loadConfig({ SUBGRAPH_TIMEOUT_MS: '0' })).toThrow(/SUBGRAPH_TIMEOUT_MS must be at least 1/);
  });

  it('answers subgraph_unavailable once a silent subgraph has had its time', async () => {
    const platform = await gatewayOver(await fakeSubgraph(() => {}), { SUBGRAPH_TIMEOUT_MS: '300' });
    const started = Date.now();
    const { status, body } = await askComponent(platform);
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    expect(status).toBe(200);
    expect(body).toEqual({
      data: { component: null },
      errors: [
        {
          message: 'The curriculum service did not answer within 300 ms.',
          extensions: { code: 'subgraph_unavailable', status: 503 },
        },
      ],
    });
  });

  it('asks a subgraph that stops answering once per request, however often the query was answered before', async () => {
    let fetches = 0;
    let answering = true;
    const subgraph = await fakeSubgraph((_request, response) => {
      fetches += 1;
      if (!answering) return;
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ data: { component: { componentId: 'any' } } }));
    });
    const platform = await gatewayOver(subgraph, { SUBGRAPH_TIMEOUT_MS: '300' });
    for (let time = 0; time < 2; time++) expect((await askComponent(platform)).body.errors).toBeUndefined();
    answering = false;
    const before = fetches;
    const { body } = await askComponent(platform);
    expect(body.errors[0].extensions.code).toBe('subgraph_unavailable');
    // A gateway apart answers every request through Apollo Server: a failed direct answer would be asked again.
    expect(fetches - before).toBe(1);
  });

  it('answers subgraph_unavailable for a subgraph that cannot be reached or answers a 5xx, without its address', async () => {
    const closed = await fakeSubgraph(() => {});
    await opened.pop()?.close();
    const unreachable = await askComponent(await gatewayOver(closed));
    expect(unreachable.body.errors).toEqual([
      {
        message: 'The curriculum service could not be reached.',
        extensions: { code: 'subgraph_unavailable', status: 503 },
      },
    ]);

    const failing = await fakeSubgraph((_request, response) => {
      response.writeHead(502, { 'content-type': 'text/plain' }).end('upstream of the subgraph failed');
    });
    const answered = await askComponent(await gatewayOver(failing));
    expect(answered.body.errors).toEqual([
      {
        message: 'The curriculum service answered HTTP 502.',
        extensions: { code: 'subgraph_unavailable', status: 503 },
      },
    ]);
    expect(JSON.stringify(answered.body)).not.toContain('127.0.0.1');
  });
});
