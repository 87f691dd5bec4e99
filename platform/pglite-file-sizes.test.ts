import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { afterEach, describe, expect, it } from 'vitest';
import { rememberFileSizes } from './pglite-file-sizes.ts';

const opened: Array<{ client: PGlite; dir: string }> = [];
afterEach(async () => {
  for (const { client, dir } of opened.splice(0)) {
    await client.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

/** A PGlite on NodeFS whose file-size questions that reach the file system are counted. */
async function openCounted() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'alp-sizes-'));
  const client = await PGlite.create(dir);
  opened.push({ client, dir });
  type Seek = (stream: unknown, offset: number, whence: number) => number;
  const streams = (client.Module as unknown as { NODEFS: { stream_ops: { llseek: Seek } } }).NODEFS.stream_ops;
  const llseek = streams.llseek;
  const asked = { count: 0 };
  streams.llseek = (stream, offset, whence) => {
    if (whence === 2) asked.count += 1;
    return llseek(stream, offset, whence);
  };
  rememberFileSizes(client);
  return { client, dir, asked };
}

/** The table and its index (their main forks): the size Postgres sees, and the size of its file on disk. */
async function sizes(client: PGlite, dir: string, table: string) {
  const { rows } = await client.query<{ relation: string; file: string; seen: number }>(
    `select c.relname as relation, pg_relation_filepath(c.oid) as file, pg_relation_size(c.oid)::int as seen
       from pg_class c where c.relname::text in ($1::text, $1::text || '_pkey') order by c.relname`,
    [table],
  );
  return rows.map(({ relation, file, seen }) => ({ relation, seen, onDisk: fs.statSync(path.join(dir, file)).size }));
}

async function expectTrueSizes(client: PGlite, dir: string, table: string) {
  const seen = await sizes(client, dir, table);
  expect(seen).toHaveLength(2);
  for (const { seen: size, onDisk } of seen) expect(size).toBe(onDisk);
  return seen;
}

const countOf = async (client: PGlite, table: string) =>
  (await client.query<{ n: number }>(`select count(*)::int as n from ${table}`)).rows[0].n;

describe('PGlite file sizes kept between their changes', () => {
  it('answers a size asked again without the file system', async () => {
    const { client, asked } = await openCounted();
    await client.exec(`create table scanned (id int primary key, body text);
      insert into scanned select n, repeat('x', 100) from generate_series(1, 50) as n`);
    await countOf(client, 'scanned');
    const before = asked.count;
    for (let scan = 0; scan < 50; scan += 1) await countOf(client, 'scanned');
    // Each sequential scan asks its table's size: without the kept sizes, 50 questions reach fstat.
    expect(asked.count - before).toBeLessThan(5);
  });

  it('follows every way a file grows and shrinks: inserts, bulk extension, VACUUM, TRUNCATE, VACUUM FULL', async () => {
    const { client, dir } = await openCounted();
    await client.exec(`create table churned (id int primary key, body text)`);
    await expectTrueSizes(client, dir, 'churned');

    for (let batch = 0; batch < 20; batch += 1) {
      await client.query(`insert into churned select n, repeat('a', 200) from generate_series($1::int, $2::int) as n`, [
        batch * 100,
        batch * 100 + 99,
      ]);
    }
    const grown = await expectTrueSizes(client, dir, 'churned');
    expect(grown.every(({ seen }) => seen > 8192)).toBe(true);

    // One statement of many rows extends the files by several pages at once (fallocate, then ftruncate).
    await client.exec(`insert into churned select n, repeat('b', 200) from generate_series(2000, 12000) as n`);
    const bulk = await expectTrueSizes(client, dir, 'churned');
    expect(bulk[0].seen).toBeGreaterThan(grown[0].seen);

    await client.exec(`delete from churned where id >= 1000`);
    await client.exec(`vacuum churned`);
    const shrunk = await expectTrueSizes(client, dir, 'churned');
    expect(shrunk[0].seen).toBeLessThan(bulk[0].seen);
    expect(await countOf(client, 'churned')).toBe(1000);

    await client.exec(`insert into churned select n, repeat('c', 200) from generate_series(1000, 3999) as n`);
    await expectTrueSizes(client, dir, 'churned');
    expect(await countOf(client, 'churned')).toBe(4000);

    await client.exec(`vacuum full churned`);
    await expectTrueSizes(client, dir, 'churned');
    expect(await countOf(client, 'churned')).toBe(4000);

    await client.exec(`truncate churned; insert into churned select n, 'd' from generate_series(1, 10) as n`);
    await expectTrueSizes(client, dir, 'churned');
    expect(await countOf(client, 'churned')).toBe(10);
  });

  it('keeps the data readable across a restart of the same directory', async () => {
    const { client, dir } = await openCounted();
    await client.exec(`create table kept (id int primary key, body text);
      insert into kept select n, repeat('k', 300) from generate_series(1, 3000) as n;
      delete from kept where id > 1500`);
    await client.exec(`vacuum kept`);
    await client.close();
    opened.splice(0);
    const reopened = await PGlite.create(dir);
    opened.push({ client: reopened, dir });
    rememberFileSizes(reopened);
    await reopened.exec(`insert into kept select n, repeat('r', 300) from generate_series(1501, 2500) as n`);
    expect(await countOf(reopened, 'kept')).toBe(2500);
    await expectTrueSizes(reopened, dir, 'kept');
  });
});
