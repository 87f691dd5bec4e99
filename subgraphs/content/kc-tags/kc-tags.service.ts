import { asc, inArray } from 'drizzle-orm';
import { z } from 'zod';
import type { RequestContext } from '../../../platform/context.ts';
import { requireAccess } from '../../../platform/auth.ts';
import { DomainError } from '../../../platform/errors.ts';
import { lockKey } from '../../../platform/db.ts';
import { presentPage, tablePage, uniqueOrder } from '../../../platform/keyset.ts';
import { isoTimestamp, parseInput, uuidRef, listQueryMembers } from '../../../platform/validation.ts';
import { kcTags } from '../tables.ts';
import { ACCESS } from '../access.ts';
import type { ContentDeps, ItemList } from '../deps.ts';
import { requireItemRow, rowsByItem } from '../queries.ts';
import type { KcLookup } from '../curriculum-client.ts';
import type { ActiveKcs } from '../references/bank-contract.ts';
import { tenantRows } from '../../../platform/tenant-rows.ts';
import type { ItemKeys, ItemRead, ItemWrite } from '../inputs.ts';

/**
 * Weighted KC tags: links from an item to active KCs of curriculum's governed registry. The
 * registry is asked before every write; any doubt (unknown, retired, no answer) refuses the tag.
 * A CASE KC id is never a registry id, so it is refused too.
 */

export const KcTagInput = z
  .object({
    kc_id: uuidRef().describe('An active registry kc_id of the curriculum service (CASE KC ids are refused)'),
    weight: z.number().gt(0).max(1).describe('Share of the item attributed to this KC, in (0, 1]'),
  })
  .strict();

type KcTagRow = typeof kcTags.$inferSelect;

export function presentKcTag(row: KcTagRow) {
  return {
    content_id: row.contentId,
    kc_id: row.kcId,
    weight: row.weight,
    status: row.status,
    tagged_by: row.taggedBy,
    created_at: isoTimestamp(row.createdAt),
    updated_at: isoTimestamp(row.updatedAt),
  };
}
export type ContentKcTag = ReturnType<typeof presentKcTag>;

/**
 * Content's view of curriculum's KC registry for one request, through its published GET /kcs/{kcId}
 * only: each KC is asked once, a tag counts only while curriculum confirms its KC active, and no
 * answer refuses (503), never counts. `confirmed` answers from what was already asked, without a
 * call, for use inside a transaction (a KC not asked yet does not count).
 */
export function kcRegistryView(deps: ContentDeps, ctx: RequestContext): { active: ActiveKcs; confirmed: ActiveKcs } {
  const answers = new Map<string, KcLookup>();
  const confirmed: ActiveKcs = async (kcIds) =>
    new Set(kcIds.filter((kcId) => answers.get(kcId)?.outcome === 'active'));
  const active: ActiveKcs = async (kcIds) => {
    const unasked = kcIds.filter((kcId) => !answers.has(kcId));
    const lookups = await Promise.all(unasked.map((kcId) => deps.curriculum.lookupKc(ctx, kcId)));
    unasked.forEach((kcId, index) => answers.set(kcId, lookups[index]));
    const failed = kcIds.find((kcId) => answers.get(kcId)?.outcome === 'failed');
    if (failed) {
      throw new DomainError(
        'content.kc_registry_unavailable',
        `The KC registry could not confirm ${failed}; KC attribution cannot be judged.`,
      );
    }
    return confirmed(kcIds);
  };
  return { active, confirmed };
}

/**
 * POST: create or replace the tag of (item, kc). The registry is asked before the transaction (no
 * lock is held over a network call); what keeps a tag honest afterwards is that attribution asks
 * again each time it counts the tag (kcRegistryView).
 */
export async function tagKc(
  deps: ContentDeps,
  ctx: RequestContext,
  { contentId, body: rawInput }: ItemWrite,
): Promise<{ value: ContentKcTag; created: boolean }> {
  requireAccess(ctx.principal, ACCESS.linkKc, 'tag content with KCs');
  const input = parseInput(KcTagInput, rawInput);
  await requireItemRow(deps.db, ctx.tenantId, contentId);
  const registry = await deps.curriculum.lookupKc(ctx, input.kc_id);
  if (registry.outcome === 'failed') {
    throw new DomainError(
      'content.kc_registry_unavailable',
      `The KC registry could not confirm ${input.kc_id} (${registry.reason}); nothing was written.`,
    );
  }
  if (registry.outcome === 'inactive') {
    throw new DomainError(
      'content.kc_not_active',
      `${input.kc_id} is not an active registry KC (${registry.reason}).`,
      {
        fieldErrors: [{ field: 'kc_id', message: registry.reason }],
      },
    );
  }
  const now = ctx.now.toISOString();
  return deps.db.transaction(async (tx) => {
    await lockKey(tx, `kc-tag|${ctx.tenantId}|${contentId}|${input.kc_id}`);
    const key = tenantRows(kcTags, ctx.tenantId, { contentId, kcId: input.kc_id });
    const [existing] = await tx.select({ kcId: kcTags.kcId }).from(kcTags).where(key).for('update');
    const [row] = existing
      ? await tx
          .update(kcTags)
          .set({ weight: input.weight, status: 'active', taggedBy: ctx.principal.subject, updatedAt: now })
          .where(key)
          .returning()
      : await tx
          .insert(kcTags)
          .values({
            tenantId: ctx.tenantId,
            contentId,
            kcId: input.kc_id,
            weight: input.weight,
            status: 'active',
            taggedBy: ctx.principal.subject,
            createdAt: now,
            updatedAt: now,
          })
          .returning();
    return { value: presentKcTag(row), created: !existing };
  });
}

export const KcTagsQuery = z.object({ limit: listQueryMembers.limit, cursor: listQueryMembers.cursor }).strict();

export const listKcTags: ItemList<ContentKcTag, ItemRead> = async (deps, ctx, { contentId, query: rawQuery }) => {
  requireAccess(ctx.principal, ACCESS.read, 'read KC tags');
  const { db } = deps;
  const query = parseInput(KcTagsQuery, rawQuery);
  await requireItemRow(db, ctx.tenantId, contentId);
  const request = { ...query, tenantId: ctx.tenantId, filters: { contentId } };
  const conditions = [tenantRows(kcTags, ctx.tenantId, { contentId })];
  return presentPage(await tablePage(db, deps.cursors, kcTags, BY_KC, request, conditions), presentKcTag);
};

const BY_KC = uniqueOrder<KcTagRow>(kcTags.kcId, (row) => row.kcId);

/** Batched read of the active tags of many items (GraphQL). */
export async function activeKcTagsOf(
  deps: ContentDeps,
  ctx: RequestContext,
  { contentIds }: ItemKeys,
): Promise<Map<string, ContentKcTag[]>> {
  requireAccess(ctx.principal, ACCESS.read, 'read KC tags');
  return rowsByItem(
    contentIds,
    (valid) =>
      deps.db
        .select()
        .from(kcTags)
        .where(tenantRows(kcTags, ctx.tenantId, { status: 'active' }, inArray(kcTags.contentId, valid)))
        .orderBy(asc(kcTags.kcId)),
    (row) => row.contentId,
    presentKcTag,
  );
}
