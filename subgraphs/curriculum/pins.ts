import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { columnNames, insertWith } from '../../platform/insert-with.ts';
import type { RequestContext } from '../../platform/context.ts';
import type { Database } from '../../platform/db.ts';
import { DomainError } from '../../platform/errors.ts';
import type { TargetRef } from './content-client.ts';
import { pinAudit, components } from './tables.ts';

/**
 * Content pins of components (rule 7). Every path that moves a pin (create, PATCH, repoint, attach,
 * ingest) asks here whether the pin may move and records the move here, so the assessment-chain
 * freeze and the audit trail are the same whichever path moved it.
 */

type PinnedRow = Pick<typeof components.$inferSelect, 'alpha' | 'publicationStatus'>;

/** Content kinds whose pins are assessment chains: a published pin on them only moves by reviewed replacement. */
const ASSESSMENT_KINDS: ReadonlySet<string> = new Set(['test', 'test_bank', 'test_spec']);

export function samePin(a: TargetRef | null | undefined, b: TargetRef | null | undefined): boolean {
  if (!a || !b) return !a && !b;
  return (
    a.content_id === b.content_id && a.content_version_id === b.content_version_id && a.content_kind === b.content_kind
  );
}

export function currentPin(row: PinnedRow): TargetRef | undefined {
  return (row.alpha as { target_ref?: TargetRef }).target_ref;
}

/** Refuses moving the pin of a published component that pins an assessment chain to another target. */
export function requirePinMayMove(row: PinnedRow, target: TargetRef | undefined): void {
  const current = currentPin(row);
  if (!target || !current || samePin(current, target)) return;
  if (row.publicationStatus === 'published' && ASSESSMENT_KINDS.has(current.content_kind)) {
    throw new DomainError(
      'curriculum:approved_chain_repoint_frozen',
      'This published component pins an assessment chain; use the reviewed-replacement path.',
    );
  }
}

/**
 * Refuses unpublishing a published component that pins an assessment chain: a draft's pin moves freely, so
 * publishing it again after a re-pin would step round the reviewed-replacement path.
 */
export function requireChainStaysPublished(row: PinnedRow, nextStatus: unknown): void {
  const current = currentPin(row);
  if (row.publicationStatus !== 'published' || nextStatus === 'published' || !current) return;
  if (ASSESSMENT_KINDS.has(current.content_kind)) {
    throw new DomainError(
      'curriculum:approved_chain_repoint_frozen',
      'This published component pins an assessment chain and stays published; retire it, or use the reviewed-replacement path.',
    );
  }
}

/** Appends the immutable audit row of one accepted pin operation. */
export async function appendPinAudit(
  tx: Database,
  ctx: RequestContext,
  move: { componentId: string; operation: string; previous: TargetRef | null | undefined; target: TargetRef },
) {
  const [audit] = await tx
    .insert(pinAudit)
    .values({
      tenantId: ctx.tenantId,
      componentId: move.componentId,
      operation: move.operation,
      previousTargetRef: move.previous ?? null,
      targetRef: move.target,
      actor: ctx.principal.subject,
      recordedAt: ctx.now.toISOString(),
    })
    .returning();
  return audit;
}

/**
 * The create `insert` (returning the components' rows; none for an id taken) followed, for each
 * created row, by its pin's audit row, in one statement. `given` is the creates' rows with the pin's
 * `pin_target` (null when unpinned), `pin_actor` and `pin_recorded_at`.
 */
export function insertWithPinAudit(
  db: Database,
  insert: SQLWrapper & PromiseLike<Array<typeof components.$inferSelect>>,
  given: SQL,
) {
  return insertWith(
    db,
    components,
    insert,
    (created) => sql`insert into ${pinAudit} (${columnNames(
      pinAudit.tenantId,
      pinAudit.componentId,
      pinAudit.operation,
      pinAudit.targetRef,
      pinAudit.actor,
      pinAudit.recordedAt,
    )})
      select created.tenant_id, created.component_id, 'create', given.pin_target, given.pin_actor, given.pin_recorded_at
      from ${created} created join ${given} using (tenant_id, component_id)
      where given.pin_target is not null`,
  );
}

/** Appends the audit row when a write changes the pin; an unchanged pin records nothing. */
export async function recordPinChange(
  tx: Database,
  ctx: RequestContext,
  move: {
    componentId: string;
    operation: string;
    previous: TargetRef | null | undefined;
    target: TargetRef | undefined;
  },
): Promise<void> {
  if (move.target && !samePin(move.previous, move.target))
    await appendPinAudit(tx, ctx, { ...move, target: move.target });
}
