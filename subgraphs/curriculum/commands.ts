import { and, eq } from 'drizzle-orm';
import type { Database } from '../../platform/db.ts';
import type { RequestContext } from '../../platform/context.ts';
import { DomainError } from '../../platform/errors.ts';
import { requestHash, requireIdempotencyKey, runIdempotent, type CommandResult } from '../../platform/idempotency.ts';
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
  const [stored] = await db
    .select({ requestHash: curriculumIdempotency.requestHash, response: curriculumIdempotency.response })
    .from(curriculumIdempotency)
    .where(
      and(
        eq(curriculumIdempotency.tenantId, ctx.tenantId),
        eq(curriculumIdempotency.operation, call.operation),
        eq(curriculumIdempotency.idempotencyKey, key),
      ),
    );
  if (!stored) return undefined;
  if (stored.requestHash !== requestHash(call.request)) {
    throw new DomainError('idempotency_conflict', 'This Idempotency-Key was already used with a different request.');
  }
  return { value: stored.response as T, created: false, replayed: true };
}

/** X-Curriculum-If-Match on component and association mutations. */
export function checkCurriculumIfMatch(header: string | undefined, etag: string): void {
  checkIfMatch(header, etag, 'X-Curriculum-If-Match');
}
