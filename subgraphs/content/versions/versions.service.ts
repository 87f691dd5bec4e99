import { createHash } from 'node:crypto';
import { gt, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { columnNames } from '../../../platform/insert-with.ts';
import { z } from 'zod';
import type { Database } from '../../../platform/db.ts';
import type { RequestContext } from '../../../platform/context.ts';
import { allows, requireAccess, type AccessRule, type Principal } from '../../../platform/auth.ts';
import { DomainError } from '../../../platform/errors.ts';
import { canonicalJson } from '../../../platform/idempotency.ts';
import { runCommand } from '../../../platform/commands.ts';
import { presentPage, tablePage, uniqueOrder } from '../../../platform/keyset.ts';
import {
  nullMeansAbsent,
  parseInput,
  isoTimestamp,
  isUuid,
  webUrl,
  listQueryMembers,
} from '../../../platform/validation.ts';
import { items, versions } from '../tables.ts';
import type { ContentDeps, ItemCommand, ItemList } from '../deps.ts';
import { BLOCK_TYPES } from '../vocabulary.ts';
import { ACCESS } from '../access.ts';
import { findItemRow, findVersionRows, itemNotFound, versionNotFound, type VersionRow } from '../queries.ts';
import { projectCanonicalXml } from '../questions/canonical-xml.ts';
import { withoutAnswerKeys } from '../questions/answer-key-redaction.ts';
import { insertProjections } from '../questions/questions.service.ts';
import { tenantRows } from '../../../platform/tenant-rows.ts';
import { timeOrderedUuid } from '../../../platform/time-ordered-uuid.ts';
import type { ItemRead, VersionKey, VersionKeys } from '../inputs.ts';

/**
 * Exact content versions. Invariants: versions are only ever inserted (the database refuses UPDATE
 * and DELETE); numbers are dense per item; the item's latest_version_id only moves to a newer
 * number, under the item's row lock.
 */

const Block = nullMeansAbsent(
  z
    .object({
      type: z.enum(BLOCK_TYPES),
      text: z.string().optional(),
      url: webUrl().optional(),
      alt: z.string().optional(),
      order: z.int32().min(0),
    })
    .strict(),
).superRefine((block, issues) => {
  if (block.type === 'image' && !block.url)
    issues.addIssue({ code: 'custom', path: ['url'], message: 'an image block needs a url' });
  if (block.type !== 'image' && !block.text)
    issues.addIssue({ code: 'custom', path: ['text'], message: `a ${block.type} block needs text` });
});

export const StudentView = z
  .object({ blocks: z.array(Block).max(500) })
  .strict()
  .superRefine((view, issues) => {
    const orders = view.blocks.map((block) => block.order);
    if (new Set(orders).size !== orders.length)
      issues.addIssue({ code: 'custom', path: ['blocks'], message: 'block order values must be unique' });
  });

export const AppendVersionInput = nullMeansAbsent(
  z
    .object({
      student_view: StudentView.optional(),
      canonical_xml: z.string().min(1).max(2_000_000).optional(),
    })
    .strict(),
).refine((input) => input.student_view !== undefined || input.canonical_xml !== undefined, {
  message: 'send student_view.blocks or canonical_xml',
  path: ['student_view'],
});

/** Who reads a question's canonical_xml whole: the readers of answer keys, and the authors who write them. */
const WHOLE_CANONICAL_XML: AccessRule = { anyOf: [ACCESS.answerKeys, ACCESS.author] };

export function presentVersion(row: VersionRow, reader: Principal) {
  return {
    version_id: row.versionId,
    content_id: row.contentId,
    version_number: row.versionNumber,
    student_view: row.studentView as { blocks: unknown[] },
    canonical_xml:
      row.canonicalXml === null || allows(reader, WHOLE_CANONICAL_XML)
        ? row.canonicalXml
        : withoutAnswerKeys(row.canonicalXml),
    supersedes_version_id: row.supersedesVersionId,
    content_hash: row.contentHash,
    created_at: isoTimestamp(row.createdAt),
  };
}
export type ContentVersion = ReturnType<typeof presentVersion>;

function contentHashOf(studentView: unknown, canonicalXml: string | null): string {
  return `sha256:${createHash('sha256')
    .update(canonicalJson({ student_view: studentView, canonical_xml: canonicalXml }))
    .digest('hex')}`;
}

/** Inserts one exact version; callers hold the item's row lock (or are creating the item). */
export async function insertVersion(
  tx: Database,
  ctx: RequestContext,
  version: {
    /** Given when a row written first names the version. */
    versionId?: string;
    contentId: string;
    versionNumber: number;
    studentView: unknown;
    canonicalXml?: string | null;
    supersedesVersionId?: string | null;
  },
): Promise<VersionRow> {
  const canonicalXml = version.canonicalXml ?? null;
  const [row] = await tx
    .insert(versions)
    .values({
      tenantId: ctx.tenantId,
      versionId: version.versionId ?? timeOrderedUuid(),
      contentId: version.contentId,
      versionNumber: version.versionNumber,
      studentView: version.studentView,
      canonicalXml,
      supersedesVersionId: version.supersedesVersionId ?? null,
      contentHash: contentHashOf(version.studentView, canonicalXml),
      createdBy: ctx.principal.subject,
      createdAt: ctx.now.toISOString(),
    })
    .returning();
  return row;
}

/** What a new item's first version shows until a version replaces it. */
const FIRST_STUDENT_VIEW = { blocks: [] };

/**
 * The insert of a new item's first version for each item row of `created` (the item's create CTE, see
 * `insertWith`); `version` gives its id, author and time: values or placeholders of a prepared statement.
 */
export function firstVersionFrom(
  created: SQLWrapper,
  version: { versionId: unknown; createdBy: unknown; createdAt: unknown },
): SQL {
  return sql`insert into ${versions} (${columnNames(
    versions.tenantId,
    versions.versionId,
    versions.contentId,
    versions.versionNumber,
    versions.studentView,
    versions.contentHash,
    versions.createdBy,
    versions.createdAt,
  )})
    select ${columnNames(items.tenantId)}, ${version.versionId}::uuid, ${columnNames(items.contentId)}, 1,
      ${JSON.stringify(FIRST_STUDENT_VIEW)}::jsonb, ${contentHashOf(FIRST_STUDENT_VIEW, null)},
      ${version.createdBy}::text, ${version.createdAt}::timestamptz
    from ${created}`;
}

export const appendVersion: ItemCommand<ContentVersion> = async (deps, ctx, { contentId, body, idempotencyKey }) => {
  requireAccess(ctx.principal, ACCESS.author, 'append content versions');
  const input = parseInput(AppendVersionInput, body);
  if (!isUuid(contentId)) throw itemNotFound(contentId);
  // Parsed before the transaction: bytes that cannot be projected never become a version.
  const projection = input.canonical_xml === undefined ? undefined : projectCanonicalXml(input.canonical_xml);
  return runCommand(
    deps,
    ctx,
    { operation: `content.versions.append:${contentId}`, key: idempotencyKey, sent: body },
    async (tx) => {
      const [item] = await tx
        .select({
          kind: items.contentKind,
          latestNumber: items.latestVersionNumber,
          latestVersionId: items.latestVersionId,
        })
        .from(items)
        .where(tenantRows(items, ctx.tenantId, { contentId }))
        .for('update');
      if (!item) throw itemNotFound(contentId);
      if (input.canonical_xml !== undefined && item.kind !== 'question') {
        throw new DomainError('validation_failed', 'canonical_xml is only accepted on question versions.', {
          fieldErrors: [{ field: 'canonical_xml', message: `not accepted on ${item.kind} versions` }],
        });
      }
      const row = await insertVersion(tx, ctx, {
        contentId,
        versionNumber: item.latestNumber + 1,
        studentView: input.student_view ?? { blocks: [] },
        canonicalXml: input.canonical_xml ?? null,
      });
      if (projection) await insertProjections(tx, ctx, { contentId, versionId: row.versionId, projection });
      await tx
        .update(items)
        .set({
          latestVersionId: row.versionId,
          latestVersionNumber: row.versionNumber,
          rowVersion: sql`${items.rowVersion} + 1`,
          updatedAt: ctx.now.toISOString(),
        })
        .where(
          tenantRows(items, ctx.tenantId, { contentId }, gt(sql`${row.versionNumber}`, items.latestVersionNumber)),
        );
      return { value: presentVersion(row, ctx.principal), created: true };
    },
  );
};

export async function getVersion(
  deps: ContentDeps,
  ctx: RequestContext,
  { contentId, versionId }: VersionKey,
): Promise<ContentVersion> {
  requireAccess(ctx.principal, ACCESS.read, 'read content versions');
  const [row] = await findVersionRows(deps.db, ctx.tenantId, [versionId]);
  if (!row || row.contentId !== contentId) throw versionNotFound(contentId, versionId);
  return presentVersion(row, ctx.principal);
}

/** Access-checked batch of whole versions (bodies included), behind GraphQL's body fields. */
export async function loadVersions(
  deps: ContentDeps,
  ctx: RequestContext,
  { versionIds }: VersionKeys,
): Promise<Map<string, ContentVersion>> {
  requireAccess(ctx.principal, ACCESS.read, 'read content versions');
  const rows = await findVersionRows(deps.db, ctx.tenantId, [...new Set(versionIds)]);
  return new Map(rows.map((row) => [row.versionId, presentVersion(row, ctx.principal)]));
}

export const ListVersionsQuery = z.object({ limit: listQueryMembers.limit, cursor: listQueryMembers.cursor }).strict();

export const listVersions: ItemList<ContentVersion, ItemRead> = async (deps, ctx, { contentId, query: rawQuery }) => {
  requireAccess(ctx.principal, ACCESS.read, 'read content versions');
  const query = parseInput(ListVersionsQuery, rawQuery);
  const request = { ...query, tenantId: ctx.tenantId, filters: { contentId } };
  if (!(await findItemRow(deps.db, ctx.tenantId, contentId))) throw itemNotFound(contentId);
  const conditions = [tenantRows(versions, ctx.tenantId, { contentId })];
  const page = await tablePage(deps.db, deps.cursors, versions, BY_NUMBER, request, conditions);
  return presentPage(page, (row) => presentVersion(row, ctx.principal));
};

const BY_NUMBER = uniqueOrder<VersionRow>(versions.versionNumber, (row) => row.versionNumber);
