import { tenantRows } from '../../../platform/tenant-rows.ts';
import type { RequestContext } from '../../../platform/context.ts';
import { requireAccess } from '../../../platform/auth.ts';
import { DomainError } from '../../../platform/errors.ts';
import { canonicalJson, type CommandResult } from '../../../platform/idempotency.ts';
import { parseInput } from '../../../platform/validation.ts';
import type { Database } from '../../../platform/db.ts';
import { components } from '../tables.ts';
import { currentPin, recordPinChange, requirePinMayMove, requireChainStaysPublished } from '../pins.ts';
import { ACCESS } from '../access.ts';
import { judgeBeforeCall, runCommand, storedReplay } from '../../../platform/commands.ts';
import { checkIfMatch, requirePrecondition } from '../../../platform/etag.ts';
import { lockContainment, placeChild, retireFromContainment, syncEdgeSequence } from '../containment.ts';
import type { TargetRef } from '../content-client.ts';
import { GATE_RENDERER } from '../renderers.ts';
import { ComponentInput } from './components.schema.ts';
import { PatchComponentInput } from './component-edits.schema.ts';
import { assertReferences, filterColumnsOf, isDraftGate, normalizedAlpha } from './components.service.ts';
import type { CurriculumDeps } from '../deps.ts';
import { retireRule } from '../commands.ts';
import type { WriteHeaders } from '../rule-inputs.ts';
import { type Component, type ComponentRow, componentNotFound, lockComponent, presentComponent } from '../queries.ts';
import { requireCommandInBoundary } from '../learner-boundary.ts';

/**
 * Component edits. Invariants: the X-Curriculum-If-Match tag is compared with the locked row inside
 * the write transaction; the patched component passes every create rule again as a whole; a new or
 * published pin is judged by content before the transaction, and the row must not have moved on in
 * between; a reparent keeps the component's and the edge's identity; retiring a component retires
 * its incident isChildOf edges in the same transaction.
 */

/** The whole component a patch would produce, checked with the create schema. */
function patchedComponent(row: ComponentRow, patch: PatchComponentInput): ComponentInput {
  const stored = { ...(row.alpha as Record<string, unknown>) };
  // A renderer named by its alias replaces the stored canonical name.
  if (patch.alpha?.renderer_kind !== undefined && patch.alpha.renderer_ref === undefined) delete stored.renderer_ref;
  const candidate = {
    component_id: row.componentId,
    kind: row.kind,
    ...(row.documentId !== null ? { document_id: row.documentId } : {}),
    ...(row.parentComponentId !== null ? { parent_component_id: row.parentComponentId } : {}),
    ...(row.position !== null ? { position: row.position } : {}),
    ...(row.name !== null ? { name: row.name } : {}),
    ...(row.humanCodingScheme !== null ? { human_coding_scheme: row.humanCodingScheme } : {}),
    ...(row.studentId !== null ? { student_id: row.studentId } : {}),
    ...patch,
    alpha: { ...stored, ...patch.alpha },
  };
  return parseInput(ComponentInput, candidate);
}

/**
 * Rule 17: the publishing patch itself names the exact target_ref and the renderer (their values are
 * checked with every other rule on the whole patched component).
 */
function checkGatePublication(row: ComponentRow, patch: PatchComponentInput, merged: ComponentInput): void {
  const publishing = merged.alpha.publication_status === 'published' && row.publicationStatus !== 'published';
  if (row.kind !== 'mastery_gate' || !publishing) return;
  const missing = [];
  if (!patch.alpha?.target_ref)
    missing.push({
      field: 'alpha.target_ref',
      message: 'publishing a mastery_gate names its exact test_bank target_ref',
    });
  if (!patch.alpha?.renderer_ref && !patch.alpha?.renderer_kind) {
    missing.push({
      field: 'alpha.renderer_ref',
      message: `publishing a mastery_gate names renderer_ref=${GATE_RENDERER}`,
    });
  }
  if (missing.length > 0)
    throw new DomainError(
      'validation_failed',
      'Publishing a mastery_gate names its exact test_bank version and the QTI test renderer.',
      { fieldErrors: missing },
    );
}

/** The pin content must judge for this patch: a changed pin, or any pin being published. */
function pinToJudge(row: ComponentRow, merged: ComponentInput): TargetRef | undefined {
  const target = merged.alpha.target_ref;
  if (!target) return undefined;
  const current = (row.alpha as { target_ref?: TargetRef }).target_ref;
  const changed = canonicalJson(current ?? null) !== canonicalJson(target);
  const publishing = merged.alpha.publication_status === 'published' && row.publicationStatus !== 'published';
  return changed || publishing ? target : undefined;
}

async function readRow(db: Database, tenantId: string, componentId: string): Promise<ComponentRow> {
  const [row] = await db
    .select()
    .from(components)
    .where(tenantRows(components, tenantId, { componentId }));
  if (!row) throw componentNotFound(componentId);
  return row;
}

/** Locks the row and applies the precondition; a row changed since it was judged is stale too. */
async function lockForEdit(
  tx: Database,
  ctx: RequestContext,
  componentId: string,
  ifMatch: string | undefined,
  judgedVersion?: number,
) {
  const row = await lockComponent(tx, ctx.tenantId, componentId);
  if (!row) throw componentNotFound(componentId);
  checkIfMatch(ifMatch, presentComponent(row).etag, 'X-Curriculum-If-Match');
  if (judgedVersion !== undefined && row.version !== judgedVersion) {
    throw new DomainError(
      'precondition_failed',
      'The component changed while this request was checked; read it again.',
    );
  }
  return row;
}

/** The edit judged against the stored row alone: what content is then asked about, if anything. */
function judgedEdit(before: ComponentRow, patch: PatchComponentInput, ifMatch: string | undefined) {
  checkIfMatch(ifMatch, presentComponent(before).etag, 'X-Curriculum-If-Match');
  if (before.status !== 'active')
    throw new DomainError(
      'curriculum:component_retired',
      `Component ${before.componentId} is retired; re-POST it to reactivate.`,
    );
  const merged = patchedComponent(before, patch);
  const alpha = normalizedAlpha(merged);
  checkGatePublication(before, patch, merged);
  requirePinMayMove(before, merged.alpha.target_ref);
  requireChainStaysPublished(before, merged.alpha.publication_status);
  return { before, merged, alpha, target: pinToJudge(before, merged) };
}

/** PATCH /components/{id}. */
export async function patchComponent(
  deps: CurriculumDeps,
  ctx: RequestContext,
  { componentId, body: rawInput, ...headers }: { componentId: string; body: unknown } & WriteHeaders,
): Promise<CommandResult<Component>> {
  requireAccess(ctx.principal, ACCESS.write, 'change components');
  const patch = parseInput(PatchComponentInput, rawInput);
  requirePrecondition(headers.ifMatch, 'X-Curriculum-If-Match');
  await requireCommandInBoundary(deps.db, ctx, { componentIds: [componentId, patch.parent_component_id ?? undefined] });
  const call = {
    operation: `components.patch:${componentId}`,
    key: headers.idempotencyKey,
    sent: rawInput,
    keyRequired: true,
  };
  const replay = await storedReplay<Component>(deps, ctx, call);
  if (replay) return replay;

  // Every check that needs only the stored row comes before content is asked (rule 1).
  const judgement = await judgeBeforeCall<Component, ReturnType<typeof judgedEdit>>(deps, ctx, call, async () =>
    judgedEdit(await readRow(deps.db, ctx.tenantId, componentId), patch, headers.ifMatch),
  );
  if ('replay' in judgement) return judgement.replay;
  const { before, merged, alpha, target } = judgement.judged;
  if (target) await deps.content.requireEligible(ctx, target, { draftBank: isDraftGate(merged.kind, alpha) });

  return runCommand(deps, ctx, call, async (tx) => {
    // A move takes the containment lock before its row, in the order retire takes them: no lock cycle.
    if (patch.parent_component_id !== undefined || patch.position !== undefined)
      await lockContainment(tx, ctx.tenantId);
    const row = await lockForEdit(tx, ctx, componentId, headers.ifMatch, before.version);
    await assertReferences(tx, ctx, merged);
    const now = ctx.now.toISOString();
    let position = merged.position ?? null;
    if (patch.parent_component_id !== undefined) {
      position = (await placeChild(tx, ctx, componentId, patch.parent_component_id, patch.position)).position;
    } else if (patch.position !== undefined && row.parentComponentId !== null) {
      await syncEdgeSequence(tx, ctx, componentId, patch.position);
    }
    const [updated] = await tx
      .update(components)
      .set({
        documentId: merged.document_id ?? null,
        parentComponentId: merged.parent_component_id ?? null,
        position,
        name: merged.name ?? null,
        humanCodingScheme: merged.human_coding_scheme ?? null,
        alpha,
        ...filterColumnsOf(alpha),
        version: row.version + 1,
        updatedAt: now,
      })
      .where(tenantRows(components, ctx.tenantId, { componentId }))
      .returning();
    await recordPinChange(tx, ctx, {
      componentId,
      operation: 'patch',
      previous: currentPin(row),
      target: merged.alpha.target_ref,
    });
    return { value: presentComponent(updated), created: false };
  });
}

/** DELETE /components/{id}: soft-retire with its incident isChildOf edges, atomically; its children become roots. */
export const retireComponent = retireRule({
  writes: 'retire components',
  operation: ({ componentId }: { componentId: string } & WriteHeaders) => `components.retire:${componentId}`,
  run: async (tx, ctx, { componentId, ...headers }) => {
    await requireCommandInBoundary(tx, ctx, { componentIds: [componentId] });
    // Containment before any row, as every move takes it: the children it detaches cannot be mid-move.
    await lockContainment(tx, ctx.tenantId);
    const row = await lockForEdit(tx, ctx, componentId, headers.ifMatch);
    if (row.status !== 'active') return { value: presentComponent(row), created: false };
    const now = ctx.now.toISOString();
    await retireFromContainment(tx, ctx, componentId);
    const [updated] = await tx
      .update(components)
      .set({ status: 'retired', retiredAt: now, updatedAt: now, version: row.version + 1 })
      .where(tenantRows(components, ctx.tenantId, { componentId }))
      .returning();
    return { value: presentComponent(updated), created: false };
  },
});
