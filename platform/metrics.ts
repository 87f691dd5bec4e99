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

export class PlatformMetrics {
  readonly registry = new Registry();
  private readonly requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });
  private readonly requestSeconds = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency, by method and route pattern',
    labelNames: ['method', 'route'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });
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
  private readonly graphqlSeconds = new Histogram({
    name: 'graphql_operation_duration_seconds',
    help: 'GraphQL operation latency, by endpoint and operation name',
    labelNames: ['endpoint', 'operation'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });

  constructor(database: DatabaseHandle) {
    collectDefaultMetrics({ register: this.registry });
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
      help: 'Connections the database pool may open (PGlite: one, in process)',
      labelNames: ['driver'] as const,
      registers: [this.registry],
      collect() {
        this.set({ driver: database.driver }, database.pool.max);
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
    app.addHook('onResponse', async (request, reply) => {
      const route = request.routeOptions.url ?? 'unmatched';
      this.requests.inc({ method: request.method, route, status: String(reply.statusCode) });
      this.requestSeconds.observe({ method: request.method, route }, reply.elapsedTime / 1000);
      if (reply.problemCode) this.problems.inc({ code: reply.problemCode, transport: 'rest' });
    });
    app.get('/metrics', { schema: { hide: true } }, async (_request, reply) =>
      reply.type(this.registry.contentType).send(await this.registry.metrics()),
    );
  }

  /** Counts the operations of one GraphQL endpoint (the gateway, or a subgraph served alone). */
  graphqlPlugin(endpoint: string): ApolloServerPlugin {
    const { graphqlOperations, graphqlSeconds, problems } = this;
    return {
      async requestDidStart() {
        const started = process.hrtime.bigint();
        return {
          async willSendResponse({ operationName, errors }) {
            const operation = operationName ?? 'anonymous';
            graphqlOperations.inc({ endpoint, operation, outcome: errors?.length ? 'error' : 'ok' });
            graphqlSeconds.observe({ endpoint, operation }, Number(process.hrtime.bigint() - started) / 1e9);
            for (const error of errors ?? []) {
              problems.inc({ code: String(error.extensions?.code ?? 'INTERNAL_SERVER_ERROR'), transport: 'graphql' });
            }
          },
        };
      },
    };
  }
}
