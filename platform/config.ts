import path from 'node:path';

/**
 * Everything the platform reads from its environment, read once at start.
 * Domain code never touches process.env: it receives what it needs from here.
 */
export interface PlatformConfig {
  /** Port of the embedded mode, or of a service running alone. */
  port: number;
  host: string;
  /** Where PGlite keeps its files and where the demo signing key lives. */
  dataDir: string;
  /** Real PostgreSQL when set; PGlite under dataDir otherwise. */
  databaseUrl: string | undefined;
  /** PostgreSQL connections for transactions and writes (DATABASE_POOL_MAX). */
  databasePoolMax: number;
  /**
   * PostgreSQL connections for reads outside a transaction (DATABASE_READ_POOL_MAX); 0: they share
   * the pool of the writes. Few, so the driver pipelines reads on busy connections.
   */
  databaseReadPoolMax: number;
  /** File holding the demo signing key and the cursor secret; shared by services that run apart. */
  keyFile: string;
  /** How real tenants' tokens are verified; unset: only the platform's own (demo) tokens are accepted. */
  remoteTokens: RemoteTokenConfig | undefined;
  /** Published API roots the services call each other through. */
  contentUrl: string;
  /** {events_root}: curriculum reads served forms and graded results there. */
  eventsUrl: string;
  peopleUrl: string;
  /** {curriculum_root}: content asks the KC registry there. */
  curriculumUrl: string;
  /** Timeout of one service-to-service call. */
  serviceCallTimeoutMs: number;
  /** Longest a client may take to send one request, headers and body. */
  requestTimeoutMs: number;
  /** Longest the remote gateway waits for one subgraph fetch. */
  subgraphTimeoutMs: number;
  logLevel: string;
  /** Seed the demo tenant on start (embedded mode). */
  seedDemo: boolean;
  /** Public origin used in links (delivery URLs, descriptors). */
  publicOrigin: string;
  /** Serve the /dev/* routes (the demo token mint); DEV_ROUTES=off in production. */
  devRoutes: boolean;
  /** Demo tokens one client address may mint per minute, across all services. */
  devMintPerMinute: number;
  /** PLATFORM_ENV (or NODE_ENV) is production: the defaults below turn to their production values. */
  production: boolean;
  /** Check every 2xx REST body against its route's response schema before sending it (off in production). */
  answerChecks: boolean;
  graphql: GraphQLSettings;
}

/** What a GraphQL endpoint (the gateway, or a subgraph served alone) shows and accepts. */
export interface GraphQLSettings {
  limits: QueryLimits;
  introspection: boolean;
  /** Apollo Sandbox at GET /graphql in a browser. */
  sandbox: boolean;
  /** Stack traces in error responses; never in production. */
  stackTraces: boolean;
  /** Apollo's usage reporting and the gateway's telemetry; off unless opted in. */
  apolloTelemetry: boolean;
}

/** Checked before execution; an operation over any of them never reaches a resolver. */
export interface QueryLimits {
  /** Bytes of the query text. */
  maxDocumentBytes: number;
  /** Nesting of selections, leaves included. */
  maxDepth: number;
  maxAliases: number;
  maxRootFields: number;
  /** Largest `limit` or `first` argument. */
  maxListSize: number;
  /** Estimated fields resolved, list fields multiplying their selections. */
  maxCost: number;
}

/** A tenant identity provider: its JWKS, and the claims its tokens must carry for this platform. */
export interface RemoteTokenConfig {
  jwksUrl: string;
  issuer: string;
  audience: string;
  /** Leeway on exp and nbf for clocks that disagree a little. */
  clockSkewSeconds: number;
  /** Least time between two JWKS fetches, so tokens naming unknown kids cannot make the platform hammer the IdP. */
  jwksCooldownSeconds: number;
}

export const SERVICE_ROOTS = {
  curriculum: '/curriculum/alpha/implementation/api',
  content: '/content/alpha/implementation/api',
  events: '/events/alpha/implementation/api',
  people: '/people',
} as const;

export type ServiceName = 'curriculum' | 'content' | 'events';

function intFrom(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0)
    throw new Error(`${name} must be a non-negative integer, got "${value}"`);
  return parsed;
}

function positiveIntFrom(value: string | undefined, fallback: number, name: string): number {
  const parsed = intFrom(value, fallback, name);
  if (parsed === 0) throw new Error(`${name} must be at least 1`);
  return parsed;
}

function switchFrom(value: string | undefined, fallback: boolean, name: string): boolean {
  if (value === undefined || value === '') return fallback;
  if (['on', 'true', '1'].includes(value)) return true;
  if (['off', 'false', '0'].includes(value)) return false;
  throw new Error(`${name} must be on or off, got "${value}"`);
}

export function graphqlSettingsFrom(env: NodeJS.ProcessEnv, production: boolean): GraphQLSettings {
  return {
    limits: {
      maxDocumentBytes: intFrom(env.GRAPHQL_MAX_DOCUMENT_BYTES, 32_768, 'GRAPHQL_MAX_DOCUMENT_BYTES'),
      maxDepth: intFrom(env.GRAPHQL_MAX_DEPTH, 8, 'GRAPHQL_MAX_DEPTH'),
      maxAliases: intFrom(env.GRAPHQL_MAX_ALIASES, 30, 'GRAPHQL_MAX_ALIASES'),
      maxRootFields: intFrom(env.GRAPHQL_MAX_ROOT_FIELDS, 20, 'GRAPHQL_MAX_ROOT_FIELDS'),
      maxListSize: intFrom(env.GRAPHQL_MAX_LIST_SIZE, 200, 'GRAPHQL_MAX_LIST_SIZE'),
      maxCost: intFrom(env.GRAPHQL_MAX_COST, 25_000, 'GRAPHQL_MAX_COST'),
    },
    introspection: switchFrom(env.GRAPHQL_INTROSPECTION, !production, 'GRAPHQL_INTROSPECTION'),
    sandbox: switchFrom(env.GRAPHQL_SANDBOX, !production, 'GRAPHQL_SANDBOX'),
    stackTraces: !production && switchFrom(env.GRAPHQL_STACK_TRACES, false, 'GRAPHQL_STACK_TRACES'),
    apolloTelemetry: switchFrom(env.APOLLO_TELEMETRY, false, 'APOLLO_TELEMETRY'),
  };
}

function remoteTokensFrom(env: NodeJS.ProcessEnv): RemoteTokenConfig | undefined {
  if (!env.JWKS_URL) return undefined;
  if (!env.JWT_ISSUER || !env.JWT_AUDIENCE) {
    throw new Error(
      'JWKS_URL needs JWT_ISSUER and JWT_AUDIENCE: a token is only accepted for this issuer and audience',
    );
  }
  const clockSkewSeconds = intFrom(env.JWT_CLOCK_SKEW_SECONDS, 30, 'JWT_CLOCK_SKEW_SECONDS');
  if (clockSkewSeconds > 300) throw new Error('JWT_CLOCK_SKEW_SECONDS must be at most 300');
  return {
    jwksUrl: env.JWKS_URL,
    issuer: env.JWT_ISSUER,
    audience: env.JWT_AUDIENCE,
    clockSkewSeconds,
    jwksCooldownSeconds: intFrom(env.JWKS_COOLDOWN_SECONDS, 30, 'JWKS_COOLDOWN_SECONDS'),
  };
}

/** Room for the largest body (10 MB) on a slow link. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 120_000;

export function loadConfig(env: NodeJS.ProcessEnv = process.env): PlatformConfig {
  const port = intFrom(env.PORT, 4000, 'PORT');
  const host = env.HOST ?? '127.0.0.1';
  const dataDir = path.resolve(env.DATA_DIR ?? './.data');
  const publicOrigin = env.PUBLIC_ORIGIN ?? `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}`;
  const production = (env.PLATFORM_ENV ?? env.NODE_ENV) === 'production';
  return {
    port,
    host,
    dataDir,
    databaseUrl: env.DATABASE_URL || undefined,
    databasePoolMax: positiveIntFrom(env.DATABASE_POOL_MAX, 10, 'DATABASE_POOL_MAX'),
    databaseReadPoolMax: intFrom(env.DATABASE_READ_POOL_MAX, 2, 'DATABASE_READ_POOL_MAX'),
    keyFile: path.resolve(env.KEY_FILE ?? path.join(dataDir, 'platform-keys.json')),
    remoteTokens: remoteTokensFrom(env),
    contentUrl: env.CONTENT_URL ?? `${publicOrigin}${SERVICE_ROOTS.content}`,
    eventsUrl: env.EVENTS_URL ?? `${publicOrigin}${SERVICE_ROOTS.events}`,
    peopleUrl: env.PEOPLE_URL ?? `${publicOrigin}${SERVICE_ROOTS.people}`,
    curriculumUrl: env.CURRICULUM_URL ?? `${publicOrigin}${SERVICE_ROOTS.curriculum}`,
    serviceCallTimeoutMs: intFrom(env.SERVICE_CALL_TIMEOUT_MS, 2000, 'SERVICE_CALL_TIMEOUT_MS'),
    requestTimeoutMs: positiveIntFrom(env.REQUEST_TIMEOUT_MS, DEFAULT_REQUEST_TIMEOUT_MS, 'REQUEST_TIMEOUT_MS'),
    // Apollo Router's default subgraph timeout.
    subgraphTimeoutMs: positiveIntFrom(env.SUBGRAPH_TIMEOUT_MS, 30_000, 'SUBGRAPH_TIMEOUT_MS'),
    logLevel: env.LOG_LEVEL ?? 'info',
    seedDemo: env.SEED_DEMO !== 'false',
    publicOrigin,
    devRoutes: switchFrom(env.DEV_ROUTES, !production, 'DEV_ROUTES'),
    devMintPerMinute: intFrom(env.DEV_MINT_PER_MINUTE, 10, 'DEV_MINT_PER_MINUTE'),
    production,
    answerChecks: switchFrom(env.ANSWER_CHECKS, !production, 'ANSWER_CHECKS'),
    graphql: graphqlSettingsFrom(env, production),
  };
}
