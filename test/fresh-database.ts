import { randomUUID } from 'node:crypto';
import postgres from 'postgres';
import { openDatabase, type DatabaseHandle } from '../platform/db.ts';
import { loadConfig } from '../platform/config.ts';

/**
 * A PostgreSQL database of its own beside `url`'s, with `services` migrated from scratch: the planner's view
 * of a fresh installation (no statistics yet, autovacuum not come by). `drop` closes and removes it.
 */
export async function freshDatabase(
  url: string,
  services: string[],
): Promise<{ database: DatabaseHandle; drop(): Promise<void> }> {
  const name = `fresh_${randomUUID().replaceAll('-', '')}`;
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  const database = await openDatabase(loadConfig({ DATABASE_URL: url.replace(/\/[^/?]*(\?|$)/, `/${name}$1`) }));
  for (const service of services) await database.migrate(service);
  return {
    database,
    async drop() {
      await database.close();
      await admin.unsafe(`drop database ${name} with (force)`);
      await admin.end();
    },
  };
}
