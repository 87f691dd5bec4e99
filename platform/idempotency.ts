import { createHash } from 'node:crypto';
import { and, eq, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { jsonb, primaryKey, text, timestamp, type PgSchema } from 'drizzle-orm/pg-core';
import { rowsOf, type Database } from './db.ts';
import { DomainError } from './errors.ts';
import { columnNames } from './insert-with.ts';

/**
 * The Idempotency-Key store. Each service keeps its records in its own schema (this factory makes
 * the table there). A command runs in one transaction with its record: an identical replay returns
 * the stored answer, a changed request under the key is refused, and concurrent duplicates are
 * serialized on an advisory lock so the command runs once.
 */
export function idempotencyTable(schema: PgSchema) {
  return schema.table(
    'idempotency_records',
    {
      tenantId: text('tenant_id').notNull(),
      operation: text('operation').notNull(),
      idempotencyKey: text('idempotency_key').notNull(),
      requestHash: text('request_hash').notNull(),
      response: jsonb('response').notNull(),
      createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    },
    (table) => [primaryKey({ columns: [table.tenantId, table.operation, table.idempotencyKey] })],
  );
}

export type IdempotencyTable = ReturnType<typeof idempotencyTable>;

/** What a command reports: its answer, whether it created something, whether it was a replay. */
export interface CommandResult<T> {
  value: T;
  created: boolean;
  replayed: boolean;
}

export function requestHash(request: unknown): string {
  return createHash('sha256').update(canonicalJson(request)).digest('hex');
}

/** JSON with object keys sorted, so the same request always hashes the same. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

export interface IdempotentCall {
  tenantId: string;
  operation: string;
  key: string | undefined;
  request: unknown;
}

const MAX_KEY_LENGTH = 255;

/**
 * How long a key is remembered. Past it, the key is free again and the request runs as new; the
 * sweep deletes the records. Long enough for a school's nightly or weekly import to retry.
 */
export const IDEMPOTENCY_RETENTION_DAYS = 7;
const RETENTION = sql.raw(`interval '${IDEMPOTENCY_RETENTION_DAYS} days'`);

/**
 * The stored answer of an identical earlier request under this key, if it is still retained;
 * a changed request under a retained key is refused.
 */
export async function storedAnswer<T>(
  db: Database,
  table: IdempotencyTable,
  call: IdempotentCall & { key: string },
): Promise<CommandResult<T> | undefined> {
  const [stored] = await db
    .select({ requestHash: table.requestHash, response: table.response })
    .from(table)
    .where(
      and(
        eq(table.tenantId, call.tenantId),
        eq(table.operation, call.operation),
        eq(table.idempotencyKey, call.key),
        sql`${table.createdAt} > now() - ${RETENTION}`,
      ),
    );
  if (!stored) return undefined;
  if (stored.requestHash !== requestHash(call.request)) {
    throw new DomainError('idempotency_conflict', 'This Idempotency-Key was already used with a different request.');
  }
  return { value: stored.response as T, created: false, replayed: true };
}

/**
 * Runs `command` inside `tx` at most once per (tenant, operation, key) within the retention window.
 * Without a key the command simply runs. Must be called inside the command's transaction.
 *
 * The key is claimed first by inserting its record: a concurrent duplicate's insert waits on the
 * uncommitted row, then finds it taken and reads the answer it stored (a new statement, so it sees
 * the commit). Two statements on the way through: the claim and the answer.
 */
export async function runIdempotent<T>(
  tx: Database,
  table: IdempotencyTable,
  call: IdempotentCall,
  command: () => Promise<{ value: T; created: boolean }>,
): Promise<CommandResult<T>> {
  // Object.assign rather than `{ ...result, replayed }`: V8 (Node 20) adds a property after a spread through its
  // runtime, about 1 us, on every command.
  if (call.key === undefined) return Object.assign({}, await command(), { replayed: false });
  const key = checkedKey(call.key);
  const claimed = rowsOf(await tx.execute(claimStatement(table, call, key)));
  if (claimed.length === 0) {
    const replay = await storedAnswer<T>(tx, table, { ...call, key: call.key });
    if (!replay) throw new Error(`idempotency record ${call.operation} ${call.key} taken but not readable`);
    return replay;
  }
  const result = await command();
  await tx.execute(answerStatement(table, call, key, result.value));
  return Object.assign({}, result, { replayed: false });
}

/** The key as sent, refused when empty or longer than a record keeps. */
export function checkedKey(key: string): string {
  if (key === '' || key.length > MAX_KEY_LENGTH) {
    throw new DomainError('validation_failed', `Idempotency-Key must be 1 to ${MAX_KEY_LENGTH} characters.`, {
      fieldErrors: [{ field: 'Idempotency-Key', message: 'invalid length' }],
    });
  }
  return key;
}

/** A fresh key's record with its answer, for a command written by one statement (`recordWith`). */
export interface FreshRecord {
  tenantId: string;
  operation: string;
  idempotencyKey: string;
  requestHash: string;
}

/**
 * Inserts, for each row of `created` (the CTE of a create), its key's record holding its answer: the
 * columns `tenant_id`, `operation`, `idempotency_key`, `request_hash` (a `FreshRecord`) and `answer`
 * (jsonb) of `given`, the row set the creates came from, joined on the column `joinedOn`. No claim
 * before it and no conflict clause: a key already held, even past retention, makes the whole statement
 * fail on the record's primary key (`isUniqueViolation`), and a concurrent holder's insert is waited
 * for first, so the statement writes all of it or nothing.
 */
export function recordWith(table: IdempotencyTable, created: SQLWrapper, given: SQL, joinedOn: string): SQL {
  const columns = columnNames(table.requestHash, table.response, table.createdAt);
  const on = sql.identifier(joinedOn);
  return sql`insert into ${table} (${keyColumns(table)}, ${columns})
    select given.tenant_id, given.operation, given.idempotency_key, given.request_hash, given.answer, now()
    from ${created} created join ${given} on given.${on} = created.${on}`;
}

/** A statement failed on a unique key (PostgreSQL's 23505), whichever driver reported it. */
export function isUniqueViolation(error: unknown): boolean {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  return (cause as { code?: unknown } | undefined)?.code === '23505';
}

/** The record's key columns, unqualified: `tenant_id, operation, idempotency_key`. */
const keyColumns = (table: IdempotencyTable) => columnNames(table.tenantId, table.operation, table.idempotencyKey);

/**
 * Claims the key by inserting its record; a record past retention still holds the key's row, and this
 * request takes it over. Until the command answers, the record holds a JSON null; it never commits so.
 * One SQL template: drizzle's insert builder cost more than the statement on every keyed command.
 */
function claimStatement(table: IdempotencyTable, call: IdempotentCall, key: string) {
  const [requestHashColumn, response, createdAt] = [table.requestHash, table.response, table.createdAt].map((column) =>
    columnNames(column),
  );
  return sql`insert into ${table} as current (${keyColumns(table)}, ${requestHashColumn}, ${response}, ${createdAt})
    values (${call.tenantId}, ${call.operation}, ${key}, ${requestHash(call.request)}, 'null'::jsonb, now())
    on conflict (${keyColumns(table)}) do update
      set ${requestHashColumn} = excluded.${requestHashColumn}, ${response} = 'null'::jsonb, ${createdAt} = now()
      where current.${createdAt} <= now() - ${RETENTION}
    returning ${columnNames(table.idempotencyKey)}`;
}

/** The command's answer, written into the record its claim inserted. */
function answerStatement(table: IdempotencyTable, call: IdempotentCall, key: string, value: unknown) {
  return sql`update ${table} set ${columnNames(table.response)} = ${JSON.stringify(value)}::jsonb
    where (${keyColumns(table)}) = (${call.tenantId}, ${call.operation}, ${key})`;
}

/** Deletes the records past retention; returns how many. */
export async function sweepIdempotencyRecords(db: Database, table: IdempotencyTable): Promise<number> {
  const deleted = await db
    .delete(table)
    .where(sql`${table.createdAt} <= now() - ${RETENTION}`)
    .returning({ key: table.idempotencyKey });
  return deleted.length;
}

export function requireIdempotencyKey(key: string | undefined): string {
  if (key === undefined)
    throw new DomainError('idempotency_key_required', 'Send an Idempotency-Key header with this write.');
  return key;
}
