import { PGlite } from '@electric-sql/pglite';
import { afterEach, describe, expect, it } from 'vitest';
import { vacuumWornTables } from './pglite-vacuum.ts';
import { pgliteUpkeep, UPKEEP } from './pglite-upkeep.ts';
import { keepUp } from './upkeep.ts';

const clients: PGlite[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

async function open(): Promise<PGlite> {
  const client = await PGlite.create();
  clients.push(client);
  return client;
}

const CAP = { insertedRowsCap: 1_000 };

const statOf = async (client: PGlite, table: string) =>
  (
    await client.query<{ dead: number; inserted: number }>(
      `select n_dead_tup::int as dead, n_ins_since_vacuum::int as inserted from pg_stat_all_tables where relid = $1::regclass`,
      [table],
    )
  ).rows[0];

const pagesOf = async (client: PGlite, table: string) =>
  (await client.query<{ pages: number }>(`select pg_relation_size($1::regclass)::int / 8192 as pages`, [table])).rows[0]
    .pages;

/** The cumulative statistics reach the views about a second after the statements that changed them. */
const settled = (client: PGlite, table: string, ready: (stat: { dead: number; inserted: number }) => boolean) =>
  expect.poll(async () => ready(await statOf(client, table)), { timeout: 5_000, interval: 100 }).toBe(true);

describe('PGlite VACUUM by autovacuum rules', () => {
  it('vacuums a table with many dead rows, then leaves it alone, and the next inserts reuse the space', async () => {
    const client = await open();
    await client.exec(`create table churned (id int primary key, body text);
      insert into churned select n, repeat('x', 200) from generate_series(1, 4000) as n; analyze churned`);
    await client.exec('delete from churned where id % 2 = 0');
    await settled(client, 'churned', (stat) => stat.dead === 2000);
    const pages = await pagesOf(client, 'churned');

    expect(await vacuumWornTables(client, CAP)).toContain('churned');
    await settled(client, 'churned', (stat) => stat.dead === 0);
    expect(await vacuumWornTables(client, CAP)).not.toContain('churned');
    await client.exec(`insert into churned select n * 2, repeat('y', 200) from generate_series(1, 2000) as n`);
    expect(await pagesOf(client, 'churned')).toBe(pages);
  });

  it('leaves a table whose dead rows are under autovacuum threshold', async () => {
    const client = await open();
    await client.exec(`create table steady (id int primary key);
      insert into steady select generate_series(1, 900); analyze steady`);
    await client.exec('vacuum steady');
    await client.exec('delete from steady where id <= 40');
    await settled(client, 'steady', (stat) => stat.dead === 40);
    expect(await vacuumWornTables(client, CAP)).not.toContain('steady');
  });

  it('vacuums an append-only table once the capped insert count is reached, and marks its pages all-visible', async () => {
    const client = await open();
    // 20,000 rows analyzed: autovacuum's own insert rule would wait for 5,000 more, the cap for 1,000.
    await client.exec(`create table appended (id int primary key, body text);
      insert into appended select n, 'x' from generate_series(1, 20000) as n; analyze appended`);
    // A VACUUM counts from the inserts the views know of, so it waits for them to be counted first.
    await settled(client, 'appended', (stat) => stat.inserted === 20000);
    await client.exec('vacuum appended');
    await client.exec(`insert into appended select n, 'x' from generate_series(20001, 20500) as n`);
    await settled(client, 'appended', (stat) => stat.inserted === 500);
    expect(await vacuumWornTables(client, CAP)).not.toContain('appended');

    await client.exec(`insert into appended select n, 'x' from generate_series(20501, 21600) as n`);
    await settled(client, 'appended', (stat) => stat.inserted === 1600);
    expect(await vacuumWornTables(client, CAP)).toContain('appended');
    const { rows } = await client.query<{ visible: number; pages: number }>(
      `select relallvisible as visible, relpages as pages from pg_class where relname = 'appended'`,
    );
    expect(rows[0].visible).toBe(rows[0].pages);
    await settled(client, 'appended', (stat) => stat.inserted === 0);
  });

  it('vacuums a table, catalogs included, whose oldest transaction id has passed the freeze age', async () => {
    const client = await open();
    await client.exec(`create table aged (id int primary key); insert into aged values (1)`);
    for (let transaction = 0; transaction < 12; transaction++) await client.exec('select pg_current_xact_id()');
    // Freeze every row it visits, so the table's oldest transaction id moves up to now.
    await client.exec('set vacuum_freeze_min_age = 0; set vacuum_freeze_table_age = 0');

    const vacuumed = await vacuumWornTables(client, { ...CAP, freezeMaxAge: 10 });
    expect(vacuumed).toContain('aged');
    expect(vacuumed).toContain('pg_class');
    expect(await vacuumWornTables(client, { ...CAP, freezeMaxAge: 10 })).not.toContain('aged');
  });

  it('runs in the upkeep round on its own timer', async () => {
    const client = await open();
    await client.exec(`create table churned (id int primary key, body text);
      insert into churned select n, 'x' from generate_series(1, 1000) as n; analyze churned`);
    await client.exec('vacuum churned');
    const upkeep = keepUp(
      pgliteUpkeep(client, { ...UPKEEP, checkEveryMs: 50 }),
      (error) => {
        throw error;
      },
      50,
    );
    await client.exec('delete from churned where id <= 600');
    await expect
      .poll(
        async () =>
          (
            await client.query<{ vacuumed: boolean }>(
              `select last_vacuum is not null as vacuumed from pg_stat_all_tables where relname = 'churned'`,
            )
          ).rows[0].vacuumed,
        { timeout: 8_000, interval: 100 },
      )
      .toBe(true);
    await upkeep.stop();
    expect((await statOf(client, 'churned')).dead).toBe(0);
  });
});
