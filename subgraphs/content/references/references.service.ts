import { randomUUID } from 'node:crypto';
import { asc, eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '../../../platform/db.ts';
import type { RequestContext } from '../../../platform/context.ts';
import { requireAccess } from '../../../platform/auth.ts';
import { DomainError } from '../../../platform/errors.ts';
import { runCommand } from '../../../platform/commands.ts';
import { isoTimestamp, parseInput, isUuid, uuidRef } from '../../../platform/validation.ts';
import { contentReferences, items, versions } from '../tables.ts';
import type { ContentDeps, ItemCommand, ItemList } from '../deps.ts';
import { RELATIONSHIP_KINDS } from '../vocabulary.ts';
import { ACCESS } from '../access.ts';
import { requireItemRow, wholeList } from '../queries.ts';
import {
  INVALID_MEMBER,
  checkBank,
  checkFormGraph,
  checkMemberShape,
  checkNotFrozen,
  embeddedKcIds,
} from './bank-contract.ts';
import { kcRegistryView } from '../kc-tags/kc-tags.service.ts';
import { tenantRows } from '../../../platform/tenant-rows.ts';
import type { ItemRead } from '../inputs.ts';

/**
 * Typed relationships between items. Rows are never deleted: DELETE soft-retires and the row,
 * with who and when, stays as the audit. bank_member rows follow rule 7 (bank-contract.ts); a
 * rejected create changes nothing.
 */

export const ReferenceInput = z
  .object({
    relationship_kind: z.enum(RELATIONSHIP_KINDS),
    referenced_content_id: uuidRef(),
    parent_version_id: uuidRef()
      .nullable()
      .optional()
      .describe('Exact version of this item (required for bank_member)'),
    referenced_version_id: uuidRef()
      .nullable()
      .optional()
      .describe('Exact version of the referenced item (required for bank_member)'),
    ordinal: z.int32().nullable().optional().describe('Position in an ordered graph (embeds, bank_member)'),
  })
  .strict();

type ReferenceRow = typeof contentReferences.$inferSelect;

export function presentReference(row: ReferenceRow) {
  return {
    reference_id: row.referenceId,
    content_id: row.contentId,
    relationship_kind: row.relationshipKind,
    referenced_content_id: row.referencedContentId,
    parent_version_id: row.parentVersionId,
    referenced_version_id: row.referencedVersionId,
    ordinal: row.ordinal,
    status: row.status,
    created_by: row.createdBy,
    created_at: isoTimestamp(row.createdAt),
    retired_by: row.retiredBy,
    retired_at: isoTimestamp(row.retiredAt),
  };
}
export type ContentReference = ReturnType<typeof presentReference>;

async function ownedBy(tx: Database, tenantId: string, versionId: string, contentId: string): Promise<boolean> {
  const [row] = await tx
    .select({ contentId: versions.contentId })
    .from(versions)
    .where(tenantRows(versions, tenantId, { versionId }));
  return row?.contentId === contentId;
}

export const createReference: ItemCommand<ContentReference> = async (
  deps,
  ctx,
  { contentId, body, idempotencyKey },
) => {
  requireAccess(ctx.principal, ACCESS.author, 'create references');
  const input = parseInput(ReferenceInput, body);
  // The registry is asked about the form's KCs before the transaction; inside, only its answers count.
  const registry = kcRegistryView(deps, ctx);
  if (input.relationship_kind === 'bank_member' && input.referenced_version_id) {
    const form = { contentId: input.referenced_content_id, versionId: input.referenced_version_id };
    await registry.active(await embeddedKcIds(deps.db, ctx.tenantId, [form]));
  }
  return runCommand(
    deps,
    ctx,
    { operation: `content.references:${contentId}`, key: idempotencyKey, sent: body },
    async (tx) => {
      // The parent's row lock serializes membership changes of one bank.
      const parent = await requireItemRow(tx, ctx.tenantId, contentId, { lock: true });
      const shape = {
        parentVersionId: input.parent_version_id ?? null,
        referencedContentId: input.referenced_content_id,
        referencedVersionId: input.referenced_version_id ?? null,
        ordinal: input.ordinal ?? null,
      };
      if (input.relationship_kind === 'bank_member') {
        checkBank(parent);
        if (shape.parentVersionId) await checkNotFrozen(tx, ctx.tenantId, parent, shape.parentVersionId);
        await checkMemberShape(tx, ctx.tenantId, parent, shape);
        const [taken] = await tx
          .select({ id: contentReferences.referenceId })
          .from(contentReferences)
          .where(
            tenantRows(contentReferences, ctx.tenantId, {
              contentId,
              parentVersionId: shape.parentVersionId!,
              relationshipKind: 'bank_member',
              status: 'active',
              ordinal: shape.ordinal!,
            }),
          );
        if (taken)
          throw new DomainError(
            INVALID_MEMBER,
            `Index ${shape.ordinal} of bank version ${shape.parentVersionId} is taken.`,
          );
        await checkFormGraph(
          tx,
          ctx.tenantId,
          shape.referencedContentId,
          shape.referencedVersionId!,
          registry.confirmed,
        );
      } else {
        const fieldErrors = [];
        if (input.referenced_content_id === contentId && shape.parentVersionId === null)
          fieldErrors.push({ field: 'referenced_content_id', message: 'an item cannot reference itself' });
        const [target] = await tx
          .select({ id: items.contentId })
          .from(items)
          .where(tenantRows(items, ctx.tenantId, { contentId: input.referenced_content_id }));
        if (!target)
          fieldErrors.push({ field: 'referenced_content_id', message: 'no such content item in this tenant' });
        if (shape.parentVersionId && !(await ownedBy(tx, ctx.tenantId, shape.parentVersionId, contentId))) {
          fieldErrors.push({ field: 'parent_version_id', message: 'not a version of this item' });
        }
        if (
          shape.referencedVersionId &&
          !(await ownedBy(tx, ctx.tenantId, shape.referencedVersionId, input.referenced_content_id))
        ) {
          fieldErrors.push({ field: 'referenced_version_id', message: 'not a version of the referenced item' });
        }
        if (shape.ordinal !== null && shape.ordinal < 1)
          fieldErrors.push({ field: 'ordinal', message: 'a positive integer' });
        if (fieldErrors.length > 0)
          throw new DomainError('validation_failed', 'The reference is not valid.', { fieldErrors });
      }
      const [row] = await tx
        .insert(contentReferences)
        .values({
          tenantId: ctx.tenantId,
          referenceId: randomUUID(),
          contentId,
          relationshipKind: input.relationship_kind,
          referencedContentId: input.referenced_content_id,
          parentVersionId: shape.parentVersionId,
          referencedVersionId: shape.referencedVersionId,
          ordinal: shape.ordinal,
          status: 'active',
          createdBy: ctx.principal.subject,
          createdAt: ctx.now.toISOString(),
        })
        .returning();
      return { value: presentReference(row), created: true };
    },
  );
};

export async function retireReference(
  deps: ContentDeps,
  ctx: RequestContext,
  { contentId, referenceId }: { contentId: string; referenceId: string },
): Promise<ContentReference> {
  requireAccess(ctx.principal, ACCESS.author, 'retire references');
  const { db } = deps;
  return db.transaction(async (tx) => {
    const parent = await requireItemRow(tx, ctx.tenantId, contentId, { lock: true });
    const notFound = new DomainError(
      'not_found',
      `No reference ${referenceId} of content item ${contentId} in this tenant.`,
    );
    if (!isUuid(referenceId)) throw notFound;
    const key = tenantRows(contentReferences, ctx.tenantId, { contentId, referenceId });
    const [row] = await tx.select().from(contentReferences).where(key);
    if (!row) throw notFound;
    if (row.status === 'retired') return presentReference(row);
    if (row.relationshipKind === 'bank_member') {
      checkBank(parent);
      if (!row.parentVersionId)
        throw new DomainError(INVALID_MEMBER, `bank_member ${referenceId} has no exact parent version.`);
      await checkNotFrozen(tx, ctx.tenantId, parent, row.parentVersionId);
    }
    const [retired] = await tx
      .update(contentReferences)
      .set({ status: 'retired', retiredBy: ctx.principal.subject, retiredAt: ctx.now.toISOString() })
      .where(key)
      .returning();
    return presentReference(retired);
  });
}

export const ReferencesQuery = z
  .object({
    relationship_kind: z
      .enum(RELATIONSHIP_KINDS)
      .optional()
      .describe('Only references of this kind: embeds, bank_member, ...'),
    status: z.enum(['active', 'retired']).optional().describe('active or retired; both when omitted'),
  })
  .strict();

export const listReferences: ItemList<ContentReference, ItemRead> = async (
  deps,
  ctx,
  { contentId, query: rawQuery },
) => {
  requireAccess(ctx.principal, ACCESS.read, 'read references');
  const { db } = deps;
  const query = parseInput(ReferencesQuery, rawQuery);
  await requireItemRow(db, ctx.tenantId, contentId);
  const rows = await db
    .select()
    .from(contentReferences)
    .where(
      tenantRows(
        contentReferences,
        ctx.tenantId,
        { contentId },
        ...(query.relationship_kind ? [eq(contentReferences.relationshipKind, query.relationship_kind)] : []),
        ...(query.status ? [eq(contentReferences.status, query.status)] : []),
      ),
    )
    .orderBy(asc(contentReferences.createdAt), asc(contentReferences.referenceId));
  return wholeList(rows.map(presentReference));
};
