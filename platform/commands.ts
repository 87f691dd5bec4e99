import type { RequestContext } from './context.ts';
import { DomainError } from './errors.ts';
import type { Database } from './db.ts';
import {
  checkedKey,
  isUniqueViolation,
  requestHash,
  requireIdempotencyKey,
  runIdempotent,
  storedAnswer,
  type CommandResult,
  type FreshRecord,
  type IdempotencyTable,
} from './idempotency.ts';

/**
 * How every write runs: one transaction holding its Idempotency-Key record (taken under an advisory
 * lock, so concurrent duplicates run the command once). Commands that ask another service first look
 * their key up before that call, so a replay answers the stored result instead of being judged again
 * against a state it already changed.
 */

/** What the runner needs from a service's deps: its database and its own idempotency table. */
export interface CommandDeps {
  db: Database;
  idempotency: IdempotencyTable;
}

export interface CommandCall {
  operation: string;
  key: string | undefined;
  /**
   * The request as the client sent it: the raw JSON body (GraphQL: the mutation's input), plus any
   * value the operation name does not carry. Never the parsed input: parsing trims and fills
   * defaults, so two different requests would parse alike and the second would replay the first.
   */
  sent: unknown;
  /** The write is listed with a required Idempotency-Key. */
  keyRequired?: boolean;
}

export async function runCommand<T>(
  deps: CommandDeps,
  ctx: RequestContext,
  call: CommandCall,
  command: (tx: Database) => Promise<{ value: T; created: boolean }>,
): Promise<CommandResult<T>> {
  const key = call.keyRequired ? requireIdempotencyKey(call.key) : call.key;
  const record = { tenantId: ctx.tenantId, operation: call.operation, key, request: call.sent };
  return deps.db.transaction((tx) => runIdempotent(tx, deps.idempotency, record, () => command(tx)));
}

/**
 * A create whose whole write, under a key never used, is one self-committing statement that stores the
 * key's record with its answer too (`recordWith`): no transaction, no claim before it. `fresh` answers
 * undefined when it wrote nothing (its target taken); then, and when the key is held (the statement
 * failed whole on the record's key), `command` runs the locked way of `runCommand`, which replays,
 * refuses a changed request or judges the taken target.
 */
export async function runFreshFirst<T>(
  deps: CommandDeps,
  ctx: RequestContext,
  call: CommandCall & { key: string },
  fresh: (record: FreshRecord) => Promise<T | undefined>,
  command: (tx: Database) => Promise<{ value: T; created: boolean }>,
): Promise<CommandResult<T>> {
  const record = {
    tenantId: ctx.tenantId,
    operation: call.operation,
    idempotencyKey: checkedKey(call.key),
    requestHash: requestHash(call.sent),
  };
  try {
    const value = await fresh(record);
    if (value !== undefined) return { value, created: true, replayed: false };
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
  }
  return runCommand(deps, ctx, call, command);
}

/** The stored answer of an identical earlier request under this key, read before any outside call. */
export async function storedReplay<T>(
  deps: CommandDeps,
  ctx: RequestContext,
  call: CommandCall,
): Promise<CommandResult<T> | undefined> {
  const key = call.keyRequired ? requireIdempotencyKey(call.key) : call.key;
  if (key === undefined) return undefined;
  return storedAnswer<T>(deps.db, deps.idempotency, {
    tenantId: ctx.tenantId,
    operation: call.operation,
    key,
    request: call.sent,
  });
}

/**
 * The checks a command makes on the stored row before asking another service. An identical request
 * under the same key may commit between the `storedReplay` lookup and these checks, and then they
 * judge a state that request already changed: when they refuse, its stored answer wins.
 */
export async function judgeBeforeCall<T, J>(
  deps: CommandDeps,
  ctx: RequestContext,
  call: CommandCall,
  judge: () => Promise<J>,
): Promise<{ judged: J } | { replay: CommandResult<T> }> {
  try {
    return { judged: await judge() };
  } catch (error) {
    const replay = error instanceof DomainError ? await storedReplay<T>(deps, ctx, call) : undefined;
    if (replay) return { replay };
    throw error;
  }
}
