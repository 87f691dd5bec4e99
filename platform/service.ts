import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import type { GraphQLSchema } from 'graphql';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { z } from 'zod';
import { DEMO_TENANT, type Authenticator, type Keyring } from './auth.ts';
import type { PlatformConfig, ServiceName } from './config.ts';
import type { CursorCodec } from './cursor.ts';
import type { DatabaseHandle } from './db.ts';
import type { LocalDispatch, ServiceClientOptions } from './service-client.ts';
import { DomainError, type ProblemNamespace } from './errors.ts';
import {
  parseJsonBodies,
  declareRoute,
  collectOperations,
  installProblemHandlers,
  requestContextOf,
  useRequestContext,
  type RequestContextBuilder,
} from './http.ts';
import { subgraphSchema } from './graphql.ts';
import { fieldErrorsOf } from './validation.ts';
import { describeService } from './openapi.ts';
import { sweepIdempotencyRecords, type IdempotencyTable } from './idempotency.ts';
import { FixedWindowLimiter } from './rate-limit.ts';

/** What every service is built from: shared by all services of one process. */
export interface PlatformRuntime {
  config: PlatformConfig;
  database: DatabaseHandle;
  auth: Authenticator;
  keyring: Keyring;
  cursors: CursorCodec;
  /** The process's own app once it listens: service calls to this origin go through it in memory. */
  local?: LocalDispatch;
}

/** How a service of this process reaches another service's published API, at the URL in `url` of the config. */
export function serviceClientOptions(
  runtime: PlatformRuntime,
  url: 'contentUrl' | 'eventsUrl' | 'curriculumUrl' | 'peopleUrl',
): ServiceClientOptions {
  return {
    baseUrl: () => runtime.config[url],
    timeoutMs: runtime.config.serviceCallTimeoutMs,
    auth: runtime.auth,
    local: () => runtime.local,
  };
}

export interface MintedToken {
  token: string;
  subject: string;
  expiresIn: number;
}

/** A service as the process hosting it sees it. */
export interface ServiceDefinition {
  name: ServiceName;
  title: string;
  description: string;
  root: string;
  namespace: ProblemNamespace;
  /** The built subgraph schema (Apollo Federation 2). */
  schema: GraphQLSchema;
  /** Registers the documented REST paths, relative to root. */
  routes(app: FastifyInstance): void;
  /** The mint answer in the service's own shape. */
  mintResponse(minted: MintedToken): Promise<Record<string, unknown>> | Record<string, unknown>;
  /** The shape of that answer. */
  mintResponseSchema: z.ZodType;
  /** The service's Idempotency-Key records, swept past retention while the service runs. */
  idempotency: IdempotencyTable;
  /** The caller's context on this service's paths; the bearer token alone unless the service says more. */
  requestContext?: RequestContextBuilder;
}

/** A service's subgraph schema: its SDL, schema/<name>.graphql, with its resolvers. */
export function serviceSchema(name: ServiceName, resolvers: object): GraphQLSchema {
  const sdl = fs.readFileSync(fileURLToPath(new URL(`../schema/${name}.graphql`, import.meta.url)), 'utf8');
  return subgraphSchema(sdl, resolvers);
}

/** A service's `routes`: each feature registers its documented REST paths over the service's deps. */
export function featureRoutes<Deps>(
  deps: Deps,
  features: Array<(app: FastifyInstance, deps: Deps) => void>,
): ServiceDefinition['routes'] {
  return (app) => {
    for (const register of features) register(app, deps);
  };
}

/** The mint answer of the snake_case services (content, curriculum). */
function snakeCaseMintResponse(minted: MintedToken): Record<string, unknown> {
  return {
    token: minted.token,
    token_type: 'Bearer',
    expires_in: minted.expiresIn,
    tenant_id: DEMO_TENANT,
    subject: minted.subject,
  };
}

/** The mint answer of the snake_case services. */
const SnakeCaseMintResponse = z.strictObject({
  token: z.string(),
  token_type: z.literal('Bearer'),
  expires_in: z.number().int().describe('Seconds'),
  tenant_id: z.string(),
  subject: z.string(),
});

/** The mint of the snake_case services (content, curriculum): the answer and its shape. */
export const snakeCaseMint = { mintResponse: snakeCaseMintResponse, mintResponseSchema: SnakeCaseMintResponse };

const ServiceDescriptor = z.strictObject({
  service: z.string(),
  title: z.string(),
  description: z.string(),
  version: z.string(),
  surface: z.literal('alpha'),
  basePath: z.string(),
  openapi: z.string(),
  docs: z.string(),
  graphql: z.string(),
  mint: z.string().optional().describe('How to mint a demo token; absent when DEV_ROUTES=off'),
});

const mintQuery = z.object({ tenantId: z.string().min(1).describe('Only demo can be minted') }).strict();

/**
 * Mounts a service under its root: its own problem namespace, descriptor, demo mint, OpenAPI 3.1
 * description and docs page, then its documented routes.
 */
export async function mountService(
  app: FastifyInstance,
  runtime: PlatformRuntime,
  service: ServiceDefinition,
): Promise<void> {
  await app.register(
    async (scope) => {
      installProblemHandlers(scope, service.namespace);
      useRequestContext(scope, service.requestContext ?? ((request) => requestContextOf(runtime.auth, request)));
      parseJsonBodies(scope);
      const operations = collectOperations(scope);
      await scope.register(swagger, {
        openapi: { openapi: '3.1.0', info: { title: service.title, version: '1.0.0' } },
        transformObject: () => describeService(service, operations),
      });
      // Without indexPrefix the page at /docs (no trailing slash) asks for /docs/static/... outside
      // the service root: a known behaviour of @fastify/swagger-ui under a prefix.
      await scope.register(swaggerUi, { routePrefix: '/docs', indexPrefix: service.root });
      scope.get('/openapi.json', { schema: { hide: true } }, async () => scope.swagger());

      declareRoute(scope, 'service', {
        method: 'GET',
        url: '/',
        summary: 'Service descriptor',
        public: true,
        response: ServiceDescriptor,
        handler: async () => ({
          service: service.name,
          title: service.title,
          description: service.description,
          version: '1.0.0',
          surface: 'alpha',
          ...serviceAddresses(service.root),
          graphql: '/graphql',
          ...(runtime.config.devRoutes ? { mint: `POST ${service.root}/dev/mint?tenantId=${DEMO_TENANT}` } : {}),
        }),
      });
      if (runtime.config.devRoutes) declareDevRoutes(scope, runtime, service);
      service.routes(scope);
    },
    { prefix: service.root },
  );
  sweepPeriodically(app, runtime, service.idempotency);
}

/** Where a service under `root` answers, and where its OpenAPI description and docs page are. */
export function serviceAddresses(root: string) {
  return { basePath: root, openapi: `${root}/openapi.json`, docs: `${root}/docs` };
}

/** One mint budget per process, so the three services' mint routes do not each grant a full one. */
const mintLimiters = new WeakMap<PlatformRuntime, FixedWindowLimiter>();

/** The /dev/* routes: absent with DEV_ROUTES=off, so they answer the 404 problem of any unknown path. */
function declareDevRoutes(scope: FastifyInstance, runtime: PlatformRuntime, service: ServiceDefinition): void {
  const mintBudget = mintLimiters.get(runtime) ?? new FixedWindowLimiter(runtime.config.devMintPerMinute, 60_000);
  mintLimiters.set(runtime, mintBudget);
  declareRoute(scope, 'service', {
    method: 'POST',
    url: '/dev/mint',
    summary: 'Mint a demo token (demo tenant only; limited per client address)',
    querystring: mintQuery,
    public: true,
    response: service.mintResponseSchema,
    errors: [429],
    handler: async (request) => {
      const retryAfter = mintBudget.take(request.ip);
      if (retryAfter > 0) {
        throw new DomainError(
          'rate_limited',
          `This address may mint ${runtime.config.devMintPerMinute} demo tokens a minute.`,
          {
            headers: { 'retry-after': String(retryAfter) },
          },
        );
      }
      const parsed = mintQuery.safeParse(request.query);
      // A query of another shape names what is wrong with it, not the tenant it may well have right.
      if (!parsed.success) {
        throw new DomainError('demo_mint_refused', `Send tenantId=${DEMO_TENANT}, once, and nothing else.`, {
          fieldErrors: fieldErrorsOf(parsed.error),
        });
      }
      if (parsed.data.tenantId !== DEMO_TENANT) {
        throw new DomainError(
          'demo_mint_refused',
          `Minting works for tenantId=${DEMO_TENANT} only; real tenants use their identity provider.`,
          {
            fieldErrors: [{ field: 'tenantId', message: `must be ${DEMO_TENANT}` }],
          },
        );
      }
      return service.mintResponse(await runtime.auth.mintDemoToken());
    },
  });
}

const SWEEP_INTERVAL_MS = 60 * 60 * 1000;

/** Once at start, then hourly; a failed sweep is logged and tried again next time. */
function sweepPeriodically(app: FastifyInstance, runtime: PlatformRuntime, table: IdempotencyTable): void {
  let running: Promise<unknown> = Promise.resolve();
  const sweep = () => {
    running = sweepIdempotencyRecords(runtime.database.db, table).catch((error: unknown) =>
      app.log.warn({ err: error }, 'idempotency sweep failed'),
    );
  };
  const timer = setInterval(sweep, SWEEP_INTERVAL_MS).unref();
  app.addHook('onReady', async () => sweep());
  app.addHook('onClose', async () => {
    clearInterval(timer);
    await running;
  });
}
