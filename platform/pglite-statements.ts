import { parse as pgliteResults, protocol, type PGlite, type QueryOptions, type Results } from '@electric-sql/pglite';

/**
 * Named prepared statements for PGlite, the way postgres.js prepares them on PostgreSQL. PGlite's own
 * `query` parses, plans and describes every statement anew in five separate calls into the WASM
 * Postgres (and copies its whole parser table for each call when given parsers, as drizzle does).
 * Here each distinct SQL text is parsed and described once per database into a named statement; a
 * later call is one Bind/Execute/Sync round trip, its rows read with the row description kept. Only the statement is reused, never a result: every
 * call reads the current rows.
 */

/** Bounds on distinct SQL texts kept prepared and on their length; others run unprepared. */
const MAX_PREPARED = 2000;
const MAX_PREPARED_LENGTH = 20_000;

interface Prepared {
  name: string;
  parameterTypes: number[];
  /** The statement's row shape, described once: a named statement's result columns cannot change. */
  rowDescription: BackendMessage | undefined;
}

type BackendMessage = Awaited<ReturnType<PGlite['execProtocol']>>['messages'][number];

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
export function preparePgliteStatements(client: PGlite): void {
  const prepared = new Map<string, Prepared>();
  const mergedParsers = new Map<string, PGlite['parsers']>();

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

  const concat = (parts: Uint8Array[]) => {
    const message = new Uint8Array(parts.reduce((length, part) => length + part.length, 0));
    let offset = 0;
    for (const part of parts) {
      message.set(part, offset);
      offset += part.length;
    }
    return message;
  };

  /** Runs protocol messages and a Sync as one call; a database error is thrown after the Sync. */
  const run = async (parts: Uint8Array[]) =>
    (await client.execProtocol(concat([...parts, protocol.serialize.sync()]), { syncToFs: false })).messages;

  const prepare = async (text: string, types: number[] | undefined): Promise<Prepared> => {
    const name = `alp_${prepared.size}`;
    const messages = await run([
      protocol.serialize.parse({ name, text, types }),
      protocol.serialize.describe({ type: 'S', name }),
    ]);
    const statement = {
      name,
      parameterTypes: pgliteResults.parseDescribeStatementResults(messages),
      rowDescription: messages.find((message) => message.name === 'rowDescription'),
    };
    prepared.set(text, statement);
    return statement;
  };

  const execute = async (
    text: string,
    params: unknown[] = [],
    options: QueryOptions | undefined,
    inTransaction: boolean,
  ): Promise<Results<unknown>> => {
    await yieldWhenTurnIsLong();
    const statement = prepared.get(text) ?? (await prepare(text, options?.paramTypes));
    const values = params.map((param, index) => {
      if (param === null || param === undefined) return null;
      const type = statement.parameterTypes[index];
      const serialize = options?.serializers?.[type] ?? client.serializers[type];
      return serialize ? serialize(param) : String(param);
    });
    const messages = await run([
      protocol.serialize.bind({ statement: statement.name, values }),
      protocol.serialize.execute({}),
    ]);
    if (!inTransaction) await client.syncToFs();
    const { parsers: _given, ...rest } = options ?? {};
    const described = statement.rowDescription ? [statement.rowDescription, ...messages] : messages;
    return pgliteResults.parseResults(described, parsersOf(options), rest)[0];
  };

  const preparable = (text: string, options: QueryOptions | undefined) =>
    !options?.blob && text.length < MAX_PREPARED_LENGTH && (prepared.has(text) || prepared.size < MAX_PREPARED);

  const unprepared = client.query.bind(client) as Query;
  client.query = (async (text: string, params?: unknown[], options?: QueryOptions) => {
    if (!preparable(text, options)) return unprepared(text, params, options);
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
        return client._runExclusiveQuery(() => execute(text, params, options, true));
      }) as typeof tx.query;
      return callback(tx);
    })) as PGlite['transaction'];
}
