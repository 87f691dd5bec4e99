import { asc, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { RequestContext } from '../../../platform/context.ts';
import { requireAccess } from '../../../platform/auth.ts';
import { DomainError } from '../../../platform/errors.ts';
import { checkIfMatch, etagOf } from '../../../platform/etag.ts';
import { MAX_PAGE_SIZE, type Page } from '../../../platform/cursor.ts';
import { keyedBy, pageRequest, presentPage, tablePage, type KeysetOrder } from '../../../platform/keyset.ts';
import {
  recordWith,
  requireIdempotencyKey,
  type CommandResult,
  type FreshRecord,
} from '../../../platform/idempotency.ts';
import { groupCommit } from '../../../platform/group-commit.ts';
import { runCommand, runFreshFirst } from '../../../platform/commands.ts';
import {
  isoTimestamp,
  isUuid,
  nullMeansAbsent,
  parseInput,
  queryBoolean,
  queryInstant,
  uuidRef,
  listQueryMembers,
} from '../../../platform/validation.ts';
import { catalogFacets, contentIdempotency, curriculumLinks, facetAssignments, items } from '../tables.ts';
import {
  ASSESSMENT_ROLES,
  CONTENT_STATUSES,
  DOK_LEVELS,
  FACET_FILTER_KEYS,
  FACET_KEYS,
  GRADE_IDS,
  SEPARATELY_PUBLISHED_KINDS,
  SOURCE_SYSTEMS,
  SUBTYPES,
  TEST_BANK_MEMBERSHIP_RULES,
  TEST_TYPES,
  USAGE_SCOPES,
  XP_BAND_RANGES,
  assessmentRoleOf,
  contentKind,
  subjectId,
  xpBand,
  type XpBand,
} from '../vocabulary.ts';
import { firstVersionFrom } from '../versions/versions.service.ts';
import { givenRow, givenRows, insertGiven, insertWith } from '../../../platform/insert-with.ts';
import { prepareOncePerDatabase, type Database } from '../../../platform/db.ts';
import { findItemRow, findItemRows, itemNotFound, requireItemRow, type ItemRow } from '../queries.ts';
import { ACCESS } from '../access.ts';
import type { ContentDeps } from '../deps.ts';
import { BLUEPRINT_FIELDS, Blueprint, insertBlueprint } from '../blueprints/blueprint.service.ts';
import { tenantRows } from '../../../platform/tenant-rows.ts';
import { timeOrderedUuid } from '../../../platform/time-ordered-uuid.ts';
import type { ItemKey, ItemKeys, ListRead } from '../inputs.ts';

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
  expected_xp: z.int32().min(0),
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

export const CreateItemInput = nullMeansAbsent(
  z
    .object(metadataFields)
    .partial()
    .extend({
      content_id: uuidRef().optional().describe('Caller-chosen id; minted when absent'),
      content_kind: contentKind,
      assessment_role: z
        .enum(['form', 'spec', 'bank'])
        .optional()
        .describe('Derived from the kind; when sent it must agree'),
      membership_rule: z.enum(TEST_BANK_MEMBERSHIP_RULES).optional().describe('test_bank only; fixed at create'),
      title: metadataFields.title,
      ...Object.fromEntries(
        BLUEPRINT_FIELDS.map((field) => [field, z.unknown().optional().describe('test_spec blueprint field')]),
      ),
    })
    .strict(),
).superRefine((input, issues) => {
  checkSubjectAlias(input, issues);
  checkBlueprintFields(input, issues);
  const problem = statusProblem(input.content_kind, input.status);
  if (problem) issues.addIssue({ code: 'custom', path: ['status'], message: problem });
  if (input.membership_rule !== undefined && input.content_kind !== 'test_bank') {
    issues.addIssue({ code: 'custom', path: ['membership_rule'], message: 'only a test_bank has a membership_rule' });
  }
  const role = assessmentRoleOf(input.content_kind);
  if (input.assessment_role !== undefined && input.assessment_role !== role) {
    issues.addIssue({
      code: 'custom',
      path: ['assessment_role'],
      message: `content_kind ${input.content_kind} has assessment_role ${role ?? 'none'}`,
    });
  }
});
export type CreateItemInput = z.infer<typeof CreateItemInput>;

/** test_spec and test_bank versions are published one by one through POST /publish, never by status. */
function statusProblem(kind: string, status: string | null | undefined): string | null {
  return status === 'published' && SEPARATELY_PUBLISHED_KINDS.has(kind)
    ? `a ${kind} is published version by version through POST /items/{contentId}/publish`
    : null;
}

function checkSubjectAlias(
  input: { subject_id?: string | null; alpha_subject_id?: string | null },
  issues: z.RefinementCtx,
): void {
  if (
    input.subject_id !== undefined &&
    input.alpha_subject_id !== undefined &&
    input.subject_id !== input.alpha_subject_id
  ) {
    issues.addIssue({
      code: 'custom',
      path: ['alpha_subject_id'],
      message: 'must equal subject_id when both are sent',
    });
  }
}

/** A test_spec needs all seven blueprint fields, valid; any other kind takes none of them. */
function checkBlueprintFields(
  input: Record<string, unknown> & { content_kind: string },
  issues: z.RefinementCtx,
): void {
  const sent = BLUEPRINT_FIELDS.filter((field) => input[field] !== undefined);
  if (input.content_kind !== 'test_spec') {
    for (const field of sent)
      issues.addIssue({ code: 'custom', path: [field], message: `only a test_spec has ${field}` });
    return;
  }
  const parsed = Blueprint.safeParse(Object.fromEntries(BLUEPRINT_FIELDS.map((field) => [field, input[field]])));
  if (!parsed.success)
    for (const issue of parsed.error.issues)
      issues.addIssue({ code: 'custom', path: issue.path, message: issue.message });
}

function blueprintOf(input: CreateItemInput): Blueprint {
  return Blueprint.parse(
    Object.fromEntries(BLUEPRINT_FIELDS.map((field) => [field, (input as Record<string, unknown>)[field]])),
  );
}

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
    membership_rule: row.membershipRule,
    latest_version_id: row.latestVersionId,
    latest_version_number: row.latestVersionNumber,
    etag: etagOf(row.contentId, row.rowVersion),
    created_at: isoTimestamp(row.createdAt),
    updated_at: isoTimestamp(row.updatedAt),
  };
}
export type ContentItem = ReturnType<typeof presentItem>;

export async function createItem(
  deps: ContentDeps,
  ctx: RequestContext,
  { body, idempotencyKey }: { body: unknown; idempotencyKey: string | undefined },
): Promise<CommandResult<ContentItem>> {
  requireAccess(ctx.principal, ACCESS.author, 'create content items');
  const key = requireIdempotencyKey(idempotencyKey);
  const input = parseInput(CreateItemInput, body);
  const row = newItemRow(ctx, input);
  const version = { versionId: row.latestVersionId, createdBy: row.createdBy, createdAt: row.createdAt };
  const call = { operation: 'content.items.create', key, sent: body };
  const locked = async (tx: Database) => {
    const insert = tx
      .insert(items)
      .values(row)
      // The key says whether the id is taken (a concurrent create of it waits here), before
      // anything else of the item is written.
      .onConflictDoNothing({ target: [items.tenantId, items.contentId] })
      .returning();
    const [created] = await insertWith(tx, items, insert, (rows) => firstVersionFrom(rows, version));
    if (!created) throw new DomainError('content.item_exists', `Content item ${row.contentId} already exists.`);
    if (input.content_kind === 'test_spec')
      await insertBlueprint(tx, ctx, { contentId: row.contentId, blueprint: blueprintOf(input) });
    return { value: presentItem(created), created: true };
  };
  if (input.content_kind === 'test_spec') return runCommand(deps, ctx, call, locked);
  return runFreshFirst(
    deps,
    ctx,
    call,
    async (record) => {
      const created = await insertFreshTogether(deps.db, ctx.tenantId, { row, record });
      return created && presentItem(created);
    },
    locked,
  );
}

/** A new item's row as the create writes it; its first version's id is `latestVersionId`. */
function newItemRow(ctx: RequestContext, input: z.infer<typeof CreateItemInput>) {
  const now = ctx.now.toISOString();
  return {
    tenantId: ctx.tenantId,
    contentId: input.content_id ?? timeOrderedUuid(),
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
    membershipRule: input.membership_rule ?? null,
    latestVersionId: timeOrderedUuid(),
    latestVersionNumber: 1,
    rowVersion: 1,
    createdBy: ctx.principal.subject,
    createdAt: now,
    updatedAt: now,
  } satisfies ItemRow;
}

/** A new item's row and its key's record, for `insertFreshItems`. */
interface FreshItem {
  row: ItemRow;
  record: FreshRecord;
}

/**
 * Fresh items under fresh keys, built once per database: each item, its first version (the item's
 * `latest_version_id`) and its key's record with its answer, in one self-committing statement
 * (`runFreshFirst`); the rows come as one JSON array, so any number of creates share the statement's
 * text. A taken id writes none of its rows; a held key fails the whole statement.
 */
const insertFreshItemsStatement = prepareOncePerDatabase((db) => {
  const given = givenRows(items, sql`operation text, idempotency_key text, request_hash text, answer jsonb`);
  const insert = insertGiven(db, items, given)
    .onConflictDoNothing({ target: [items.tenantId, items.contentId] })
    .returning();
  return insertWith(db, items, insert, (created) => [
    firstVersionFrom(created, {
      versionId: sql.identifier(items.latestVersionId.name),
      createdBy: sql.identifier(items.createdBy.name),
      createdAt: sql.identifier(items.createdAt.name),
    }),
    // Each create's own first version id tells its record apart, even from a rival create of its id.
    recordWith(contentIdempotency, created, given, items.latestVersionId.name),
  ]).prepare('content_insert_fresh_items');
});

/** Inserts fresh items, answering each one's stored row, or nothing when its id is taken. */
async function insertFreshItems(db: Database, creates: FreshItem[]): Promise<(ItemRow | undefined)[]> {
  const sent = creates.map(({ row, record }) =>
    givenRow(items, row, {
      operation: record.operation,
      idempotency_key: record.idempotencyKey,
      request_hash: record.requestHash,
      answer: presentItem(row),
    }),
  );
  const stored = new Map(
    (await insertFreshItemsStatement(db).execute({ rows: JSON.stringify(sent) })).map((row) => [
      row.latestVersionId,
      row,
    ]),
  );
  return creates.map(({ row }) => stored.get(row.latestVersionId));
}

/** A tenant's fresh item creates that arrive while one runs are inserted together: one statement and one commit for them. */
const insertFreshTogether = groupCommit((db: Database, _tenantId: string, creates: FreshItem[]) =>
  insertFreshItems(db, creates),
);

/** Access-checked batch behind the ContentItem loader. */
export async function loadItems(
  deps: ContentDeps,
  ctx: RequestContext,
  { contentIds }: ItemKeys,
): Promise<Map<string, ContentItem>> {
  requireAccess(ctx.principal, ACCESS.service, 'read content items');
  const rows = await findItemRows(deps.db, ctx.tenantId, contentIds);
  return new Map(rows.map((row) => [row.contentId, presentItem(row)]));
}

export async function getItem(deps: ContentDeps, ctx: RequestContext, { contentId }: ItemKey): Promise<ContentItem> {
  requireAccess(ctx.principal, ACCESS.service, 'read content items');
  const row = await findItemRow(deps.db, ctx.tenantId, contentId);
  if (!row) throw itemNotFound(contentId);
  return presentItem(row);
}

/** Fields a PATCH may clear with null; the others always hold a value. */
const clearable = [
  'subtype',
  'language',
  'subject_id',
  'alpha_subject_id',
  'target_grade_id',
  'expected_xp',
  'dok',
  'test_type',
  'source_identifier',
  'source_system',
  'source_table',
  'source_record_id',
  'source_activity_ref',
] as const;

export const PatchItemInput = z
  .object(
    Object.fromEntries(
      Object.entries(metadataFields).map(([field, schema]) => [
        field,
        ((clearable as readonly string[]).includes(field) ? schema.nullable() : schema).optional(),
      ]),
    ) as { [K in keyof typeof metadataFields]: z.ZodOptional<z.ZodNullable<(typeof metadataFields)[K]>> },
  )
  .strict()
  .superRefine((input, issues) => {
    checkSubjectAlias(input, issues);
    if (Object.keys(input).length === 0)
      issues.addIssue({ code: 'custom', path: [], message: 'send at least one metadata field' });
    for (const field of ['title', 'status', 'usage_scope', 'is_mastery_gate'] as const) {
      if (input[field] === null) issues.addIssue({ code: 'custom', path: [field], message: 'cannot be cleared' });
    }
  });

/**
 * PATCH: a metadata command under If-Match, checked after the row is locked. Publication of
 * test_spec and test_bank versions goes through POST /publish, never through status.
 */
export async function patchItem(
  deps: ContentDeps,
  ctx: RequestContext,
  { contentId, body: rawInput, ifMatch }: { contentId: string; body: unknown; ifMatch: string | undefined },
): Promise<ContentItem> {
  requireAccess(ctx.principal, ACCESS.author, 'change content items');
  const input = parseInput(PatchItemInput, rawInput);
  return deps.db.transaction(async (tx) => {
    const row = await requireItemRow(tx, ctx.tenantId, contentId, { lock: true });
    checkIfMatch(ifMatch, etagOf(row.contentId, row.rowVersion));
    const problem = statusProblem(row.contentKind, input.status);
    if (problem)
      throw new DomainError('validation_failed', 'The status cannot be set this way.', {
        fieldErrors: [{ field: 'status', message: problem }],
      });
    const subject = input.subject_id !== undefined ? input.subject_id : input.alpha_subject_id;
    const changes: Partial<typeof items.$inferInsert> = {
      subtype: input.subtype,
      title: input.title,
      language: input.language,
      subjectId: subject,
      targetGradeId: input.target_grade_id,
      expectedXp: input.expected_xp,
      status: input.status,
      dok: input.dok,
      usageScope: input.usage_scope,
      testType: input.test_type,
      isMasteryGate: input.is_mastery_gate,
      sourceIdentifier: input.source_identifier,
      sourceSystem: input.source_system,
      sourceTable: input.source_table,
      sourceRecordId: input.source_record_id,
      sourceActivityRef: input.source_activity_ref,
    } as Partial<typeof items.$inferInsert>;
    const [updated] = await tx
      .update(items)
      .set({ ...changes, rowVersion: sql`${items.rowVersion} + 1`, updatedAt: ctx.now.toISOString() })
      .where(tenantRows(items, ctx.tenantId, { contentId }))
      .returning();
    return presentItem(updated);
  });
}

const XP_BAND_FACET = 'expected_xp_band:';

const optionalEnum = <T extends readonly [string, ...string[]]>(values: T, description: string) =>
  z.enum(values).optional().describe(description);

const UUID = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';
const UUID_LIST = new RegExp(`^${UUID}(,${UUID})*$`);

export const ListItemsQuery = z
  .object({
    content_kind: contentKind.optional().describe('Items of this content kind'),
    subtype: optionalEnum(SUBTYPES, 'diagram or decodable'),
    dok: optionalEnum(DOK_LEVELS, "Webb's depth of knowledge, dok1 to dok4"),
    assessment_role: optionalEnum(ASSESSMENT_ROLES, 'form, spec or bank'),
    subject_id: subjectId.optional().describe('Items of this subject'),
    alpha_subject_id: subjectId.optional().describe('alias of subject_id'),
    target_grade_id: optionalEnum(
      GRADE_IDS,
      'Items of this target grade: pre_k, k, 1 to 12, postsecondary or ungraded',
    ),
    curriculum_node_id: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .describe('read-only projection over the frozen curriculum-link archive'),
    usage_scope: optionalEnum(USAGE_SCOPES, 'practice_eligible, held_out_canary or secure_form'),
    test_type: optionalEnum(TEST_TYPES, 'Items of this test type'),
    is_mastery_gate: queryBoolean.optional().describe('Mastery gates only (true) or none of them (false)'),
    source_system: optionalEnum(SOURCE_SYSTEMS, 'Typed source identity: qti, alpha_content or external_content_import'),
    source_record_id: z.string().min(1).optional().describe('Items with this source row id'),
    source_activity_ref: z.string().min(1).optional().describe('Items with this source activity reference'),
    status: optionalEnum(CONTENT_STATUSES, 'Lifecycle status: draft, published, retired or archived'),
    content_ids: z
      .string()
      .regex(UUID_LIST, 'comma-separated content ids')
      .refine((value) => value.split(',').length <= MAX_PAGE_SIZE, `at most ${MAX_PAGE_SIZE} content ids`)
      .optional()
      .describe(`Only these items: comma-separated content ids, at most ${MAX_PAGE_SIZE} (a batch existence read)`),
    facet: z
      .string()
      .regex(/^[a-z_]+:.+$/, 'facet_key:facet_value')
      .refine((value) => (FACET_KEYS as readonly string[]).includes(value.split(':')[0]), 'unknown facet_key')
      // The same bands as the expected_xp_band filter: an unknown one was no error, only an empty page.
      .refine(
        (value) => !value.startsWith(XP_BAND_FACET) || xpBand.safeParse(value.slice(XP_BAND_FACET.length)).success,
        'expected_xp_band: one of the bands or their legacy names',
      )
      .optional()
      .describe('facet_key:facet_value'),
    modifiedSince: queryInstant()
      .optional()
      .describe('Inclusive: items changed at or after this RFC 3339 instant, offset required'),
    ...Object.fromEntries(
      FACET_FILTER_KEYS.map((key) => [
        key,
        (key === 'expected_xp_band' ? xpBand : z.string().min(1))
          .optional()
          .describe(`Catalog facet filter: items with this ${key} facet value`),
      ]),
    ),
    cursor: listQueryMembers.cursor,
    limit: listQueryMembers.limit,
  })
  .strict()
  .superRefine((query, issues) => checkSubjectAlias(query, issues));

/**
 * GET /items: every documented filter, in (updated_at, content_id) order so that modifiedSince
 * works as a high-watermark and cursors stay stable under concurrent inserts.
 */
export async function listItems(
  deps: ContentDeps,
  ctx: RequestContext,
  { query: rawQuery }: ListRead,
): Promise<Page<ContentItem>> {
  requireAccess(ctx.principal, ACCESS.service, 'list content items');
  const query = parseInput(ListItemsQuery, rawQuery) as z.infer<typeof ListItemsQuery> &
    Record<string, string | undefined>;
  const request = pageRequest(ctx.tenantId, query);
  const filters = request.filters as Omit<typeof query, 'cursor' | 'limit'>;
  const conditions: SQL[] = [eq(items.tenantId, ctx.tenantId)];
  const typed = {
    content_kind: items.contentKind,
    subtype: items.subtype,
    dok: items.dok,
    assessment_role: items.assessmentRole,
    target_grade_id: items.targetGradeId,
    usage_scope: items.usageScope,
    test_type: items.testType,
    source_system: items.sourceSystem,
    source_record_id: items.sourceRecordId,
    source_activity_ref: items.sourceActivityRef,
    status: items.status,
  } as const;
  for (const [name, column] of Object.entries(typed)) {
    const value = filters[name];
    if (value !== undefined) conditions.push(eq(column, value));
  }
  const subject = filters.subject_id ?? filters.alpha_subject_id;
  if (subject !== undefined) conditions.push(eq(items.subjectId, subject));
  if (filters.content_ids !== undefined) conditions.push(inArray(items.contentId, filters.content_ids.split(',')));
  if (filters.is_mastery_gate !== undefined)
    conditions.push(eq(items.isMasteryGate, filters.is_mastery_gate as unknown as boolean));
  if (filters.modifiedSince !== undefined)
    conditions.push(sql`${items.updatedAt} >= ${filters.modifiedSince}::timestamptz`);
  if (filters.curriculum_node_id !== undefined)
    conditions.push(await curriculumNodeCondition(deps, ctx, filters.curriculum_node_id));
  const facetFilters: Array<[string, string]> = FACET_FILTER_KEYS.flatMap((key) =>
    filters[key] === undefined ? [] : [[key, filters[key] as string]],
  );
  if (filters.facet !== undefined) {
    const separator = filters.facet.indexOf(':');
    const key = filters.facet.slice(0, separator);
    const value = filters.facet.slice(separator + 1);
    facetFilters.push([key, key === 'expected_xp_band' ? xpBand.parse(value) : value]);
  }
  for (const [key, value] of facetFilters) conditions.push(facetCondition(key, value));
  const page = await tablePage(deps.db, deps.cursors, items, BY_UPDATE, request, conditions);
  return presentPage(page, presentItem);
}

/** Oldest change first, as one row comparison the (tenant, updated_at, content_id) index serves. */
const BY_UPDATE: KeysetOrder<ItemRow> = {
  list: keyedBy('asc', items.updatedAt, items.contentId),
  by: [asc(items.updatedAt), asc(items.contentId)],
  after: ([updatedAt, contentId]) =>
    sql`(${items.updatedAt}, ${items.contentId}) > (${updatedAt}::timestamptz, ${contentId}::uuid)`,
  keyOf: (row) => [row.updatedAt, row.contentId],
};

/**
 * Rule 11: the read-only projection of a component's subtree: archive links to any node of the
 * subtree plus the content its active components target. A node curriculum does not know (a
 * legacy archive node) projects its archive links only; no answer from curriculum fails closed.
 */
async function curriculumNodeCondition(
  deps: Pick<ContentDeps, 'curriculum'>,
  ctx: RequestContext,
  nodeId: string,
): Promise<SQL> {
  const subtree = await deps.curriculum.subtree(ctx, nodeId);
  if (subtree.outcome === 'failed') {
    throw new DomainError(
      'content.curriculum_unavailable',
      `The curriculum service could not answer for ${nodeId} (${subtree.reason}).`,
    );
  }
  const nodeIds = subtree.outcome === 'found' ? subtree.nodeIds : [nodeId];
  const targets = subtree.outcome === 'found' ? subtree.contentIds.filter(isUuid) : [];
  const archived = sql`exists (select 1 from ${curriculumLinks} where ${curriculumLinks.tenantId} = ${items.tenantId}
    and ${curriculumLinks.contentId} = ${items.contentId} and ${inArray(curriculumLinks.curriculumNodeId, nodeIds)})`;
  return targets.length === 0 ? archived : (or(archived, inArray(items.contentId, targets)) as SQL);
}

/**
 * An item matches a facet filter through an assignment, or through its own typed field of the same fact: language
 * through its language (no other filter reads that field), expected_xp_band through expected_xp.
 */
function facetCondition(key: string, value: string): SQL {
  const assigned = sql`exists (select 1 from ${facetAssignments} where ${facetAssignments.tenantId} = ${items.tenantId}
    and ${facetAssignments.contentId} = ${items.contentId} and ${facetAssignments.facetKey} = ${key}
    and (${facetAssignments.facetValue} = ${value}${numberFacetValue(key, value)}))`;
  const typed = typedFacetCondition(key, value);
  return typed ? (or(assigned, typed) as SQL) : assigned;
}

const DECIMAL_NUMBER = /^-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/**
 * A number facet stores a number as JavaScript writes it (4.5): a filter writing it otherwise (4.50, 45e-1) matched
 * nothing. The value as that stored form, for a facet the tenant defines as a number; other facets match as written.
 */
function numberFacetValue(key: string, value: string): SQL {
  const number = DECIMAL_NUMBER.test(value) ? Number(value) : Number.NaN;
  if (!Number.isFinite(number) || String(number) === value) return sql``;
  return sql` or (${facetAssignments.facetValue} = ${String(number)} and exists (select 1 from ${catalogFacets}
    where ${catalogFacets.tenantId} = ${facetAssignments.tenantId} and ${catalogFacets.facetKey} = ${key}
    and ${catalogFacets.valueType} = 'number'))`;
}

function typedFacetCondition(key: string, value: string): SQL | undefined {
  if (key === 'language') return eq(items.language, value);
  if (key !== 'expected_xp_band' || !(value in XP_BAND_RANGES)) return undefined;
  const range = XP_BAND_RANGES[value as XpBand];
  return range.below === null
    ? sql`${items.expectedXp} >= ${range.min}`
    : sql`(${items.expectedXp} >= ${range.min} and ${items.expectedXp} < ${range.below})`;
}
