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
  /** {events_root}: curriculum reads served forms and graded results there. */
  eventsUrl: string;
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

export function loadConfig(env: NodeJS.ProcessEnv = process.env): PlatformConfig {
  const port = intFrom(env.PORT, 4000, 'PORT');
  const host = env.HOST ?? '127.0.0.1';
  const dataDir = path.resolve(env.DATA_DIR ?? './.data');
  const publicOrigin = env.PUBLIC_ORIGIN ?? `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}`;
  return {
    port,
    host,
    dataDir,
    databaseUrl: env.DATABASE_URL || undefined,
    keyFile: path.resolve(env.KEY_FILE ?? path.join(dataDir, 'platform-keys.json')),
    jwksUrl: env.JWKS_URL || undefined,
    contentUrl: env.CONTENT_URL ?? `${publicOrigin}${SERVICE_ROOTS.content}`,
    eventsUrl: env.EVENTS_URL ?? `${publicOrigin}${SERVICE_ROOTS.events}`,
    peopleUrl: env.PEOPLE_URL ?? `${publicOrigin}${SERVICE_ROOTS.people}`,
    curriculumUrl: env.CURRICULUM_URL ?? `${publicOrigin}${SERVICE_ROOTS.curriculum}`,
    serviceCallTimeoutMs: intFrom(env.SERVICE_CALL_TIMEOUT_MS, 2000, 'SERVICE_CALL_TIMEOUT_MS'),
    logLevel: env.LOG_LEVEL ?? 'info',
    seedDemo: env.SEED_DEMO !== 'false',
    publicOrigin,
  };
}
