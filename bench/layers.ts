import { createRequire } from 'node:module';
import path from 'node:path';
import { PerformanceObserver } from 'node:perf_hooks';
import { ApolloGateway } from '@apollo/gateway';
import { Authenticator, DEMO_ROLES, DEMO_SCOPES, loadKeyring } from '../platform/auth.ts';
import { SERVICE_ROOTS } from '../platform/config.ts';
import { LocalSubgraphDataSource } from '../platform/graphql.ts';
import { startTestPlatform } from '../test/kit.ts';
import { HEADLINE_BODY, LESSON_ID, benchHeaders } from './headline.ts';

/**
 * `npm run bench:layers`: the CPU time of one headline request, layer by layer, against the REST
 * component read, in-process (`app.inject`, one request after another, `process.cpuUsage()` around
 * each layer), so a busy machine disturbs it less than a throughput bench. Run with
 * NODE_ENV=production (graphql-js checks `instanceof` the slow way otherwise). COUNT requests a
 * round, ROUNDS rounds; DATABASE_URL measures PostgreSQL (the statement layer is PGlite's only).
 */
type Async = (...args: unknown[]) => Promise<unknown>;

const spent = new Map<string, number>();
const cpuNow = () => {
  const usage = process.cpuUsage();
  return usage.user + usage.system;
};
const add = (layer: string, microseconds: number) => spent.set(layer, (spent.get(layer) ?? 0) + microseconds);

function measured(layer: string, run: Async): Async {
  return async function (this: unknown, ...args) {
    const start = cpuNow();
    try {
      return await run.apply(this, args);
    } finally {
      add(layer, cpuNow() - start);
    }
  };
}

/** Replaces `owner[name]` (an async function) by its measured self. */
function measure(owner: object, name: string, layer: string): void {
  const methods = owner as Record<string, Async>;
  methods[name] = measured(layer, methods[name]);
}

// Around the gateway's executor: the CPU before it starts and after it answers are the HTTP path, the
// route's direct answer or Apollo Server's pipeline (gateway/direct-queries.ts), and GC tasks.
let injectStarted = 0;
let executorAnswered = 0;
const gateway = ApolloGateway.prototype as unknown as Record<string, Async>;
const load = gateway.load;
gateway.load = async function (this: Record<string, Async>, ...args) {
  const loaded = (await load.apply(this, args)) as Record<string, unknown>;
  const executor = measured('executor', this.executor);
  this.executor = async (...request) => {
    add('before executor', cpuNow() - injectStarted);
    try {
      return await executor(...request);
    } finally {
      executorAnswered = cpuNow();
    }
  };
  return { ...loaded, executor: this.executor };
};
measure(createRequire(import.meta.url)('@apollo/gateway/dist/executeQueryPlan.js'), 'executeQueryPlan', 'plan');
measure(LocalSubgraphDataSource.prototype, 'process', 'subgraphs');

let gcMs = 0;
let pauses = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    gcMs += entry.duration;
    pauses += 1;
  }
}).observe({ entryTypes: ['gc'] });

const platform = await startTestPlatform({ seedDemo: true });
const client = (platform.runtime.database.db as unknown as { $client?: Record<string, Async> }).$client;
if (platform.runtime.database.driver === 'pglite' && client) measure(client, 'query', 'sql');
const auth = new Authenticator(await loadKeyring(path.join(platform.dataDir, 'platform-keys.json')), undefined);
const token = await auth.sign({ tenantId: 'demo', subject: 'user:bench', scopes: DEMO_SCOPES, roles: DEMO_ROLES });
const headers = benchHeaders(token);

async function headline(): Promise<void> {
  injectStarted = cpuNow();
  const reply = await platform.app.inject({ method: 'POST', url: '/graphql', headers, payload: HEADLINE_BODY });
  add('after executor', cpuNow() - executorAnswered);
  if (reply.statusCode !== 200 || reply.body.includes('"errors"')) throw new Error(reply.body);
}

async function restRead(): Promise<void> {
  const url = `${SERVICE_ROOTS.curriculum}/alpha/curriculum/v1/components/${LESSON_ID}`;
  const reply = await platform.app.inject({ method: 'GET', url, headers });
  if (reply.statusCode !== 200) throw new Error(reply.body);
}

/** Each layer without the layers inside it, in ms per request; "other" is what no layer holds. */
function exclusive(count: number, perRequest: number): string {
  const ms = (layer: string, ...inner: string[]) =>
    spent.has(layer)
      ? ((spent.get(layer) ?? 0) - inner.reduce((sum, name) => sum + (spent.get(name) ?? 0), 0)) / count / 1000
      : 0;
  const layers: Array<[string, number]> = [
    ['before executor', ms('before executor')],
    ['executor', ms('executor', 'plan')],
    ['plan', ms('plan', 'subgraphs')],
    ['subgraphs', ms('subgraphs', 'sql')],
    ['sql', ms('sql')],
    ['after executor', ms('after executor')],
  ];
  const other = perRequest - layers.reduce((sum, [, value]) => sum + value, 0);
  return [...layers, ['other', other] as [string, number]]
    .filter(([, value]) => value !== 0)
    .map(([name, value]) => `${name} ${value.toFixed(3)}`)
    .join('  ');
}

async function round(name: string, send: () => Promise<void>, count: number): Promise<number> {
  spent.clear();
  gcMs = 0;
  pauses = 0;
  const start = cpuNow();
  for (let index = 0; index < count; index += 1) await send();
  const perRequest = (cpuNow() - start) / count / 1000;
  const gc = `GC pauses ${(gcMs / count).toFixed(3)} ms (${pauses})`;
  console.log(`${name.padEnd(9)} ${perRequest.toFixed(3)} ms   ${exclusive(count, perRequest)}   ${gc}`);
  return perRequest;
}

const count = Number(process.env.COUNT ?? 1500);
try {
  await round('warm-up', headline, 500);
  await round('warm-up', restRead, 500);
  for (let index = 0; index < Number(process.env.ROUNDS ?? 4); index += 1) {
    const graph = await round('headline', headline, count);
    const rest = await round('REST read', restRead, count);
    console.log(`headline / REST read (CPU): ${(rest / graph).toFixed(2)}`);
  }
} finally {
  await platform.close();
}
