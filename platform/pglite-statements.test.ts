import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { preparePgliteStatements } from './pglite-statements.ts';

describe('PGlite prepared statements', () => {
  let client: PGlite;
  const select = 'select label, amount, at from t where id = $1';

  beforeAll(async () => {
    client = await PGlite.create();
    preparePgliteStatements(client);
    await client.exec('create table t (id int primary key, label text, amount numeric, at timestamptz)');
  });
  afterAll(async () => {
    await client.close();
  });

  it('reuses a statement but reads the rows a write left just before', async () => {
    const id = Math.floor(Math.random() * 1e6);
    const label = `first-${id}`;
    await client.query('insert into t (id, label, amount, at) values ($1, $2, $3, $4)', [
      id,
      label,
      '1.5',
      new Date(0),
    ]);
    expect((await client.query(select, [id])).rows).toEqual([{ label, amount: '1.5', at: new Date(0) }]);
    await client.query('update t set label = $2 where id = $1', [id, 'second']);
    expect((await client.query<{ label: string }>(select, [id])).rows[0].label).toBe('second');
    await client.transaction(async (tx) => {
      await tx.query('update t set label = $2 where id = $1', [id, 'third']);
      expect((await tx.query<{ label: string }>(select, [id])).rows[0].label).toBe('third');
    });
    expect((await client.query<{ label: string }>(select, [id])).rows[0].label).toBe('third');
  });

  it('answers rows as arrays with the caller parsers, as drizzle asks', async () => {
    const id = Math.floor(Math.random() * 1e6);
    await client.query('insert into t (id, label, at) values ($1, $2, $3)', [id, 'x', '2026-01-01T00:00:00Z']);
    const result = await client.query(select, [id], { rowMode: 'array', parsers: { 1184: (value: string) => value } });
    expect(result.rows).toEqual([['x', null, '2026-01-01 00:00:00+00']]);
  });

  it('describes a statement once: every execution answers the columns a fresh query would', async () => {
    const id = Math.floor(Math.random() * 1e6);
    const returning = 'insert into t (id, label) values ($1, $2) returning id, label, amount';
    const inserted = await client.query(returning, [id, 'described']);
    expect(inserted.fields.map((field) => field.name)).toEqual(['id', 'label', 'amount']);
    expect(inserted.rows).toEqual([{ id, label: 'described', amount: null }]);
    const plain = await PGlite.create();
    try {
      await plain.exec('create table t (id int primary key, label text, amount numeric, at timestamptz)');
      await plain.query('insert into t (id, label) values ($1, $2)', [id, 'described']);
      for (let run = 0; run < 3; run += 1) {
        const prepared = await client.query(select, [id]);
        const fresh = await plain.query(select, [id]);
        expect(prepared.fields).toEqual(fresh.fields);
        expect(prepared.rows).toEqual(fresh.rows);
      }
    } finally {
      await plain.close();
    }
    const updated = await client.query('update t set label = $2 where id = $1', [id, 'no rows back']);
    expect([updated.rows, updated.affectedRows]).toEqual([[], 1]);
  });

  it('never answers a prepared statement with the columns of a table changed since', async () => {
    const star = 'select * from t where id = $1';
    const id = Math.floor(Math.random() * 1e6);
    await client.query('insert into t (id, label) values ($1, $2)', [id, 'before']);
    expect((await client.query(star, [id])).fields).toHaveLength(4);
    await client.exec('alter table t add column extra text');
    try {
      const after = await client.query(star, [id]).catch((error: { code?: string }) => error);
      // PostgreSQL refuses a prepared statement whose result type changed; were it answered, it would be in full.
      if ('fields' in after) expect(after.fields).toHaveLength(5);
      else expect(after.code).toBe('0A000');
    } finally {
      await client.exec('alter table t drop column extra');
    }
  });

  it('runs a statement outside a transaction only once the open transaction has ended, as PGlite does', async () => {
    const id = Math.floor(Math.random() * 1e6);
    await client.query(select, [id]);
    let commit!: () => void;
    const open = client.transaction(async (tx) => {
      await tx.query('insert into t (id, label) values ($1, $2)', [id, 'committed']);
      await new Promise<void>((resolve) => (commit = resolve));
    });
    await new Promise((resolve) => setTimeout(resolve, 5));
    let answered = false;
    const outside = client.query<{ label: string }>(select, [id]).finally(() => (answered = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(answered).toBe(false);
    commit();
    await open;
    expect((await outside).rows.map((row) => row.label)).toEqual(['committed']);
  });

  it('rolls a failed transaction back and keeps serving afterwards', async () => {
    const id = Math.floor(Math.random() * 1e6);
    await expect(
      client.transaction(async (tx) => {
        await tx.query('insert into t (id, label) values ($1, $2)', [id, 'rolled back']);
        await tx.query('insert into t (id, label) values ($1, $2)', [id, 'duplicate']);
      }),
    ).rejects.toMatchObject({ code: '23505' });
    expect((await client.query(select, [id])).rows).toEqual([]);
    await expect(client.query('select nope from t where id = $1', [id])).rejects.toMatchObject({ code: '42703' });
    expect((await client.query('select count(*)::int as n from t where id = $1', [id])).rows).toEqual([{ n: 0 }]);
  });
});

describe('PGlite prepared statements as tables grow', () => {
  const byKey = 'select label from grown where tenant = $1 and id = $2';

  /** The plan the named statement of `text` now executes with (its generic plan once one is cached). */
  async function planOf(client: PGlite, text: string): Promise<string> {
    const named = await client.query<{ name: string }>('select name from pg_prepared_statements where statement = $1', [
      text,
    ]);
    expect(named.rows).toHaveLength(1);
    const explained = await client.query<{ 'QUERY PLAN': string }>(`explain execute ${named.rows[0].name}('a', 7)`);
    return explained.rows.map((row) => row['QUERY PLAN']).join('\n');
  }

  it.each([
    { bound: 'its age', replan: { afterExecutions: 1e9, afterMs: 200 }, wait: 250 },
    { bound: 'its executions', replan: { afterExecutions: 30, afterMs: 1e9 }, wait: 0 },
  ])(
    'plans a statement again after $bound: a scan of five rows becomes a key lookup of 5,000',
    async ({ replan, wait }) => {
      const client = await PGlite.create();
      try {
        preparePgliteStatements(client, replan);
        await client.exec(`
          create table grown (tenant text, id int, label text, primary key (tenant, id));
          insert into grown select 'a', n, 'row ' || n from generate_series(1, 5) as n;
          analyze grown;`);
        for (let run = 0; run < 10; run += 1) await client.query(byKey, ['a', 3]);
        expect(await planOf(client, byKey)).toContain('Seq Scan');

        await client.exec(`insert into grown select 'a', n, 'row ' || n from generate_series(6, 5000) as n`);
        await new Promise((resolve) => setTimeout(resolve, wait));
        for (let run = 0; run < 30; run += 1) {
          expect((await client.query<{ label: string }>(byKey, ['a', 4000 + run])).rows).toEqual([
            { label: `row ${4000 + run}` },
          ]);
        }
        expect(await planOf(client, byKey)).toContain('Index Scan using grown_pkey');
      } finally {
        await client.close();
      }
    },
  );
});
