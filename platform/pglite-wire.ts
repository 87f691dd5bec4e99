import { messages, types, type ParserOptions, type Results } from '@electric-sql/pglite';

/**
 * The PostgreSQL wire messages of one execution of a named prepared statement on PGlite, written and
 * read here instead of by PGlite's generic protocol parser, which builds a message object per row and
 * per message and copies each field out of the answer: for a one-row read that parser was a fifth of
 * the statement's cost. Only what a Bind/Execute/Sync can answer is read (BindComplete, DataRow,
 * CommandComplete, EmptyQueryResponse, ErrorResponse, ReadyForQuery); notices and notifications are
 * skipped, as PGlite skips them unless asked (the platform asks for neither). Rows come out exactly as
 * PGlite's `parseResults` makes them: each column through the caller's parser for its type, else
 * PGlite's default parser, else the text itself.
 */

type Parser = (text: string, typeId: number) => unknown;

export interface Column {
  name: string;
  dataTypeID: number;
}

/** A statement's columns and the parser of each, resolved once per parser table. */
export interface RowShape {
  fields: Column[];
  parsers: Array<Parser | undefined>;
  names: string[];
}

export function rowShape(fields: Column[], parsers: ParserOptions): RowShape {
  const defaults = types.parsers as ParserOptions;
  return {
    fields,
    parsers: fields.map(({ dataTypeID }) => (parsers[dataTypeID] ?? defaults[dataTypeID]) as Parser | undefined),
    names: fields.map(({ name }) => name),
  };
}

const EXECUTE_AND_SYNC = Buffer.from([0x45, 0, 0, 0, 9, 0, 0, 0, 0, 0, 0x53, 0, 0, 0, 4]);
/** A UTF-16 code unit takes at most 3 bytes in UTF-8. */
const MAX_UTF8_PER_UNIT = 3;

/**
 * Writes Bind (unnamed portal, every parameter and result column in text) of a named statement, then
 * Execute (all rows) and Sync, into one reused buffer: the message is consumed by the synchronous call
 * it is given to, before the next one is written.
 */
export class ExecuteMessage {
  #buffer = Buffer.allocUnsafe(4096);

  write(statement: string, values: ReadonlyArray<string | null>): Uint8Array {
    let bound = 1 + 4 + 1 + statement.length + 1 + 2 + 2 + 2 + EXECUTE_AND_SYNC.length;
    for (const value of values) bound += 4 + (value === null ? 0 : value.length * MAX_UTF8_PER_UNIT);
    if (bound > this.#buffer.length) this.#buffer = Buffer.allocUnsafe(Math.max(bound, this.#buffer.length * 2));
    const buffer = this.#buffer;
    buffer[0] = 0x42;
    let offset = 5;
    buffer[offset++] = 0; // the unnamed portal
    offset += buffer.write(statement, offset, 'latin1');
    buffer[offset++] = 0;
    offset = buffer.writeUInt16BE(0, offset); // no parameter format codes: all text
    offset = buffer.writeUInt16BE(values.length, offset);
    for (const value of values) {
      if (value === null) {
        offset = buffer.writeInt32BE(-1, offset);
      } else {
        const length = buffer.write(value, offset + 4, 'utf8');
        buffer.writeInt32BE(length, offset);
        offset += 4 + length;
      }
    }
    offset = buffer.writeUInt16BE(0, offset); // no result format codes: all text
    buffer.writeInt32BE(offset - 1, 1);
    offset += EXECUTE_AND_SYNC.copy(buffer, offset);
    return buffer.subarray(0, offset);
  }
}

const ERROR_FIELDS = {
  S: 'severity',
  C: 'code',
  D: 'detail',
  H: 'hint',
  P: 'position',
  p: 'internalPosition',
  q: 'internalQuery',
  W: 'where',
  s: 'schema',
  t: 'table',
  c: 'column',
  d: 'dataType',
  n: 'constraint',
  F: 'file',
  L: 'line',
  R: 'routine',
} as const satisfies Record<string, keyof messages.DatabaseError>;

const COUNTED_COMMANDS = new Set(['INSERT', 'UPDATE', 'DELETE', 'COPY', 'MERGE']);

/** Collects what the backend writes during one synchronous call, then reads it. */
export class BackendAnswer {
  #buffer = Buffer.allocUnsafe(16_384);
  #length = 0;

  reset(): void {
    this.#length = 0;
  }

  /** PGlite's raw-data callback: `bytes` is a view into the WASM memory, valid only during the call. */
  readonly append = (bytes: Uint8Array): void => {
    const needed = this.#length + bytes.length;
    if (needed > this.#buffer.length) {
      const grown = Buffer.allocUnsafe(Math.max(needed, this.#buffer.length * 2));
      this.#buffer.copy(grown, 0, 0, this.#length);
      this.#buffer = grown;
    }
    this.#buffer.set(bytes, this.#length);
    this.#length = needed;
  };

  /** The result of the execution, or the error PostgreSQL answered (the same object PGlite throws). */
  read(shape: RowShape, rowMode: 'array' | 'object' | undefined): Results<unknown> | messages.DatabaseError {
    const buffer = this.#buffer;
    const rows: unknown[] = [];
    let result: Results<unknown> | undefined;
    let offset = 0;
    while (offset + 5 <= this.#length) {
      const code = buffer[offset];
      const length = buffer.readUInt32BE(offset + 1);
      const body = offset + 5;
      offset += 1 + length;
      if (code === 0x44) rows.push(readRow(buffer, body, shape, rowMode === 'array'));
      else if (code === 0x43) result = completed(buffer.toString('latin1', body, offset - 1), rows, shape.fields);
      else if (code === 0x45) return readError(buffer, body, offset, length);
    }
    return result ?? { affectedRows: 0, rows: [], fields: [] };
  }
}

function readRow(buffer: Buffer, body: number, shape: RowShape, asArray: boolean): unknown {
  const count = buffer.readUInt16BE(body);
  const row: unknown[] | Record<string, unknown> = asArray ? new Array<unknown>(count) : {};
  let offset = body + 2;
  for (let column = 0; column < count; column += 1) {
    const length = buffer.readInt32BE(offset);
    offset += 4;
    let value: unknown = null;
    if (length >= 0) {
      const text = buffer.toString('utf8', offset, offset + length);
      offset += length;
      const parse = shape.parsers[column];
      value = parse ? parse(text, shape.fields[column].dataTypeID) : text;
    }
    if (asArray) (row as unknown[])[column] = value;
    else (row as Record<string, unknown>)[shape.names[column]] = value;
  }
  return row;
}

/** As PGlite's `parseResults` reads a command tag ("SELECT 1", "INSERT 0 5", "CREATE TABLE"). */
function completed(tag: string, rows: unknown[], fields: Column[]): Results<unknown> {
  const parts = tag.split(' ');
  const command = parts[0];
  const rowCount = parseInt(parts[parts.length - 1], 10);
  const result: Results<unknown> = {
    rows,
    fields,
    command,
    affectedRows: COUNTED_COMMANDS.has(command) ? rowCount : 0,
  };
  if (!Number.isNaN(rowCount)) result.rowCount = rowCount;
  return result;
}

/** As PGlite's protocol parser builds a DatabaseError from an ErrorResponse. */
function readError(buffer: Buffer, body: number, end: number, length: number): messages.DatabaseError {
  const fields: Record<string, string> = {};
  let offset = body;
  while (offset < end && buffer[offset] !== 0) {
    const type = String.fromCharCode(buffer[offset]);
    const valueEnd = buffer.indexOf(0, offset + 1);
    fields[type] = buffer.toString('utf8', offset + 1, valueEnd);
    offset = valueEnd + 1;
  }
  const error = new messages.DatabaseError(fields.M, length, 'error');
  for (const [type, property] of Object.entries(ERROR_FIELDS)) error[property] = fields[type];
  return error;
}
