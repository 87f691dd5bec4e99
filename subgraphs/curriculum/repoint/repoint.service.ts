import { tenantRows } from '../../../platform/tenant-rows.ts';
import type { RequestContext } from '../../../platform/context.ts';
import { requireAccess } from '../../../platform/auth.ts';
import { DomainError } from '../../../platform/errors.ts';
import type { CommandResult } from '../../../platform/idempotency.ts';
import { isoTimestamp, parseInput } from '../../../platform/validation.ts';
import { components, pinAudit } from '../tables.ts';
import { ACCESS } from '../access.ts';
import { judgeBeforeCall, runCommand, storedReplay } from '../../../platform/commands.ts';
import type { TargetRef } from '../content-client.ts';
import { appendPinAudit, currentPin, requirePinMayMove, samePin } from '../pins.ts';
import { RENDERER_REGISTRY, resolveRenderer, type RendererRow } from '../renderers.ts';
import { CONTENT_BEARING_KINDS } from '../components/components.schema.ts';
import type { CurriculumDeps } from '../deps.ts';
import type { ListInput } from '../rule-inputs.ts';
import { RendererQuery, RepointInput } from './repoint.schema.ts';
import { type Component, type ComponentRow, componentNotFound, presentComponent } from '../queries.ts';
import { requireCommandInBoundary } from '../learner-boundary.ts';

/**
 * Repoint and attach (rule 7). Invariants: the expected pin must equal the exact current pin, both
 * when judged and again under the row lock; a repoint keeps content_id and content_kind; the new
 * exact version is release eligible with usage_scope practice_eligible; a published component that
 * pins an assessment chain is frozen; each accepted operation appends one immutable audit row.
 */

/** The rule 7 checks that need only the stored row; run before content is asked and again under the lock. */
function judgeAgainstRow(row: ComponentRow, input: RepointInput): void {
  if (row.status !== 'active')
    throw new DomainError('curriculum:component_retired', `Component ${row.componentId} is retired.`);
  if (!CONTENT_BEARING_KINDS.has(row.kind)) {
    throw new DomainError('validation_failed', `A ${row.kind} carries no content pin.`, {
      fieldErrors: [{ field: 'target_ref', message: 'not a content-bearing component' }],
    });
  }
  if (row.kind === 'mastery_gate' && input.target_ref.content_kind !== 'test_bank') {
    throw new DomainError('validation_failed', 'A mastery_gate targets content_kind test_bank.', {
      fieldErrors: [{ field: 'target_ref.content_kind', message: 'must be test_bank' }],
    });
  }
  const current = currentPin(row);
  if (input.operation === 'attach' && current) {
    throw new DomainError(
      'curriculum:repoint_pin_stale',
      'The component already has a pin; move it with operation=repoint.',
      {
        extensions: { current_target_ref: current },
      },
    );
  }
  if (!samePin(current, input.expected_target_ref ?? undefined)) {
    throw new DomainError(
      'curriculum:repoint_pin_stale',
      'expected_target_ref is not the exact current pin; read the component again.',
      {
        extensions: { current_target_ref: current ?? null },
      },
    );
  }
  if (input.operation === 'repoint' && current) {
    if (current.content_id !== input.target_ref.content_id || current.content_kind !== input.target_ref.content_kind) {
      throw new DomainError(
        'curriculum:repoint_identity_mismatch',
        'A repoint keeps content_id and content_kind; only the exact version moves.',
      );
    }
    requirePinMayMove(row, input.target_ref);
  }
}

export function presentRepoint(audit: typeof pinAudit.$inferSelect, component: Component) {
  return {
    repoint_id: String(audit.auditSeq),
    component_id: audit.componentId,
    operation: audit.operation,
    previous_target_ref: audit.previousTargetRef as TargetRef | null,
    target_ref: audit.targetRef as TargetRef,
    actor: audit.actor,
    recorded_at: isoTimestamp(audit.recordedAt),
    component,
  };
}
export type ComponentTargetRepoint = ReturnType<typeof presentRepoint>;

/** POST /components/{id}/repoint. */
export async function repointComponent(
  deps: CurriculumDeps,
  ctx: RequestContext,
  {
    componentId,
    body: rawInput,
    idempotencyKey,
  }: { componentId: string; body: unknown; idempotencyKey: string | undefined },
): Promise<CommandResult<ComponentTargetRepoint>> {
  requireAccess(ctx.principal, ACCESS.write, 'repoint components');
  const input = parseInput(RepointInput, rawInput);
  await requireCommandInBoundary(deps.db, ctx, { componentIds: [componentId] });
  const call = {
    operation: `components.repoint:${componentId}`,
    key: idempotencyKey,
    sent: rawInput,
    keyRequired: true,
  };
  const replay = await storedReplay<ComponentTargetRepoint>(deps, ctx, call);
  if (replay) return replay;
  const judgement = await judgeBeforeCall<ComponentTargetRepoint, void>(deps, ctx, call, async () => {
    const [before] = await deps.db
      .select()
      .from(components)
      .where(tenantRows(components, ctx.tenantId, { componentId }));
    if (!before) throw componentNotFound(componentId);
    judgeAgainstRow(before, input);
  });
  if ('replay' in judgement) return judgement.replay;
  try {
    await deps.content.requireEligible(ctx, input.target_ref, { practiceEligible: true });
  } catch (error) {
    if (error instanceof DomainError && error.code === 'curriculum:target_not_serveable') {
      throw new DomainError('curriculum:repoint_target_not_serveable', error.message, {
        fieldErrors: error.fieldErrors,
        extensions: error.extensions,
      });
    }
    throw error;
  }
  return runCommand(deps, ctx, call, async (tx) => {
    const [row] = await tx
      .select()
      .from(components)
      .where(tenantRows(components, ctx.tenantId, { componentId }))
      .for('update');
    judgeAgainstRow(row, input);
    const [updated] = await tx
      .update(components)
      .set({
        alpha: { ...(row.alpha as Record<string, unknown>), target_ref: input.target_ref },
        version: row.version + 1,
        updatedAt: ctx.now.toISOString(),
      })
      .where(tenantRows(components, ctx.tenantId, { componentId }))
      .returning();
    const audit = await appendPinAudit(tx, ctx, {
      componentId,
      operation: input.operation,
      previous: currentPin(row),
      target: input.target_ref,
    });
    return { value: presentRepoint(audit, presentComponent(updated)), created: true };
  });
}

/** GET /renderer-registry; renderer_ref or its renderer_kind alias select the same row. */
export function readRendererRegistry(
  _deps: CurriculumDeps,
  ctx: RequestContext,
  { query: rawQuery }: ListInput,
): { data: readonly RendererRow[] } {
  requireAccess(ctx.principal, ACCESS.read, 'read the renderer registry');
  const query = parseInput(RendererQuery, rawQuery);
  const names = [query.renderer_ref, query.renderer_kind].filter((name): name is string => name !== undefined);
  if (names.length === 0) return { data: RENDERER_REGISTRY };
  const rows = names.map(resolveRenderer);
  if (rows.some((row) => row === undefined) || rows.some((row) => row !== rows[0])) return { data: [] };
  return { data: [rows[0] as RendererRow] };
}
