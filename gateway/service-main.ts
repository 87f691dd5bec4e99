import { ALL_SERVICES, startPlatform } from './platform.ts';
import { installShutdown } from './main.ts';
import type { ServiceName } from '../platform/config.ts';

/**
 * One piece of the distributed shape:
 *   SERVICE=content PORT=4101 npm run start:service       a service alone (REST + its subgraph at /graphql)
 *   SERVICE=gateway PORT=4000 SUBGRAPH_URLS=... npm run start:service   the gateway alone
 * SUBGRAPH_URLS is name=url pairs separated by commas, e.g.
 *   curriculum=http://127.0.0.1:4100,content=http://127.0.0.1:4101,events=http://127.0.0.1:4102
 * (service origins; /graphql is the subgraph, the REST roots are proxied from the gateway).
 */
function parseOrigins(value: string | undefined): Partial<Record<ServiceName, string>> {
  const origins: Partial<Record<ServiceName, string>> = {};
  for (const pair of (value ?? '').split(',').filter(Boolean)) {
    const [name, url] = pair.split('=');
    if (!ALL_SERVICES.includes(name as ServiceName) || !url) throw new Error(`SUBGRAPH_URLS has a bad entry: ${pair}`);
    origins[name as ServiceName] = url.replace(/\/$/, '');
  }
  return origins;
}

const role = process.env.SERVICE;
if (role === 'gateway') {
  const origins = parseOrigins(process.env.SUBGRAPH_URLS);
  const subgraphUrls = Object.fromEntries(Object.entries(origins).map(([name, origin]) => [name, `${origin}/graphql`]));
  const platform = await startPlatform({ services: [], gateway: { subgraphUrls, restUrls: origins } });
  console.log(`gateway on ${platform.url}/graphql over ${JSON.stringify(origins)}`);
  installShutdown(platform);
} else if (ALL_SERVICES.includes(role as ServiceName)) {
  const platform = await startPlatform({ services: [role as ServiceName] });
  console.log(`${role} on ${platform.url}`);
  installShutdown(platform);
} else {
  console.error(`SERVICE must be one of gateway, ${ALL_SERVICES.join(', ')}`);
  process.exit(2);
}
