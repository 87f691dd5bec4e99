import { PGlite, types, type QueryOptions } from '@electric-sql/pglite';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { preparePgliteStatements } from './pglite-statements.ts';
import { BackendAnswer, ExecuteMessage, rowShape } from './pglite-wire.ts';

/**
 * The prepared path writes Bind/Execute/Sync and reads the answer itself (`pglite-wire.ts`); PGlite's
 * own `query` is the reference: every result and every error must come out the same from both.
 */
const TABLE = `create table t (
  id int primary key, txt text, small int2, big int8, flag bool, at timestamptz, local timestamp, day date,
  doc jsonb, raw json, ref uuid, amount numeric, ratio float8, tags text[], counts int4[], bytes bytea,
  span interval, code text unique, check (small is null or small <> 12345)
)`;
const COLUMNS = ['txt', 'small', 'big', 'flag', 'at', 'local', 'day', 'doc', 'raw', 'ref', 'amount', 'ratio', 'tags'];
const MORE = ['counts', 'bytes', 'span'];
const INSERT = `insert into t (id, ${[...COLUMNS, ...MORE].join(', ')}) values (${Array.from({ length: 17 }, (_, i) => `$${i + 1}`).join(', ')})`;

/** drizzle's parsers: timestamps, dates and intervals as PostgreSQL prints them. */
const DRIZZLE: QueryOptions = {
  rowMode: 'array',
  parsers: Object.fromEntries(
    [types.TIMESTAMP, types.TIMESTAMPTZ, types.INTERVAL, types.DATE, 1231, 1115, 1185, 1187, 1182].map((oid) => [
      oid,
      (value: string) => value,
    ]),
  ),
};
const READS: Array<QueryOptions | undefined> = [undefined, { rowMode: 'array' }, DRIZZLE];

const text = fc.string({ unit: 'grapheme', maxLength: 40 }).filter((value) => !value.includes('\0'));
const date = fc.date({ min: new Date('1900-01-01'), max: new Date('2200-01-01'), noInvalidDate: true });
// PGlite sends a string as JSON text itself: wrapped, every JSON value is sent serialized.
const json = fc
  .jsonValue({ maxDepth: 3 })
  .filter((value) => !JSON.stringify(value).includes('\\u0000'))
  .map((value) => ({ value }));
const nullable = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: null, freq: 4 });
const row = fc.tuple(
  nullable(text),
  nullable(fc.integer({ min: -32768, max: 32767 }).filter((small) => small !== 12345)),
  nullable(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n })),
  nullable(fc.boolean()),
  nullable(date),
  nullable(date),
  nullable(date),
  nullable(json),
  nullable(json),
  nullable(fc.uuid()),
  nullable(fc.oneof(fc.integer().map(String), fc.double({ noNaN: true, noDefaultInfinity: true }).map(String))),
  nullable(fc.double()),
  nullable(fc.array(text, { maxLength: 4 })),
  nullable(fc.array(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), { maxLength: 4 })),
  nullable(fc.uint8Array({ maxLength: 16 })),
  nullable(fc.integer({ min: -1e6, max: 1e6 }).map((seconds) => `${seconds} seconds`)),
);

describe('PGlite wire: Bind/Execute/Sync written and answered without PGlite protocol parser', () => {
  let prepared: PGlite;
  let plain: PGlite;
  let nextId = 0;

  beforeAll(async () => {
    [prepared, plain] = await Promise.all([PGlite.create(), PGlite.create()]);
    preparePgliteStatements(prepared);
    await Promise.all([prepared.exec(TABLE), plain.exec(TABLE)]);
  });
  afterAll(async () => {
    await Promise.all([prepared.close(), plain.close()]);
  });

  /** Runs the same statement on both databases: the same result, or the same error. */
  async function same(sql: string, params: unknown[] = [], options?: QueryOptions) {
    const [mine, reference] = await Promise.all(
      [prepared, plain].map((db) =>
        db.query(sql, params, options).then(
          (result) => ({ result }),
          (error: Error) => ({ error }),
        ),
      ),
    );
    if ('error' in reference) {
      expect('error' in mine, `expected the error ${reference.error.message}`).toBe(true);
      const error = (mine as { error: Error }).error;
      expect(error).toBeInstanceOf(reference.error.constructor);
      expect({ ...error, message: error.message }).toEqual({
        ...reference.error,
        message: reference.error.message,
        // PGlite's own query adds what it ran to its errors; the platform reads only PostgreSQL's fields.
        query: undefined,
        params: undefined,
        queryOptions: undefined,
      });
    } else {
      expect(mine).toEqual(reference);
    }
    return reference;
  }

  it('reads every column type, NULLs included, in each row mode and with drizzle parsers', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(row, { minLength: 0, maxLength: 5 }), async (rows) => {
        const first = nextId;
        for (const values of rows) await same(INSERT, [(nextId += 1), ...values]);
        const all = `select id, ${[...COLUMNS, ...MORE].join(', ')} from t where id > $1 and id <= $2 order by id`;
        for (const options of READS) {
          const read = await same(all, [first, nextId], options);
          expect('result' in read && read.result.rows).toHaveLength(rows.length);
        }
      }),
      { numRuns: 40 },
    );
  });

  it('answers command tags, affected rows and empty results as PGlite does', async () => {
    const id = (nextId += 1);
    await same('insert into t (id, txt) values ($1, $2) returning id, txt, doc', [id, `tag-${id}`]);
    await same('update t set small = $2 where id = $1', [id, 7]);
    await same('update t set small = $2 where id = $1', [-1, 7]);
    await same('select txt from t where id = $1', [-1]);
    await same('select count(*) from t where id <= $1', [id]);
    await same('delete from t where id = $1', [id]);
    await same('select $1::text as echo, $2::text as other', [null, '']);
  });

  it('throws the error PostgreSQL answered, with its code, constraint, table and position', async () => {
    const id = (nextId += 1);
    await same('insert into t (id, code) values ($1, $2)', [id, `unique-${id}`]);
    await same('insert into t (id, code) values ($1, $2)', [id, 'primary key taken']);
    await same('insert into t (id, code) values ($1, $2)', [id + 1e6, `unique-${id}`]);
    await same('insert into t (id, small) values ($1, $2)', [id + 2e6, 12345]);
    await same('insert into t (id) values ($1)', [null]);
    await same('select id from t where id = $1', ['not a number']);
    await same('select 1 / $1::int as quotient', [0]);
    await same('select ($1::jsonb)->>0 as first', ['{broken']);
    await same('select id from t where id = $1', [id]);
  });

  it('carries long, multi-byte and many values both ways (buffers grow past their first size)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ unit: 'grapheme', minLength: 5000, maxLength: 20_000 }).filter((value) => !value.includes('\0')),
        async (long) => {
          await same('select $1::text as long, length($1::text) as characters', [long]);
        },
      ),
      { numRuns: 5 },
    );
    await same('select n, repeat($1, n) as filler from generate_series(1, 400) as n', ['é']);
  });

  it('reads an answer delivered in pieces, and a message written again after a larger one', () => {
    const shape = rowShape(
      [
        { name: 'n', dataTypeID: types.INT4 },
        { name: 'label', dataTypeID: types.TEXT },
      ],
      {},
    );
    const dataRow = (n: number, label: string | null) => {
      const value = label === null ? Buffer.alloc(0) : Buffer.from(label);
      const body = Buffer.concat([
        Buffer.from([0, 2, 0, 0, 0, String(n).length]),
        Buffer.from(String(n)),
        Buffer.alloc(4),
        value,
      ]);
      body.writeInt32BE(label === null ? -1 : value.length, 6 + String(n).length);
      const head = Buffer.alloc(5);
      head[0] = 0x44;
      head.writeUInt32BE(body.length + 4, 1);
      return Buffer.concat([head, body]);
    };
    const complete = Buffer.concat([Buffer.from([0x43, 0, 0, 0, 13]), Buffer.from('SELECT 3\0')]);
    const ready = Buffer.from([0x5a, 0, 0, 0, 5, 0x49]);
    const wire = Buffer.concat([dataRow(1, 'ünï'), dataRow(2, null), dataRow(3, 'x'.repeat(20_000)), complete, ready]);
    const answer = new BackendAnswer();
    answer.reset();
    for (let offset = 0; offset < wire.length; offset += 7) answer.append(wire.subarray(offset, offset + 7));
    expect(answer.read(shape, 'object')).toEqual({
      rows: [
        { n: 1, label: 'ünï' },
        { n: 2, label: null },
        { n: 3, label: 'x'.repeat(20_000) },
      ],
      fields: shape.fields,
      command: 'SELECT',
      affectedRows: 0,
      rowCount: 3,
    });
    answer.reset();
    expect(answer.read(shape, 'array')).toEqual({ affectedRows: 0, rows: [], fields: [] });

    const message = new ExecuteMessage();
    const long = message.write('alp_1', ['€'.repeat(3000), null]).length;
    const short = message.write('alp_2', ['a']);
    expect(long).toBeGreaterThan(9000);
    // Bind: name, portal, statement, no formats, one value (length 1, "a"), no result formats; then Execute, Sync.
    expect(Buffer.from(short).toString('hex')).toBe(
      '4200000016' +
        '00' +
        Buffer.from('alp_2').toString('hex') +
        '00' +
        '0000' +
        '0001' +
        '0000000161' +
        '0000' +
        '450000000900000000005300000004',
    );
  });
});
