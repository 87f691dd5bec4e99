import type { ApolloServerPlugin } from '@apollo/server';
import type { FastifyInstance } from 'fastify';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { DatabaseHandle } from './db.ts';

/**
 * Operator metrics in the Prometheus text format at GET /metrics. One registry per process (not
 * prom-client's global one), so several platforms in one test process never mix their figures.
 * Labels are route patterns and operation names, never raw URLs or ids: their number stays bounded
 * (operation names are the client's, so past MOST_OPERATION_NAMES new ones are counted as `(other)`).
 */

const MOST_OPERATION_NAMES = 500;
const OTHER_OPERATIONS = '(other)';
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

/** The answers of one pair of label values: counts by outcome, and latency by bucket (not cumulative). */
interface Tally<Outcome> {
  labels: Record<string, string>;
  outcomes: Map<Outcome, number>;
  buckets: number[];
  sum: number;
  count: number;
}

/**
 * Answers are tallied in plain maps and handed to prom-client only when /metrics is read: prom-client
 * validates and hashes the label set of every increment and observation, 2 to 3 us per request, more
 * than the rest of the bookkeeping of a read. Keyed by two label values: an HTTP method and route
 * pattern, or a GraphQL endpoint and operation name.
 */
class Tallies<Outcome> {
  readonly byLabels = new Map<string, Tally<Outcome>>();

  constructor(
    readonly labelNames: readonly [string, string],
    /** Where the second label's values are the client's: past `most` pairs, a new one is counted as `other`. */
    private readonly cap?: { most: number; other: string },
  ) {}

  count(first: string, second: string, outcome: Outcome, seconds: number): void {
    const tally = this.byLabels.get(`${first} ${second}`) ?? this.added(first, second);
    tally.outcomes.set(outcome, (tally.outcomes.get(outcome) ?? 0) + 1);
    const bucket = LATENCY_BUCKETS.findIndex((bound) => seconds <= bound);
    if (bucket >= 0) tally.buckets[bucket] += 1;
    tally.sum += seconds;
    tally.count += 1;
  }

  /** The tally a pair not seen before counts in: its own, or past the cap the `other` one. */
  private added(first: string, second: string): Tally<Outcome> {
    const value = this.cap && this.byLabels.size >= this.cap.most ? this.cap.other : second;
    const key = `${first} ${value}`;
    let tally = this.byLabels.get(key);
    if (tally === undefined) {
      const labels = { [this.labelNames[0]]: first, [this.labelNames[1]]: value };
      tally = { labels, outcomes: new Map(), buckets: LATENCY_BUCKETS.map(() => 0), sum: 0, count: 0 };
      this.byLabels.set(key, tally);
    }
    return tally;
  }
}

/** A counter of tallied answers by outcome and their latency histogram, written when /metrics is read. */
function talliedMetrics<Outcome>(
  registry: Registry,
  tallies: Tallies<Outcome>,
  metrics: { counter: MetricName; outcomeLabel: string; latency: MetricName },
): void {
  const { counter, outcomeLabel } = metrics;
  new Counter({
    name: counter.name,
    help: counter.help,
    labelNames: [...tallies.labelNames, outcomeLabel],
    registers: [registry],
    collect() {
      this.reset();
      for (const { labels, outcomes } of tallies.byLabels.values()) {
        for (const [outcome, answered] of outcomes) this.inc({ ...labels, [outcomeLabel]: String(outcome) }, answered);
      }
    },
  });
  new TalliedLatency(tallies, registry, metrics.latency);
}

interface MetricName {
  name: string;
  help: string;
}

/** A latency histogram of tallied answers, in the exposition prom-client writes for its own histograms. */
class TalliedLatency extends Histogram<string> {
  constructor(
    private readonly tallies: Tallies<unknown>,
    registry: Registry,
    private readonly metric: MetricName,
  ) {
    super({
      name: metric.name,
      help: metric.help,
      labelNames: tallies.labelNames,
      buckets: LATENCY_BUCKETS,
      registers: [registry],
    });
  }

  /** What prom-client writes the exposition from (and its JSON form, through `get`). */
  async getForPromString() {
    const { name, help } = this.metric;
    const values = [...this.tallies.byLabels.values()].flatMap(({ labels, buckets, sum, count }) => {
      let below = 0;
      return [
        ...LATENCY_BUCKETS.map((le, index) => {
          below += buckets[index];
          return { labels: { ...labels, le }, value: below, metricName: `${name}_bucket` };
        }),
        { labels: { ...labels, le: '+Inf' }, value: count, metricName: `${name}_bucket` },
        { labels, value: sum, metricName: `${name}_sum` },
        { labels, value: count, metricName: `${name}_count` },
      ];
    });
    return { name, help, type: 'histogram', values, aggregator: 'sum' };
  }
}

export class PlatformMetrics {
  readonly registry = new Registry();
  private readonly http = new Tallies<number>(['method', 'route']);
  private readonly problems = new Counter({
    name: 'problems_total',
    help: 'Errors answered, by problem code and transport (rest or graphql)',
    labelNames: ['code', 'transport'] as const,
    registers: [this.registry],
  });
  private readonly graphql = new Tallies<'ok' | 'error'>(['endpoint', 'operation'], {
    most: MOST_OPERATION_NAMES,
    other: OTHER_OPERATIONS,
  });
  /** Direct answers by endpoint (gateway/direct-queries.ts). */
  private readonly directAnswers = new Map<string, number>();

  constructor(database: DatabaseHandle) {
    collectDefaultMetrics({ register: this.registry });
    talliedMetrics(this.registry, this.http, {
      counter: { name: 'http_requests_total', help: 'HTTP requests answered, by method, route pattern and status' },
      outcomeLabel: 'status',
      latency: { name: 'http_request_duration_seconds', help: 'HTTP request latency, by method and route pattern' },
    });
    talliedMetrics(this.registry, this.graphql, {
      counter: {
        name: 'graphql_operations_total',
        help: 'GraphQL operations, by endpoint, operation name and outcome (ok or error)',
      },
      outcomeLabel: 'outcome',
      latency: {
        name: 'graphql_operation_duration_seconds',
        help: 'GraphQL operation latency, by endpoint and operation name',
      },
    });
    const directAnswers = this.directAnswers;
    new Counter({
      name: 'graphql_direct_answers_total',
      help: "Gateway queries answered without Apollo Server's request pipeline, a part of graphql_operations_total",
      labelNames: ['endpoint'] as const,
      registers: [this.registry],
      collect() {
        this.reset();
        for (const [endpoint, answered] of directAnswers) this.inc({ endpoint }, answered);
      },
    });
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
    this.directAnswers.set(endpoint, (this.directAnswers.get(endpoint) ?? 0) + 1);
    this.countGraphqlOperation(endpoint, operationName, started);
  }

  private countGraphqlOperation(
    endpoint: string,
    operationName: string | null | undefined,
    started: bigint,
    errors?: readonly { extensions?: Record<string, unknown> }[],
  ): void {
    const operation = operationName ?? 'anonymous';
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    this.graphql.count(endpoint, operation, errors?.length ? 'error' : 'ok', seconds);
    for (const error of errors ?? []) {
      this.problems.inc({ code: String(error.extensions?.code ?? 'INTERNAL_SERVER_ERROR'), transport: 'graphql' });
    }
  }
}
