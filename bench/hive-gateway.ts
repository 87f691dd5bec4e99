import { setMaxListeners } from 'node:events';
import { createServer } from 'node:http';
import { createGatewayRuntime } from '@graphql-hive/gateway';

/**
 * The bench's Hive Gateway: the checked-in supergraph (SUPERGRAPH) served unchanged by another
 * federation engine, over the distributed services (SUBGRAPH_URLS, name=origin pairs as for
 * `SERVICE=gateway`), the caller's token passed on to every subgraph. By default Hive Gateway answers a
 * subgraph fetch that is the same as one in flight (query, variables, headers) with that one's answer;
 * HIVE_SHARE_INFLIGHT=false turns it off, which is how the platform's own gateway always works.
 */
// Every subgraph fetch in flight listens on one long-lived abort signal of Hive's runtime: the bench's
// connections (CONNECTIONS), two fetches each, pass Node's warning threshold of 10 listeners with no leak.
setMaxListeners(2 * Number(process.env.CONNECTIONS ?? 64));
const origins = (process.env.SUBGRAPH_URLS ?? '').split(',').map((pair) => pair.split('='));
const deduplicateInflightRequests = process.env.HIVE_SHARE_INFLIGHT !== 'false';
const gateway = createGatewayRuntime({
  supergraph: process.env.SUPERGRAPH as string,
  transportEntries: Object.fromEntries(
    origins.map(([name, origin]) => [
      name,
      { location: `${origin}/graphql`, options: { deduplicateInflightRequests } },
    ]),
  ),
  propagateHeaders: {
    fromClientToSubgraphs: ({ request }) => ({ authorization: request.headers.get('authorization') }),
  },
  logging: 'error',
});
const server = createServer(gateway);
server.listen(Number(process.env.PORT), '127.0.0.1');
process.on('SIGTERM', () => {
  server.close();
  void Promise.resolve(gateway.dispose()).then(() => process.exit(0));
});
