import { PGlite } from '@electric-sql/pglite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { analyzeGrownTables, type GrowthBounds } from './pglite-statistics.ts';

const BOUNDS: GrowthBounds = { checkEveryMs: 10, factor: 2, minimumPages: 4 };

async function statisticsOf(client: PGlite, table: string) {
  const { rows } = await client.query<{ relpages: number; reltuples: number }>(
    `select relpages, reltuples from pg_class where oid = $1::regclass`,
    [table],
  );
  return rows[0];
}

const grow = (client: PGlite, table: string, rows: number) =>
  client.exec(`insert into ${table} select n, repeat('x', 50) from generate_series(1, ${rows}) as n`);

describe('PGlite statistics that follow growth', () => {
  let client: PGlite;
  beforeEach(async () => {
    client = await PGlite.create();
    await client.exec(`
      create schema s;
      create table s."Grown" (id int primary key, body text);
      create table s.steady (id int primary key, body text);
      insert into s.steady select n, repeat('x', 50) from generate_series(1, 2000) as n;
      analyze;`);
  });
  afterEach(() => client.close());

  it('analyzes a table only once it has more than doubled in pages, whatever its name', async () => {
    const steady = await statisticsOf(client, 's.steady');
    await grow(client, 's."Grown"', 500);
    expect(await analyzeGrownTables(client, BOUNDS)).toEqual([]);

    await client.exec(`insert into s."Grown" select n, repeat('x', 50) from generate_series(501, 3000) as n`);
    expect(await analyzeGrownTables(client, BOUNDS)).toEqual(['s."Grown"']);
    expect((await statisticsOf(client, 's."Grown"')).reltuples).toBe(3000);
    expect(await statisticsOf(client, 's.steady')).toEqual(steady);
    expect(await analyzeGrownTables(client, BOUNDS)).toEqual([]);
  });

  it('still analyzes a grown table after a VACUUM measured it without taking statistics', async () => {
    const columnStatistics = async () =>
      (
        await client.query<{ n: number }>(
          `select count(*)::int as n from pg_stats where schemaname = 's' and tablename = 'Grown'`,
        )
      ).rows[0].n;
    expect(await analyzeGrownTables(client, BOUNDS)).toEqual([]);
    await grow(client, 's."Grown"', 3000);
    await client.exec('vacuum s."Grown"');
    expect((await statisticsOf(client, 's."Grown"')).relpages).toBeGreaterThan(BOUNDS.minimumPages * BOUNDS.factor);
    expect(await columnStatistics()).toBe(0);

    expect(await analyzeGrownTables(client, BOUNDS)).toEqual(['s."Grown"']);
    expect(await columnStatistics()).toBeGreaterThan(0);
    expect(await analyzeGrownTables(client, BOUNDS)).toEqual([]);
  });
});
