import { execFileSync } from 'node:child_process';

/**
 * Generates each service's SQL migrations from its drizzle tables into drizzle/<service>.
 * Usage: npm run db:generate [-- <service> [--custom --name <name>]]
 */
const services = ['content', 'curriculum', 'events'];
const [only, ...extra] = process.argv.slice(2);
for (const service of only ? [only] : services) {
  execFileSync(
    'npx',
    [
      'drizzle-kit',
      'generate',
      '--dialect',
      'postgresql',
      '--schema',
      `subgraphs/${service}/tables.ts`,
      '--out',
      `drizzle/${service}`,
      ...extra,
    ],
    { stdio: 'inherit' },
  );
}
