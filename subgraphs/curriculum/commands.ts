import type { Database } from '../../platform/db.ts';
import type { RequestContext } from '../../platform/context.ts';
import { requireIdempotencyKey, runIdempotent, storedAnswer, type CommandResult } from '../../platform/idempotency.ts';
import { checkIfMatch } from '../../platform/etag.ts';
import { curriculumIdempotency } from './tables.ts';

/**
 * How every curriculum write runs: one transaction holding its Idempotency-Key record. Commands that
 * ask content first look their key up before that call, so a replay answers the stored result
 * instead of being judged again against a state it already changed.
 */

export interface CommandCall {
  operation: string;
  key: string | undefined;
  request: unknown;
  /** The write is listed with a required Idempotency-Key. */
  keyRequired?: boolean;
}

export async function runCommand<T>(
  db: Database,
  ctx: RequestContext,
  call: CommandCall,
  command: (tx: Database) => Promise<{ value: T; created: boolean }>,
): Promise<CommandResult<T>> {
  const key = call.keyRequired ? requireIdempotencyKey(call.key) : call.key;
  return db.transaction((tx) =>
    runIdempotent(tx, curriculumIdempotency, { tenantId: ctx.tenantId, operation: call.operation, key, request: call.request }, () => command(tx)),
  );
}

/** The stored answer of an identical earlier request under this key, read before any outside call. */
export async function storedReplay<T>(db: Database, ctx: RequestContext, call: CommandCall): Promise<CommandResult<T> | undefined> {
  const key = call.keyRequired ? requireIdempotencyKey(call.key) : call.key;
  if (key === undefined) return undefined;
  return storedAnswer<T>(db, curriculumIdempotency, { tenantId: ctx.tenantId, operation: call.operation, key, request: call.request });
}

/** X-Curriculum-If-Match on component and association mutations. */
export function checkCurriculumIfMatch(header: string | undefined, etag: string): void {
  checkIfMatch(header, etag, 'X-Curriculum-If-Match');
}
