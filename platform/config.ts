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
  /** File holding the demo signing key and the cursor secret; shared by services that run apart. */
  keyFile: string;
  /** Optional JWKS for real tenants' tokens. */
  jwksUrl: string | undefined;
  /** Published API roots the services call each other through. */
  contentUrl: string;
  peopleUrl: string;
  /** {curriculum_root}: content asks the KC registry there. */
  curriculumUrl: string;
  /** Timeout of one service-to-service call. */
  serviceCallTimeoutMs: number;
  logLevel: string;
  /** Seed the demo tenant on start (embedded mode). */
  seedDemo: boolean;
  /** Public origin used in links (delivery URLs, descriptors). */
  publicOrigin: string;
  /** PLATFORM_ENV (or NODE_ENV) is production: the defaults below turn to their production values. */
  production: boolean;
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
  if (!Number.isInteger(parsed) || parsed < 0) throw new Error(`${name} must be a non-negative integer, got "${value}"`);
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
    keyFile: path.resolve(env.KEY_FILE ?? path.join(dataDir, 'platform-keys.json')),
    jwksUrl: env.JWKS_URL || undefined,
    contentUrl: env.CONTENT_URL ?? `${publicOrigin}${SERVICE_ROOTS.content}`,
    peopleUrl: env.PEOPLE_URL ?? `${publicOrigin}${SERVICE_ROOTS.people}`,
    curriculumUrl: env.CURRICULUM_URL ?? `${publicOrigin}${SERVICE_ROOTS.curriculum}`,
    serviceCallTimeoutMs: intFrom(env.SERVICE_CALL_TIMEOUT_MS, 2000, 'SERVICE_CALL_TIMEOUT_MS'),
    logLevel: env.LOG_LEVEL ?? 'info',
    seedDemo: env.SEED_DEMO !== 'false',
    publicOrigin,
    production,
    graphql: graphqlSettingsFrom(env, production),
  };
}
