import { randomUUID } from 'node:crypto';
import postgres from 'postgres';
import { openDatabase, type DatabaseHandle } from '../platform/db.ts';
import { loadConfig } from '../platform/config.ts';

/**
 * Runs `use` on a PostgreSQL database of its own beside DATABASE_URL's, with `services` migrated from scratch:
 * the planner's view of a fresh installation (no statistics yet, autovacuum not come by). The database is
 * closed and removed afterwards, whatever `use` did.
 */
export async function withFreshDatabase<Result>(
  services: string[],
  use: (database: DatabaseHandle) => Promise<Result>,
): Promise<Result> {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('withFreshDatabase needs DATABASE_URL');
  const name = `fresh_${randomUUID().replaceAll('-', '')}`;
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  try {
    const database = await openDatabase(loadConfig({ DATABASE_URL: url.replace(/\/[^/?]*(\?|$)/, `/${name}$1`) }));
    try {
      for (const service of services) await database.migrate(service);
      return await use(database);
    } finally {
      await database.close();
    }
  } finally {
    await admin.unsafe(`drop database ${name} with (force)`);
    await admin.end();
  }
}
