import { randomUUID } from 'node:crypto';
import { and, eq, inArray } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '../../../platform/db.ts';
import type { RequestContext } from '../../../platform/context.ts';
import { requireAccess } from '../../../platform/auth.ts';
import { DomainError } from '../../../platform/errors.ts';
import { etagOf } from '../../../platform/etag.ts';
import { requireIdempotencyKey, runIdempotent, type CommandResult } from '../../../platform/idempotency.ts';
import { parseInput, isoTimestamp } from '../../../platform/validation.ts';
import { contentIdempotency, items } from '../tables.ts';
import {
  CONTENT_STATUSES, DOK_LEVELS, GRADE_IDS, SOURCE_SYSTEMS, SUBTYPES, TEST_TYPES, USAGE_SCOPES,
  assessmentRoleOf, contentKind, subjectId,
} from '../vocabulary.ts';
import { insertVersion } from '../versions/versions.service.ts';
import { ACCESS } from '../access.ts';

/**
 * Content items: metadata commands only. Invariants: an item always has at least one version
 * (the initial one, created in the same transaction); assessment_role always agrees with the kind;
 * unknown fields, and body, blocks or composition fields, are refused, never ignored.
 */

const metadataFields = {
  subtype: z.enum(SUBTYPES).describe('diagram or decodable'),
  title: z.string().trim().min(1).max(500),
  language: z.string().regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, 'a BCP 47 language tag'),
  subject_id: subjectId,
  alpha_subject_id: subjectId.describe('alias of subject_id'),
  target_grade_id: z.enum(GRADE_IDS),
  expected_xp: z.number().int().min(0),
  status: z.enum(CONTENT_STATUSES),
  dok: z.enum(DOK_LEVELS),
  usage_scope: z.enum(USAGE_SCOPES),
  test_type: z.enum(TEST_TYPES),
  is_mastery_gate: z.boolean(),
  source_identifier: z.string().min(1),
  source_system: z.enum(SOURCE_SYSTEMS),
  source_table: z.string().min(1),
  source_record_id: z.string().min(1),
  source_activity_ref: z.string().min(1),
};

export const CreateItemInput = z
  .object(metadataFields)
  .partial()
  .extend({
    content_id: z.uuid().optional().describe('Caller-chosen id; minted when absent'),
    content_kind: contentKind,
    assessment_role: z.enum(['form', 'spec', 'bank']).optional().describe('Derived from the kind; when sent it must agree'),
    title: metadataFields.title,
  })
  .strict()
  .superRefine((input, issues) => {
    if (input.subject_id && input.alpha_subject_id && input.subject_id !== input.alpha_subject_id) {
      issues.addIssue({ code: 'custom', path: ['alpha_subject_id'], message: 'must equal subject_id when both are sent' });
    }
    const role = assessmentRoleOf(input.content_kind);
    if (input.assessment_role !== undefined && input.assessment_role !== role) {
      issues.addIssue({ code: 'custom', path: ['assessment_role'], message: `content_kind ${input.content_kind} has assessment_role ${role ?? 'none'}` });
    }
  });
export type CreateItemInput = z.infer<typeof CreateItemInput>;

export type ItemRow = typeof items.$inferSelect;

/** The REST (and GraphQL, through the snake_case resolver) shape of a content item. */
export function presentItem(row: ItemRow) {
  return {
    content_id: row.contentId,
    content_kind: row.contentKind,
    subtype: row.subtype,
    title: row.title,
    language: row.language,
    subject_id: row.subjectId,
    target_grade_id: row.targetGradeId,
    expected_xp: row.expectedXp,
    status: row.status,
    dok: row.dok,
    assessment_role: row.assessmentRole,
    usage_scope: row.usageScope,
    test_type: row.testType,
    is_mastery_gate: row.isMasteryGate,
    source_identifier: row.sourceIdentifier,
    source_system: row.sourceSystem,
    source_table: row.sourceTable,
    source_record_id: row.sourceRecordId,
    source_activity_ref: row.sourceActivityRef,
    latest_version_id: row.latestVersionId,
    latest_version_number: row.latestVersionNumber,
    etag: etagOf(row.contentId, row.rowVersion),
    created_at: isoTimestamp(row.createdAt),
    updated_at: isoTimestamp(row.updatedAt),
  };
}
export type ContentItem = ReturnType<typeof presentItem>;

export async function createItem(
  db: Database,
  ctx: RequestContext,
  rawInput: unknown,
  idempotencyKey: string | undefined,
): Promise<CommandResult<ContentItem>> {
  requireAccess(ctx.principal, ACCESS.author, 'create content items');
  const key = requireIdempotencyKey(idempotencyKey);
  const input = parseInput(CreateItemInput, rawInput);
  return db.transaction((tx) =>
    runIdempotent(tx, contentIdempotency, { tenantId: ctx.tenantId, operation: 'content.items.create', key, request: input }, async () => {
      const contentId = input.content_id ?? randomUUID();
      const now = ctx.now.toISOString();
      const [existing] = await tx
        .select({ contentId: items.contentId })
        .from(items)
        .where(and(eq(items.tenantId, ctx.tenantId), eq(items.contentId, contentId)));
      if (existing) throw new DomainError('content.item_exists', `Content item ${contentId} already exists.`);
      const version = await insertVersion(tx, ctx, { contentId, versionNumber: 1, studentView: { blocks: [] } });
      const [row] = await tx
        .insert(items)
        .values({
          tenantId: ctx.tenantId,
          contentId,
          contentKind: input.content_kind,
          subtype: input.subtype ?? null,
          title: input.title,
          language: input.language ?? null,
          subjectId: input.subject_id ?? input.alpha_subject_id ?? null,
          targetGradeId: input.target_grade_id ?? null,
          expectedXp: input.expected_xp ?? null,
          status: input.status ?? 'draft',
          dok: input.dok ?? null,
          assessmentRole: assessmentRoleOf(input.content_kind),
          usageScope: input.usage_scope ?? 'practice_eligible',
          testType: input.test_type ?? null,
          isMasteryGate: input.is_mastery_gate ?? false,
          sourceIdentifier: input.source_identifier ?? null,
          sourceSystem: input.source_system ?? null,
          sourceTable: input.source_table ?? null,
          sourceRecordId: input.source_record_id ?? null,
          sourceActivityRef: input.source_activity_ref ?? null,
          latestVersionId: version.versionId,
          latestVersionNumber: 1,
          createdBy: ctx.principal.subject,
          createdAt: now,
          updatedAt: now,
        })
        .returning();
      return { value: presentItem(row), created: true };
    }),
  );
}

export async function findItemRow(db: Database, tenantId: string, contentId: string): Promise<ItemRow | undefined> {
  if (!z.uuid().safeParse(contentId).success) return undefined;
  const [row] = await db.select().from(items).where(and(eq(items.tenantId, tenantId), eq(items.contentId, contentId)));
  return row;
}

/** Batched read of items by id, for loaders. Non-uuid ids simply match nothing. */
export async function findItemRows(db: Database, tenantId: string, contentIds: readonly string[]): Promise<Map<string, ContentItem>> {
  const valid = [...new Set(contentIds)].filter((id) => z.uuid().safeParse(id).success);
  if (valid.length === 0) return new Map();
  const rows = await db.select().from(items).where(and(eq(items.tenantId, tenantId), inArray(items.contentId, valid)));
  return new Map(rows.map((row) => [row.contentId, presentItem(row)]));
}

/** Access-checked batch behind the ContentItem loader. */
export async function loadItems(db: Database, ctx: RequestContext, contentIds: readonly string[]): Promise<Map<string, ContentItem>> {
  requireAccess(ctx.principal, ACCESS.service, 'read content items');
  return findItemRows(db, ctx.tenantId, contentIds);
}

export async function getItem(db: Database, ctx: RequestContext, contentId: string): Promise<ContentItem> {
  requireAccess(ctx.principal, ACCESS.service, 'read content items');
  const row = await findItemRow(db, ctx.tenantId, contentId);
  if (!row) throw itemNotFound(contentId);
  return presentItem(row);
}

export function itemNotFound(contentId: string): DomainError {
  return new DomainError('not_found', `No content item ${contentId} in this tenant.`);
}
