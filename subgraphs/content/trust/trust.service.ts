import { randomUUID } from 'node:crypto';
import { asc } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '../../../platform/db.ts';
import { SERVEABLE_TRUST } from '../../../platform/contract.ts';
import type { RequestContext } from '../../../platform/context.ts';
import { requireAccess } from '../../../platform/auth.ts';
import { DomainError } from '../../../platform/errors.ts';
import type { CommandResult } from '../../../platform/idempotency.ts';
import { runCommand } from '../../../platform/commands.ts';
import { parseInput, isoTimestamp, uuidRef } from '../../../platform/validation.ts';
import { trustEvidence, versions } from '../tables.ts';
import type { ContentDeps } from '../deps.ts';
import { ACCESS } from '../access.ts';
import { currentTrust, findItemRow, findVersionRows, itemNotFound, lockTrust, versionNotFound } from '../queries.ts';
import type { TrustStatus } from '../vocabulary.ts';
import { tenantRows } from '../../../platform/tenant-rows.ts';
import type { ItemRead } from '../inputs.ts';

/**
 * Trust evidence of exact versions. Trust is set only at import or by a QC decision of a reviewer
 * (or operator/service) who is not the version's author; an author can never make its own content
 * trusted. Evidence is append-only; the newest row of a version is its trust.
 */

export type TrustRow = typeof trustEvidence.$inferSelect;

export function presentTrustEvidence(row: TrustRow) {
  return {
    evidence_id: row.evidenceId,
    content_id: row.contentId,
    version_id: row.versionId,
    trust_status: row.trustStatus as TrustStatus,
    source: row.source,
    decided_by: row.decidedBy,
    reason: row.reason,
    recorded_at: isoTimestamp(row.recordedAt),
  };
}
export type TrustEvidence = ReturnType<typeof presentTrustEvidence>;

export const QcDecisionInput = z
  .object({
    trust_status: z.enum(['trusted', 'degraded', 'failed']).describe('The QC outcome for this exact version'),
    reason: z.string().trim().min(1).max(2000),
  })
  .strict();

/**
 * The state table sets trust once (from unknown, at import or QC) and afterwards only moves trusted
 * or degraded to failed. So degraded never becomes trusted, and failed is final for that exact
 * version: a fix is a new version.
 */
export function trustTransitionAllowed(from: TrustStatus, to: TrustStatus): boolean {
  if (from === 'unknown') return to !== 'unknown';
  return to === 'failed' && SERVEABLE_TRUST.has(from);
}

/**
 * Appends trust evidence; shared by QC decisions and imports, which differ only in source. The one
 * place a version's trust changes, so the transition rule holds on every path: the version's trust
 * is locked for the transaction, so two decisions cannot both start from the same status.
 */
export async function appendTrustEvidence(
  tx: Database,
  ctx: RequestContext,
  evidence: {
    contentId: string;
    versionId: string;
    trustStatus: TrustStatus;
    source: 'import' | 'qc_decision';
    reason: string | null;
  },
): Promise<TrustRow> {
  await lockTrust(tx, ctx.tenantId, evidence.versionId);
  const from = await currentTrust(tx, ctx.tenantId, evidence.versionId);
  if (!trustTransitionAllowed(from, evidence.trustStatus)) {
    throw new DomainError(
      'content.trust_transition_refused',
      `Trust of this exact version is ${from}; it cannot become ${evidence.trustStatus}. Trust is set once and afterwards only moves trusted or degraded to failed; a fix is a new version.`,
      { fieldErrors: [{ field: 'trust_status', message: `${from} cannot become ${evidence.trustStatus}` }] },
    );
  }
  const [row] = await tx
    .insert(trustEvidence)
    .values({
      tenantId: ctx.tenantId,
      evidenceId: randomUUID(),
      contentId: evidence.contentId,
      versionId: evidence.versionId,
      trustStatus: evidence.trustStatus,
      source: evidence.source,
      decidedBy: ctx.principal.subject,
      reason: evidence.reason,
      recordedAt: ctx.now.toISOString(),
    })
    .returning();
  return row;
}

export async function recordQcDecision(
  deps: ContentDeps,
  ctx: RequestContext,
  {
    contentId,
    versionId,
    body,
    idempotencyKey,
  }: { contentId: string; versionId: string; body: unknown; idempotencyKey: string | undefined },
): Promise<CommandResult<TrustEvidence>> {
  requireAccess(ctx.principal, ACCESS.publish, 'record QC decisions');
  const input = parseInput(QcDecisionInput, body);
  const [version] = await findVersionRows(deps.db, ctx.tenantId, [versionId]);
  if (!version || version.contentId !== contentId) throw versionNotFound(contentId, versionId);
  if (version.createdBy === ctx.principal.subject) {
    throw new DomainError(
      'content.qc_self_review',
      'A QC decision must come from someone other than the version author.',
    );
  }
  const call = { operation: `content.qc_decisions.create:${versionId}`, key: idempotencyKey, sent: body };
  return runCommand(deps, ctx, call, async (tx) => {
    const row = await appendTrustEvidence(tx, ctx, {
      contentId,
      versionId,
      trustStatus: input.trust_status,
      source: 'qc_decision',
      reason: input.reason,
    });
    return { value: presentTrustEvidence(row), created: true };
  });
}

export const TrustQuery = z
  .object({ version_id: uuidRef().optional().describe('An exact version; the newest when absent') })
  .strict();

/** content_trust_evidence of one exact version (the newest by default): current status and history. */
export async function readTrust(deps: ContentDeps, ctx: RequestContext, { contentId, query: rawQuery }: ItemRead) {
  requireAccess(ctx.principal, ACCESS.read, 'read trust evidence');
  const { db } = deps;
  const query = parseInput(TrustQuery, rawQuery);
  const item = await findItemRow(db, ctx.tenantId, contentId);
  if (!item) throw itemNotFound(contentId);
  const versionId = query.version_id ?? item.latestVersionId;
  if (!versionId) throw itemNotFound(contentId);
  const [version] = await db
    .select({ id: versions.versionId })
    .from(versions)
    .where(tenantRows(versions, ctx.tenantId, { contentId, versionId }));
  if (!version) throw versionNotFound(contentId, versionId);
  const history = await db
    .select()
    .from(trustEvidence)
    .where(tenantRows(trustEvidence, ctx.tenantId, { versionId }))
    .orderBy(asc(trustEvidence.evidenceSeq));
  const evidence = history.map(presentTrustEvidence);
  return {
    content_id: contentId,
    version_id: versionId,
    trust_status: evidence.at(-1)?.trust_status ?? 'unknown',
    evidence,
  };
}
