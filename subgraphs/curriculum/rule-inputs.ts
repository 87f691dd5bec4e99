import type { RequestContext } from '../../platform/context.ts';
import type { CurriculumDeps } from './deps.ts';

/**
 * The shape of every curriculum rule, and the inputs many of them share, named once so routes,
 * resolvers and rules agree on them: bodies and queries stay as sent (the rule parses them after its
 * access check), headers are the values the transport read.
 */
export type CurriculumRule<Input, Output> = (
  deps: CurriculumDeps,
  ctx: RequestContext,
  input: Input,
) => Promise<Output>;

/** A write's body as sent, and its Idempotency-Key. */
export interface CommandInput {
  body: unknown;
  idempotencyKey: string | undefined;
}

/** A guarded write's precondition (If-Match or X-Curriculum-If-Match) and its Idempotency-Key. */
export interface WriteHeaders {
  ifMatch: string | undefined;
  idempotencyKey: string | undefined;
}

/** A list's query as sent. */
export interface ListInput {
  query: unknown;
}

/** The KCs a batched loader reads. */
export interface KcIdsInput {
  kcIds: readonly string[];
}
