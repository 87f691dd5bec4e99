import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { openDatabase, rowsOf, type DatabaseHandle } from '../../platform/db.ts';
import { loadConfig } from '../../platform/config.ts';
import { withFreshDatabase } from '../fresh-database.ts';

/** The embedded database in `dataDir`, migrated and analyzed as the platform starts it. */
async function startPglite(dataDir: string, services = ['curriculum']): Promise<DatabaseHandle> {
  const database = await openDatabase({ ...loadConfig({}), databaseUrl: undefined, dataDir });
  for (const service of services) await database.migrate(service);
  await database.analyze();
  return database;
}

const GROW_ONE_TENANT = sql`
  insert into curriculum.components (tenant_id, component_id, kind, alpha, status, version, created_at, updated_at, publication_status)
  select 'grown', 'lesson-' || n, 'lesson', '{}'::jsonb, 'active', 1, now(), now() + n * interval '1 ms', 'draft'
  from generate_series(1, 3000) as n`;

/**
 * The generic plan of a read by id, as every prepared statement of the platform ends up with: it cannot see the id.
 * `prepareHere` prepares the read in the same transaction (a pool's connections do not share prepared statements).
 */
async function planOfReadById(database: DatabaseHandle, { prepareHere = false } = {}): Promise<string> {
  return database.db.transaction(async (tx) => {
    if (prepareHere) await tx.execute(PREPARE_READ_BY_ID);
    await tx.execute(sql`set local plan_cache_mode = force_generic_plan`);
    const explained = await tx.execute(sql`explain execute component_by_id('grown', '{lesson-7}')`);
    if (prepareHere) await tx.execute(sql`deallocate component_by_id`);
    return rowsOf<{ 'QUERY PLAN': string }>(explained)
      .map((row) => row['QUERY PLAN'])
      .join('\n');
  });
}

const PREPARE_READ_BY_ID = sql`prepare component_by_id (text, text[]) as select * from curriculum.components where tenant_id = $1 and component_id = any($2)`;

describe('planner statistics on PGlite (no autovacuum there)', () => {
  it('after a restart, a read by id of a grown tenant uses the primary key, not an index led by the tenant', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'alp-statistics-'));
    try {
      const first = await startPglite(dataDir);
      await first.db.execute(GROW_ONE_TENANT);
      await first.close();

      const restarted = await startPglite(dataDir);
      try {
        await restarted.db.execute(PREPARE_READ_BY_ID);
        expect(await planOfReadById(restarted)).toContain('components_tenant_id_component_id_pk');
      } finally {
        await restarted.close();
      }
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('while running, a table that outgrows its statistics is analyzed again, and a statement prepared before sees it', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'alp-statistics-'));
    const database = await startPglite(dataDir);
    try {
      expect(await database.analyzeGrownTables()).toEqual([]);
      await database.db.execute(PREPARE_READ_BY_ID);
      await database.db.execute(GROW_ONE_TENANT);
      // The start's statistics (an empty table) make the tenant-led index look as good as the key.
      expect(await planOfReadById(database)).not.toContain('components_tenant_id_component_id_pk');

      expect(await database.analyzeGrownTables()).toContain('curriculum.components');
      expect(await planOfReadById(database)).toContain('components_tenant_id_component_id_pk');
      expect(await database.analyzeGrownTables()).toEqual([]);
    } finally {
      await database.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('planner statistics on PostgreSQL, between visits of autovacuum', () => {
  it.skipIf(!process.env.DATABASE_URL)(
    'a table grown past its statistics is analyzed again, and a read by id of the grown tenant uses the primary key',
    () =>
      withFreshDatabase(['curriculum'], async (database) => {
        await database.db.transaction(async (tx) => {
          await tx.execute(GROW_ONE_TENANT);
          // The collector's counters, which the check reads, are otherwise sent up to a second later.
          await tx.execute(sql`select pg_stat_force_next_flush()`);
        });
        // Never analyzed, the table's indexes all cost the planner the same.
        expect(await planOfReadById(database, { prepareHere: true })).not.toContain(
          'components_tenant_id_component_id_pk',
        );

        expect(await database.analyzeGrownTables()).toContain('curriculum.components');
        expect(await planOfReadById(database, { prepareHere: true })).toContain('components_tenant_id_component_id_pk');
        expect(await database.analyzeGrownTables()).toEqual([]);
      }),
  );
});

const SERVICES = ['content', 'curriculum', 'events'];

/** Every document (jsonb) column of the services' tables, with its statistics target (-1: the default). */
const DOCUMENT_COLUMNS = sql`
  select n.nspname || '.' || c.relname || '.' || a.attname as "column", coalesce(a.attstattarget, -1)::int as target
  from pg_attribute a join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
  where c.relkind = 'r' and a.attnum > 0 and not a.attisdropped and a.atttypid = 'jsonb'::regtype
    and n.nspname = any(${`{${SERVICES.join(',')}}`}::text[])
  order by 1`;

/** The one document column a filter compares as a whole (`@>` on the column), so the planner needs its statistics. */
const COMPARED_AS_A_WHOLE = ['curriculum.standards_frameworks.subject_ids'];

async function expectDocumentsWithoutStatistics(database: DatabaseHandle): Promise<void> {
  const columns = rowsOf<{ column: string; target: number }>(await database.db.execute(DOCUMENT_COLUMNS));
  expect(columns.map((row) => row.column)).toEqual(expect.arrayContaining(['events.learning_events.raw_payload']));
  for (const { column, target } of columns) {
    expect({ column, sampled: target !== 0 }).toEqual({ column, sampled: COMPARED_AS_A_WHOLE.includes(column) });
  }
  // What the setting is for: ANALYZE samples the table's other columns and sorts no documents.
  await database.db.execute(GROW_ONE_TENANT);
  await database.db.execute(sql`analyze curriculum.components`);
  const analyzed = rowsOf<{ attname: string }>(
    await database.db.execute(
      sql`select attname from pg_stats where schemaname = 'curriculum' and tablename = 'components' order by 1`,
    ),
  ).map((row) => row.attname);
  expect(analyzed).toContain('kind');
  expect(analyzed).not.toContain('alpha');
}

describe('document columns carry no planner statistics (ANALYZE sorted sampled documents no plan reads)', () => {
  it('on PGlite, after the migrations', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'alp-statistics-'));
    const database = await startPglite(dataDir, SERVICES);
    try {
      await expectDocumentsWithoutStatistics(database);
    } finally {
      await database.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it.skipIf(!process.env.DATABASE_URL)('on PostgreSQL, after the migrations', () =>
    withFreshDatabase(SERVICES, expectDocumentsWithoutStatistics),
  );
});
