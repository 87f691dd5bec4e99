import { SERVICE_ROOTS } from '../platform/config.ts';
import { ALL_SERVICES, startPlatform, type RunningPlatform } from './platform.ts';

/**
 * `npm start`: the whole platform in one process on the embedded database (PGlite under DATA_DIR),
 * or on PostgreSQL when DATABASE_URL is set. Prints where everything is.
 */
export async function main(): Promise<void> {
  let platform: RunningPlatform;
  try {
    platform = await startPlatform({ services: ALL_SERVICES, gateway: {} });
  } catch (error) {
    console.error(`The platform could not start: ${(error as Error).message}`);
    process.exit(1);
  }
  const { url, runtime } = platform;
  const database =
    runtime.database.driver === 'pglite' ? `PGlite in ${runtime.config.dataDir}` : 'PostgreSQL (DATABASE_URL)';
  console.log(
    [
      '',
      `Adaptive-learning platform is up on ${url} (${database})`,
      `  GraphQL gateway + Apollo Sandbox  ${url}/graphql`,
      `  GraphiQL (works offline)         ${url}/graphiql`,
      ...ALL_SERVICES.map(
        (name) => `  ${name.padEnd(11)} REST ${url}${SERVICE_ROOTS[name]}/   docs ${url}${SERVICE_ROOTS[name]}/docs`,
      ),
      `  demo token    curl -X POST '${url}${SERVICE_ROOTS.curriculum}/dev/mint?tenantId=demo'`,
      `  health        ${url}/healthz  ${url}/readyz   metrics ${url}/metrics`,
      '',
    ].join('\n'),
  );
  installShutdown(platform);
}

export function installShutdown(platform: RunningPlatform): void {
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    platform.app.log.info({ signal }, 'shutting down');
    await platform.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
