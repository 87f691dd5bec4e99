import type { z } from 'zod';
import type { RequestContext } from '../../platform/context.ts';
import type { Database } from '../../platform/db.ts';
import { requireAccess } from '../../platform/auth.ts';
import { runCommand } from '../../platform/commands.ts';
import type { CommandResult } from '../../platform/idempotency.ts';
import { parseInput } from '../../platform/validation.ts';
import { ACCESS } from './access.ts';
import type { CommandInput, CurriculumRule } from './rule-inputs.ts';

/**
 * A write rule of curriculum: the caller's write access first (a caller without it hears 403, never
 * which body fields it got wrong), then its body parsed, then `run` in one idempotent transaction
 * keyed by the operation and the body as sent. `Extra` is what the route adds to the body and key
 * (path ids, If-Match).
 */
export function commandRule<Body extends z.ZodType, T, Extra extends object = object>(command: {
  /** What the caller does, for the access refusal. */
  writes: string;
  body: Body;
  operation: string | ((input: Extra) => string);
  /** The write is listed with a required Idempotency-Key. */
  keyRequired?: boolean;
  /** Refuses a parsed body before any transaction, the same for a first request and a replay. */
  refuse?: (body: z.output<Body>) => void;
  run: (
    tx: Database,
    body: z.output<Body>,
    ctx: RequestContext,
    input: CommandInput & Extra,
  ) => Promise<{ value: T; created: boolean }>;
}): CurriculumRule<CommandInput & Extra, CommandResult<T>> {
  return async (deps, ctx, input) => {
    requireAccess(ctx.principal, ACCESS.write, command.writes);
    const body = parseInput(command.body, input.body);
    command.refuse?.(body);
    const operation = typeof command.operation === 'string' ? command.operation : command.operation(input);
    const call = { operation, key: input.idempotencyKey, sent: input.body, keyRequired: command.keyRequired };
    return runCommand(deps, ctx, call, (tx) => command.run(tx, body, ctx, input));
  };
}

/**
 * A retire of curriculum: the caller's write access, then `run` in one idempotent transaction; a
 * retire sends no body and always names its Idempotency-Key.
 */
export function retireRule<Input extends { idempotencyKey: string | undefined }, T>(command: {
  writes: string;
  operation: (input: Input) => string;
  run: (tx: Database, ctx: RequestContext, input: Input) => Promise<{ value: T; created: boolean }>;
}): CurriculumRule<Input, CommandResult<T>> {
  return async (deps, ctx, input) => {
    requireAccess(ctx.principal, ACCESS.write, command.writes);
    const call = { operation: command.operation(input), key: input.idempotencyKey, sent: {}, keyRequired: true };
    return runCommand(deps, ctx, call, (tx) => command.run(tx, ctx, input));
  };
}
