import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ApolloServer } from '@apollo/server';
import type { ApolloServerOptions, ApolloServerPlugin } from '@apollo/server';
import { ApolloServerPluginLandingPageLocalDefault } from '@apollo/server/plugin/landingPage/default';
import {
  ApolloServerPluginCacheControlDisabled,
  ApolloServerPluginInlineTraceDisabled,
  ApolloServerPluginLandingPageDisabled,
  ApolloServerPluginSchemaReportingDisabled,
  ApolloServerPluginUsageReportingDisabled,
} from '@apollo/server/plugin/disabled';
import { ApolloGateway, RemoteGraphQLDataSource, type GraphQLDataSource } from '@apollo/gateway';
import { fastifyApolloHandler } from '@as-integrations/fastify';
import httpProxy from '@fastify/http-proxy';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { GraphQLSchema } from 'graphql';
import { Authenticator, loadKeyring } from '../platform/auth.ts';
import { loadConfig, SERVICE_ROOTS, type PlatformConfig, type ServiceName } from '../platform/config.ts';
import { CursorCodec } from '../platform/cursor.ts';
import { noDatabase, openDatabase } from '../platform/db.ts';
import { DomainError } from '../platform/errors.ts';
import {
  formatGatewayError,
  formatGraphQLError,
  graphContextFrom,
  guardEntityRepresentations,
  LocalSubgraphDataSource,
  type GraphContext,
} from '../platform/graphql.ts';
import { documentSizeGuard, queryLimitsPlugin } from '../platform/graphql-limits.ts';
import { createHttpApp } from '../platform/http.ts';
import { refuseUnstorableTextInGraphql } from '../platform/input-safety.ts';
import { PlatformMetrics } from '../platform/metrics.ts';
import { mountService, serviceAddresses, type PlatformRuntime, type ServiceDefinition } from '../platform/service.ts';
import { contentService } from '../subgraphs/content/server.ts';
import { curriculumService } from '../subgraphs/curriculum/server.ts';
import { eventsService } from '../subgraphs/events/server.ts';
import { mountPeopleStandIn } from '../subgraphs/people/standin.ts';
import { DirectQueries } from './direct-queries.ts';
import { mountGraphiql } from './graphiql.ts';
import { seedDemoTenant } from './seed.ts';
import { dispatchLocally } from '../platform/local-dispatch.ts';

/**
 * Builds one process of the platform. The same code runs the embedded default (every service and
 * the gateway in one process, subgraphs reached without a network hop) and the distributed shape
 * (each service alone; a gateway process given their URLs). Only configuration chooses.
 */

export const ALL_SERVICES: ServiceName[] = ['curriculum', 'content', 'events'];
export const SUPERGRAPH_PATH = fileURLToPath(new URL('../schema/supergraph.graphql', import.meta.url));

const SERVICE_FACTORIES: Record<ServiceName, (runtime: PlatformRuntime) => ServiceDefinition> = {
  curriculum: curriculumService,
  content: contentService,
  events: eventsService,
};

export interface PlatformOptions {
  env?: NodeJS.ProcessEnv;
  /** Overrides of the configuration read from env. */
  config?: Partial<PlatformConfig>;
  /** Services hosted by this process. */
  services?: ServiceName[];
  /** Run the people-service stand-in at /people (the embedded default does; production uses PEOPLE_URL). */
  peopleStandIn?: boolean;
  /** Serve the supergraph at /graphql; subgraphs not hosted here are reached at these URLs. */
  gateway?: { subgraphUrls?: Partial<Record<ServiceName, string>>; restUrls?: Partial<Record<ServiceName, string>> };
}

export interface RunningPlatform {
  app: FastifyInstance;
  url: string;
  runtime: PlatformRuntime;
  close(): Promise<void>;
}

export async function startPlatform(options: PlatformOptions = {}): Promise<RunningPlatform> {
  const env = options.env ?? process.env;
  const base = loadConfig(env);
  const config: PlatformConfig = { ...base, ...options.config };
  const hosted = options.services ?? ALL_SERVICES;
  const database = hosted.length > 0 ? await openDatabase(config) : noDatabase();
  let ready = false;
  try {
    for (const service of hosted) await database.migrate(service);
  } catch (error) {
    await database.close();
    throw error;
  }
  const keyring = await loadKeyring(config.keyFile);
  const runtime: PlatformRuntime = {
    config,
    database,
    keyring,
    auth: new Authenticator(keyring, config.remoteTokens),
    cursors: new CursorCodec(keyring.cursorSecret),
  };
  const services = hosted.map((name) => SERVICE_FACTORIES[name](runtime));
  for (const service of services) guardEntityRepresentations(service.schema);
  const app = createHttpApp({
    logLevel: config.logLevel,
    publicOrigin: () => runtime.config.publicOrigin,
    answerChecks: config.answerChecks,
    requestTimeoutMs: config.requestTimeoutMs,
  });
  const metrics = new PlatformMetrics(database);
  metrics.install(app);

  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
    try {
      await database.ping();
    } catch {
      return reply.code(503).send({ status: 'unavailable', database: 'unreachable' });
    }
    return ready ? { status: 'ready', services: hosted } : reply.code(503).send({ status: 'starting' });
  });

  for (const service of services) await mountService(app, runtime, service);
  if (options.peopleStandIn ?? (hosted.length === ALL_SERVICES.length && !env.PEOPLE_URL)) {
    await mountPeopleStandIn(app, runtime);
  }

  if (options.gateway) {
    await mountGateway(app, runtime, services, options.gateway.subgraphUrls ?? {}, metrics);
    mountGraphiql(app);
    for (const [name, url] of Object.entries(options.gateway.restUrls ?? {})) {
      await app.register(httpProxy, {
        upstream: url,
        prefix: SERVICE_ROOTS[name as ServiceName],
        rewritePrefix: SERVICE_ROOTS[name as ServiceName],
      });
    }
  } else if (services.length === 1) {
    await mountSubgraph(app, runtime, services[0], metrics);
  }
  const restServices = [...hosted, ...(Object.keys(options.gateway?.restUrls ?? {}) as ServiceName[])];
  // The address a new user opens first: where each API and its description lives.
  app.get('/', { schema: { hide: true } }, async () => ({
    services: restServices.map((name) => ({ service: name, ...serviceAddresses(SERVICE_ROOTS[name]) })),
    ...(options.gateway ? { graphql: '/graphql', graphiql: '/graphiql' } : {}),
    health: '/healthz',
    readiness: '/readyz',
    problems: '/problems',
  }));

  await app.listen({ port: config.port, host: config.host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const url = `http://${config.host}:${port}`;
  // Service-to-service calls go to where this process really listens (PORT may have been 0).
  const ownRoots = [
    ['contentUrl', 'CONTENT_URL', SERVICE_ROOTS.content],
    ['eventsUrl', 'EVENTS_URL', SERVICE_ROOTS.events],
    ['peopleUrl', 'PEOPLE_URL', SERVICE_ROOTS.people],
    ['curriculumUrl', 'CURRICULUM_URL', SERVICE_ROOTS.curriculum],
  ] as const;
  for (const [key, variable, root] of ownRoots) {
    if (!env[variable] && !options.config?.[key]) runtime.config[key] = `${url}${root}`;
  }
  if (!env.PUBLIC_ORIGIN && !options.config?.publicOrigin) runtime.config.publicOrigin = url;
  runtime.local = {
    origin: url,
    dispatch: (request) => dispatchLocally(app.routing, request),
  };
  if (config.seedDemo && hosted.includes('content') && hosted.includes('curriculum')) {
    await seedDemoTenant(runtime);
  }
  await database.analyze();
  ready = true;

  return {
    app,
    url,
    runtime,
    async close() {
      ready = false;
      await app.close();
      await database.close();
    },
  };
}

/** The supergraph at /graphql: local subgraphs without a network hop, others over HTTP. */
async function mountGateway(
  app: FastifyInstance,
  runtime: PlatformRuntime,
  services: ServiceDefinition[],
  subgraphUrls: Partial<Record<ServiceName, string>>,
  metrics: PlatformMetrics,
): Promise<void> {
  const local = new Map(services.map((service) => [service.name, service]));
  const timeoutMs = runtime.config.subgraphTimeoutMs;
  // The gateway reads this switch from the environment only: without it, it exports telemetry to Apollo.
  if (!runtime.config.graphql.apolloTelemetry) process.env.APOLLO_TELEMETRY_DISABLED = 'true';
  const gateway = new ApolloGateway({
    supergraphSdl: fs.readFileSync(SUPERGRAPH_PATH, 'utf8'),
    buildService: ({ name, url }): GraphQLDataSource => {
      const service = local.get(name as ServiceName);
      if (service) {
        return new LocalSubgraphDataSource(service.schema, service.namespace, (error) =>
          app.log.error({ err: error }, 'unexpected subgraph error'),
        );
      }
      return new RemoteGraphQLDataSource<GraphContext>({
        url: subgraphUrls[name as ServiceName] ?? url,
        // @apollo/gateway's default fetcher (make-fetch-happen) sets no timeout: a silent subgraph held the request.
        fetcher: (input, init) => fetch(input, { ...init, signal: AbortSignal.timeout(timeoutMs) } as RequestInit),
        willSendRequest({ request, context }) {
          if (context.principal) request.http?.headers.set('authorization', `Bearer ${context.principal.token}`);
          request.http?.headers.set('x-request-id', context.requestId);
        },
        // No answer, or a 5xx, is the service's outage: a typed 503 instead of internal_error, and instead of
        // Apollo's error that hands the client the subgraph's internal URL and body. A 4xx carries its own errors.
        didEncounterError(error, _request, response) {
          if (response && response.status < 500) throw error;
          throw new DomainError(
            'subgraph_unavailable',
            response
              ? `The ${name} service answered HTTP ${response.status}.`
              : (error as Error).name === 'TimeoutError'
                ? `The ${name} service did not answer within ${timeoutMs} ms.`
                : `The ${name} service could not be reached.`,
          );
        },
      });
    },
  });
  // Apollo's usage reporting sees only the requests Apollo Server runs, so with it on every request does. A
  // direct answer with errors is asked again, which with a subgraph apart would wait out its timeout twice.
  const everySubgraphLocal = ALL_SERVICES.every((name) => local.has(name) && !subgraphUrls[name]);
  const direct =
    runtime.config.graphql.apolloTelemetry || !everySubgraphLocal
      ? undefined
      : new DirectQueries(gateway, runtime.config.graphql.limits, (operationName, started) =>
          metrics.countDirectGraphqlOperation('gateway', operationName, started),
        );
  await serveGraphQL(app, runtime, { gateway }, formatGatewayError, [metrics.graphqlPlugin('gateway')], direct);
}

/** A service running alone serves its subgraph at /graphql for a remote gateway. */
async function mountSubgraph(
  app: FastifyInstance,
  runtime: PlatformRuntime,
  service: ServiceDefinition,
  metrics: PlatformMetrics,
): Promise<void> {
  const noInlineTraces = runtime.config.graphql.apolloTelemetry ? [] : [ApolloServerPluginInlineTraceDisabled()];
  await serveGraphQL(
    app,
    runtime,
    { schema: service.schema },
    (formatted, error) => formatGraphQLError(formatted, error, service.namespace),
    // Federated traces go to Apollo's hosted reporting, which this platform does not use by default.
    [metrics.graphqlPlugin(service.name), ...noInlineTraces],
  );
}

/**
 * /graphql of this process, the gateway's or a subgraph's, with the platform's posture: query limits
 * (the document size refused before Apollo parses it), introspection, Sandbox, stack traces and
 * Apollo reporting as the settings say.
 */
async function serveGraphQL(
  app: FastifyInstance,
  runtime: PlatformRuntime,
  source: { gateway: ApolloGateway } | { schema: GraphQLSchema },
  formatError: NonNullable<ApolloServerOptions<GraphContext>['formatError']>,
  plugins: ApolloServerPlugin<GraphContext>[] = [],
  direct?: DirectQueries,
): Promise<void> {
  const settings = runtime.config.graphql;
  const apollo = new ApolloServer<GraphContext>({
    ...source,
    introspection: settings.introspection,
    includeStacktraceInErrorResponses: settings.stackTraces,
    // `installShutdown` owns the signals and the platform's close stops Apollo (below): Apollo's own handlers ran
    // a second shutdown beside the platform's, and stayed on `process` after an in-process platform closed.
    stopOnTerminationSignals: false,
    plugins: [
      queryLimitsPlugin(settings.limits),
      settings.sandbox
        ? ApolloServerPluginLandingPageLocalDefault({ embed: true, includeCookies: false })
        : ApolloServerPluginLandingPageDisabled(),
      ...(settings.apolloTelemetry
        ? []
        : [ApolloServerPluginUsageReportingDisabled(), ApolloServerPluginSchemaReportingDisabled()]),
      // No HTTP cache hints are served, so computing them per field is wasted work on the hot path.
      ApolloServerPluginCacheControlDisabled(),
      refuseUnstorableTextInGraphql(),
      ...plugins,
      ...(direct ? [direct.recorder()] : []),
    ],
    formatError,
  } as ApolloServerOptions<GraphContext>);
  await apollo.start();
  // After Fastify has stopped taking requests and answered those in flight, so Apollo has no draining to do.
  app.addHook('onClose', () => apollo.stop());
  const context = (request: FastifyRequest) =>
    graphContextFrom(runtime.auth, request.headers, { requestId: request.id, traceId: request.traceId });
  const throughApollo = fastifyApolloHandler(apollo, { context });
  await app.register(async (scope) => {
    scope.addHook('preHandler', documentSizeGuard(settings.limits));
    scope.route({
      method: ['GET', 'POST', 'OPTIONS'],
      url: '/graphql',
      handler: direct ? direct.handler(apollo, context, throughApollo) : throughApollo,
    });
  });
}
