import {
  MemoryFS,
  parse as pgliteResults,
  protocol,
  type PGlite,
  type QueryOptions,
  type Results,
} from '@electric-sql/pglite';
import { NodeFS } from '@electric-sql/pglite/nodefs';
import { BackendAnswer, ExecuteMessage, rowShape, type Column, type RowShape } from './pglite-wire.ts';

/**
 * Named prepared statements for PGlite, the way postgres.js prepares them on PostgreSQL. PGlite's own
 * `query` parses, plans and describes every statement anew in five separate calls into the WASM
 * Postgres (and copies its whole parser table for each call when given parsers, as drizzle does).
 * Here each distinct SQL text is parsed and described once per database into a named statement; a
 * later call is one Bind/Execute/Sync round trip, its answer read with the columns kept
 * (`pglite-wire.ts`). Only the statement is reused, never a result: every call reads the current rows.
 */

/** Bounds on distinct SQL texts kept prepared and on their length; others run unprepared. */
const MAX_PREPARED = 2000;
const MAX_PREPARED_LENGTH = 20_000;

/**
 * When a statement is prepared again. Postgres keeps a named statement's generic plan until the
 * table's statistics change, and PGlite runs no autovacuum: a plan made while a table held a few rows
 * (a scan) stayed a scan while the table grew to thousands (the bench's creates took the component
 * read from 196 to 816 us in six seconds). A fresh statement is planned for the table's current size
 * (Postgres reads its pages at planning time). After so many executions, a table can have grown that
 * much; after so long, a statement used rarely is renewed too. A renewal costs about one planning per
 * custom plan (five) and a Parse/Describe, well under a microsecond per execution at this count.
 */
export interface ReplanBounds {
  afterExecutions: number;
  afterMs: number;
}
const REPLAN: ReplanBounds = { afterExecutions: 5_000, afterMs: 60_000 };

interface Prepared {
  name: string;
  preparedAt: number;
  executions: number;
  parameterTypes: number[];
  /** The statement's columns, described once: a named statement's result columns cannot change. */
  fields: Column[];
  /** Its row shape per parser table (drizzle's merged table, PGlite's own). */
  shapes: Map<PGlite['parsers'], RowShape>;
}

/**
 * PGlite answers synchronously, so without a yield a request runs from its first statement to its
 * answer in one turn of the event loop, and a burst of them keeps /healthz and every other socket
 * waiting. A statement yields once the current turn has run for TURN_BUDGET_MS; shorter turns go on.
 */
const TURN_BUDGET_MS = 4;
let turnStarted = performance.now();
let turnMarked = false;

async function yieldWhenTurnIsLong(): Promise<void> {
  if (!turnMarked) {
    turnMarked = true;
    setImmediate(() => {
      turnMarked = false;
      turnStarted = performance.now();
    });
  }
  if (performance.now() - turnStarted > TURN_BUDGET_MS) await new Promise((resolve) => setImmediate(resolve));
}

type Query = (query: string, params?: unknown[], options?: QueryOptions) => Promise<Results<unknown>>;

/**
 * Installs the prepared path on one PGlite instance: its `query` and the `query` of each
 * transaction it opens. The statement names are this instance's (a statement lives per connection).
 */
export function preparePgliteStatements(client: PGlite, replan: ReplanBounds = REPLAN): void {
  const prepared = new Map<string, Prepared>();
  let statementsMade = 0;
  const mergedParsers = new Map<string, PGlite['parsers']>();
  const message = new ExecuteMessage();
  const answer = new BackendAnswer();
  // These file layers write through to their storage as Postgres writes (their syncToFs does nothing);
  // any other keeps PGlite's sync after each statement outside a transaction.
  const syncsToFs = !(client.fs instanceof NodeFS || client.fs instanceof MemoryFS);

  /**
   * PGlite serializes its work with two mutexes (transactions, queries). Counting who holds or waits
   * for them lets a statement with nobody ahead of it run at once, synchronously, as the mutexes would
   * have let it run, without their promise round trips.
   */
  const ahead = { queries: 0, transactions: 0 };
  type Exclusive = PGlite['_runExclusiveQuery'];
  const counted =
    (waiting: keyof typeof ahead, run: Exclusive): Exclusive =>
    async (fn) => {
      ahead[waiting] += 1;
      try {
        return await run(fn);
      } finally {
        ahead[waiting] -= 1;
      }
    };
  client._runExclusiveQuery = counted('queries', client._runExclusiveQuery.bind(client));
  client._runExclusiveTransaction = counted('transactions', client._runExclusiveTransaction.bind(client));
  const nobodyAhead = (inTransaction: boolean) =>
    ahead.queries === 0 && (inTransaction || ahead.transactions === 0) && client.ready;

  /** drizzle passes a fresh options object per query with the same few parsers: merge them once. */
  const parsersOf = (options: QueryOptions | undefined) => {
    if (!options?.parsers) return client.parsers;
    const key = Object.keys(options.parsers).join(',');
    let merged = mergedParsers.get(key);
    if (!merged) {
      merged = { ...client.parsers, ...options.parsers };
      mergedParsers.set(key, merged);
    }
    return merged;
  };

  /** Prepares `text`, closing the statement it replaces (a statement due for a new plan). */
  const prepare = async (text: string, types: number[] | undefined, replacing?: Prepared): Promise<Prepared> => {
    const name = `alp_${(statementsMade += 1)}`;
    const parts = [
      ...(replacing ? [protocol.serialize.close({ type: 'S', name: replacing.name })] : []),
      protocol.serialize.parse({ name, text, types }),
      protocol.serialize.describe({ type: 'S', name }),
      protocol.serialize.sync(),
    ];
    const { messages } = await client.execProtocol(Buffer.concat(parts), { syncToFs: false });
    const rowDescription = messages.find((message) => message.name === 'rowDescription');
    const statement = {
      name,
      preparedAt: performance.now(),
      executions: 0,
      parameterTypes: pgliteResults.parseDescribeStatementResults(messages),
      fields: rowDescription
        ? (rowDescription as unknown as { fields: Column[] }).fields.map(({ name, dataTypeID }) => ({
            name,
            dataTypeID,
          }))
        : [],
      shapes: new Map(),
    };
    prepared.set(text, statement);
    return statement;
  };

  /** One Bind/Execute/Sync of a prepared statement, run and read synchronously: the caller holds the database. */
  const executeNow = (statement: Prepared, params: unknown[], options: QueryOptions | undefined) => {
    const values = params.map((param, index) => {
      if (param === null || param === undefined) return null;
      const type = statement.parameterTypes[index];
      const serialize = options?.serializers?.[type] ?? client.serializers[type];
      return serialize ? serialize(param) : String(param);
    });
    const parsers = parsersOf(options);
    let shape = statement.shapes.get(parsers);
    if (!shape) {
      shape = rowShape(statement.fields, parsers);
      statement.shapes.set(parsers, shape);
    }
    answer.reset();
    // With syncToFs off the whole call runs before it returns; only a failure of the WASM module itself
    // would reject it, and that is what the caller then sees.
    const ran = client.execProtocolRawStream(message.write(statement.name, values), {
      syncToFs: false,
      onRawData: answer.append,
    });
    let result: ReturnType<BackendAnswer['read']>;
    try {
      result = answer.read(shape, options?.rowMode);
    } catch (error) {
      return ran.then(() => Promise.reject(error));
    }
    return ran.then(() => (result instanceof Error ? Promise.reject(result) : result));
  };

  const execute = async (
    text: string,
    params: unknown[] = [],
    options: QueryOptions | undefined,
    inTransaction: boolean,
  ): Promise<Results<unknown>> => {
    const kept = prepared.get(text);
    // Only outside a transaction: a statement's plan is renewed under both mutexes (see `current`).
    const statement = kept && (inTransaction || current(kept)) ? kept : await prepare(text, options?.paramTypes, kept);
    statement.executions += 1;
    const result = await executeNow(statement, params, options);
    if (!inTransaction && syncsToFs) await client.syncToFs();
    return result;
  };

  const current = (statement: Prepared) =>
    statement.executions < replan.afterExecutions && performance.now() - statement.preparedAt < replan.afterMs;
  /** A kept statement whose plan is young enough runs at once when nobody is ahead; preparing awaits PGlite. */
  const ready = (text: string) => {
    const statement = prepared.get(text);
    return statement !== undefined && current(statement);
  };

  const preparable = (text: string, options: QueryOptions | undefined) =>
    !options?.blob && text.length < MAX_PREPARED_LENGTH && (prepared.has(text) || prepared.size < MAX_PREPARED);

  const unprepared = client.query.bind(client) as Query;
  client.query = (async (text: string, params?: unknown[], options?: QueryOptions) => {
    if (!preparable(text, options)) return unprepared(text, params, options);
    await yieldWhenTurnIsLong();
    if (ready(text) && nobodyAhead(false)) return execute(text, params, options, false);
    return client._runExclusiveTransaction(() =>
      client._runExclusiveQuery(() => execute(text, params, options, false)),
    );
  }) as PGlite['query'];

  const transaction = client.transaction.bind(client);
  client.transaction = ((callback) =>
    transaction(async (tx) => {
      const txQuery = tx.query.bind(tx) as Query;
      tx.query = (async (text: string, params?: unknown[], options?: QueryOptions) => {
        if (tx.closed || !preparable(text, options)) return txQuery(text, params, options);
        await yieldWhenTurnIsLong();
        if (prepared.has(text) && nobodyAhead(true)) return execute(text, params, options, true);
        return client._runExclusiveQuery(() => execute(text, params, options, true));
      }) as typeof tx.query;
      return callback(tx);
    })) as PGlite['transaction'];
}
