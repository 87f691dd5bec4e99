import type { ApolloServerPlugin } from '@apollo/server';
import type { FastifyInstance } from 'fastify';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { DatabaseHandle } from './db.ts';

/**
 * Operator metrics in the Prometheus text format at GET /metrics. One registry per process (not
 * prom-client's global one), so several platforms in one test process never mix their figures.
 * Labels are route patterns and operation names, never raw URLs or ids: their number stays bounded.
 */

const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

/** The answers of one method and route pattern: counts by status, and latency by bucket (not cumulative). */
interface RouteTally {
  method: string;
  route: string;
  statuses: Map<number, number>;
  buckets: number[];
  sum: number;
  count: number;
}

/**
 * HTTP answers are tallied in plain maps and handed to prom-client only when /metrics is read:
 * prom-client validates and hashes the label set of every increment and observation, 2 to 3 us per
 * request, more than the rest of the bookkeeping of a read.
 */
class HttpTallies {
  readonly byRoute = new Map<string, RouteTally>();

  count(method: string, route: string, status: number, seconds: number): void {
    const key = `${method} ${route}`;
    let tally = this.byRoute.get(key);
    if (tally === undefined) {
      tally = { method, route, statuses: new Map(), buckets: LATENCY_BUCKETS.map(() => 0), sum: 0, count: 0 };
      this.byRoute.set(key, tally);
    }
    tally.statuses.set(status, (tally.statuses.get(status) ?? 0) + 1);
    const bucket = LATENCY_BUCKETS.findIndex((bound) => seconds <= bound);
    if (bucket >= 0) tally.buckets[bucket] += 1;
    tally.sum += seconds;
    tally.count += 1;
  }
}

const LATENCY_METRIC = 'http_request_duration_seconds';
const LATENCY_HELP = 'HTTP request latency, by method and route pattern';

/** http_request_duration_seconds in the exposition prom-client writes for its own histograms. */
class TalliedLatency extends Histogram<'method' | 'route' | 'le'> {
  constructor(
    private readonly tallies: HttpTallies,
    registry: Registry,
  ) {
    super({
      name: LATENCY_METRIC,
      help: LATENCY_HELP,
      labelNames: ['method', 'route'] as const,
      buckets: LATENCY_BUCKETS,
      registers: [registry],
    });
  }

  /** What prom-client writes the exposition from (and its JSON form, through `get`). */
  async getForPromString() {
    const name = LATENCY_METRIC;
    const values = [...this.tallies.byRoute.values()].flatMap(({ method, route, buckets, sum, count }) => {
      let below = 0;
      return [
        ...LATENCY_BUCKETS.map((le, index) => {
          below += buckets[index];
          return { labels: { method, route, le }, value: below, metricName: `${name}_bucket` };
        }),
        { labels: { method, route, le: '+Inf' }, value: count, metricName: `${name}_bucket` },
        { labels: { method, route }, value: sum, metricName: `${name}_sum` },
        { labels: { method, route }, value: count, metricName: `${name}_count` },
      ];
    });
    return { name, help: LATENCY_HELP, type: 'histogram', values, aggregator: 'sum' };
  }
}

export class PlatformMetrics {
  readonly registry = new Registry();
  private readonly http = new HttpTallies();
  private readonly problems = new Counter({
    name: 'problems_total',
    help: 'Errors answered, by problem code and transport (rest or graphql)',
    labelNames: ['code', 'transport'] as const,
    registers: [this.registry],
  });
  private readonly graphqlOperations = new Counter({
    name: 'graphql_operations_total',
    help: 'GraphQL operations, by endpoint, operation name and outcome (ok or error)',
    labelNames: ['endpoint', 'operation', 'outcome'] as const,
    registers: [this.registry],
  });
  private readonly directAnswers = new Counter({
    name: 'graphql_direct_answers_total',
    help: "Gateway queries answered without Apollo Server's request pipeline, a part of graphql_operations_total",
    labelNames: ['endpoint'] as const,
    registers: [this.registry],
  });
  private readonly graphqlSeconds = new Histogram({
    name: 'graphql_operation_duration_seconds',
    help: 'GraphQL operation latency, by endpoint and operation name',
    labelNames: ['endpoint', 'operation'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });

  constructor(database: DatabaseHandle) {
    collectDefaultMetrics({ register: this.registry });
    const http = this.http;
    new Counter({
      name: 'http_requests_total',
      help: 'HTTP requests answered, by method, route pattern and status',
      labelNames: ['method', 'route', 'status'] as const,
      registers: [this.registry],
      collect() {
        this.reset();
        for (const { method, route, statuses } of http.byRoute.values()) {
          for (const [status, answered] of statuses) this.inc({ method, route, status: String(status) }, answered);
        }
      },
    });
    new TalliedLatency(http, this.registry);
    new Counter({
      name: 'db_statements_total',
      help: 'SQL statements sent to the database',
      registers: [this.registry],
      collect() {
        this.reset();
        this.inc(database.stats.queries);
      },
    });
    new Gauge({
      name: 'db_pool_max_connections',
      help: 'Connections each database pool may open: writes (and transactions), reads outside a transaction (PGlite: one, in process)',
      labelNames: ['driver', 'pool'] as const,
      registers: [this.registry],
      collect() {
        this.set({ driver: database.driver, pool: 'writes' }, database.pool.max);
        this.set({ driver: database.driver, pool: 'reads' }, database.pool.readMax);
      },
    });
    new Gauge({
      name: 'db_transactions_in_flight',
      help: 'Transactions holding a pool connection right now',
      labelNames: ['driver'] as const,
      registers: [this.registry],
      collect() {
        this.set({ driver: database.driver }, database.pool.transactionsInFlight);
      },
    });
  }

  /** Counts every HTTP answer of the process and serves GET /metrics. */
  install(app: FastifyInstance): void {
    app.addHook('onResponse', (request, reply, done) => {
      const route = request.routeOptions.url ?? 'unmatched';
      this.http.count(request.method, route, reply.statusCode, reply.elapsedTime / 1000);
      if (reply.problemCode) this.problems.inc({ code: reply.problemCode, transport: 'rest' });
      done();
    });
    app.get('/metrics', { schema: { hide: true } }, async (_request, reply) =>
      reply.type(this.registry.contentType).send(await this.registry.metrics()),
    );
  }

  /** Counts the operations of one GraphQL endpoint (the gateway, or a subgraph served alone). */
  graphqlPlugin(endpoint: string): ApolloServerPlugin {
    return {
      requestDidStart: async () => {
        const started = process.hrtime.bigint();
        return {
          willSendResponse: async ({ operationName, errors }) =>
            this.countGraphqlOperation(endpoint, operationName, started, errors),
        };
      },
    };
  }

  /** Counts a gateway query answered without Apollo Server's request pipeline (gateway/direct-queries.ts). */
  countDirectGraphqlOperation(endpoint: string, operationName: string | null, started: bigint): void {
    this.directAnswers.inc({ endpoint });
    this.countGraphqlOperation(endpoint, operationName, started);
  }

  private countGraphqlOperation(
    endpoint: string,
    operationName: string | null | undefined,
    started: bigint,
    errors?: readonly { extensions?: Record<string, unknown> }[],
  ): void {
    const operation = operationName ?? 'anonymous';
    this.graphqlOperations.inc({ endpoint, operation, outcome: errors?.length ? 'error' : 'ok' });
    this.graphqlSeconds.observe({ endpoint, operation }, Number(process.hrtime.bigint() - started) / 1e9);
    for (const error of errors ?? []) {
      this.problems.inc({ code: String(error.extensions?.code ?? 'INTERNAL_SERVER_ERROR'), transport: 'graphql' });
    }
  }
}
