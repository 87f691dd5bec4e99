import { bigserial, boolean, index, integer, jsonb, pgSchema, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { idempotencyTable } from '../../platform/idempotency.ts';

/**
 * The content service's own schema. Every table's key starts with tenant_id and no other service
 * reads these tables: they are reached only through content's published API.
 */
export const contentSchema = pgSchema('content');

export const items = contentSchema.table(
  'items',
  {
    tenantId: text('tenant_id').notNull(),
    contentId: uuid('content_id').notNull(),
    contentKind: text('content_kind').notNull(),
    subtype: text('subtype'),
    title: text('title').notNull(),
    language: text('language'),
    subjectId: text('subject_id'),
    targetGradeId: text('target_grade_id'),
    expectedXp: integer('expected_xp'),
    status: text('status').notNull(),
    dok: text('dok'),
    assessmentRole: text('assessment_role'),
    usageScope: text('usage_scope').notNull(),
    testType: text('test_type'),
    isMasteryGate: boolean('is_mastery_gate').notNull().default(false),
    sourceIdentifier: text('source_identifier'),
    sourceSystem: text('source_system'),
    sourceTable: text('source_table'),
    sourceRecordId: text('source_record_id'),
    sourceActivityRef: text('source_activity_ref'),
    latestVersionId: uuid('latest_version_id'),
    latestVersionNumber: integer('latest_version_number').notNull().default(0),
    /** Advances on every metadata change; the ETag is derived from it. */
    rowVersion: integer('row_version').notNull().default(1),
    createdBy: text('created_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'string' }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'string' }).notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.tenantId, table.contentId] }),
    index('items_tenant_kind_idx').on(table.tenantId, table.contentKind),
    index('items_tenant_updated_idx').on(table.tenantId, table.updatedAt, table.contentId),
  ],
);

/** Append-only: a database trigger refuses UPDATE and DELETE (see the migration). */
export const versions = contentSchema.table(
  'versions',
  {
    tenantId: text('tenant_id').notNull(),
    versionId: uuid('version_id').notNull(),
    contentId: uuid('content_id').notNull(),
    versionNumber: integer('version_number').notNull(),
    studentView: jsonb('student_view').notNull(),
    canonicalXml: text('canonical_xml'),
    supersedesVersionId: uuid('supersedes_version_id'),
    contentHash: text('content_hash').notNull(),
    createdBy: text('created_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'string' }).notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.tenantId, table.versionId] }),
    uniqueIndex('versions_item_number_idx').on(table.tenantId, table.contentId, table.versionNumber),
  ],
);

/** Publication of one exact test_spec or test_bank version (other kinds follow the item status). */
export const versionPublications = contentSchema.table(
  'version_publications',
  {
    tenantId: text('tenant_id').notNull(),
    versionId: uuid('version_id').notNull(),
    contentId: uuid('content_id').notNull(),
    publishedBy: text('published_by').notNull(),
    publishedAt: timestamp('published_at', { withTimezone: true, mode: 'string' }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.tenantId, table.versionId] })],
);

/** Append-only trust evidence of exact versions; the newest row of a version is its trust. */
export const trustEvidence = contentSchema.table(
  'trust_evidence',
  {
    tenantId: text('tenant_id').notNull(),
    evidenceSeq: bigserial('evidence_seq', { mode: 'number' }).notNull(),
    evidenceId: uuid('evidence_id').notNull(),
    contentId: uuid('content_id').notNull(),
    versionId: uuid('version_id').notNull(),
    trustStatus: text('trust_status').notNull(),
    /** How the trust was set: import or qc_decision. Never by the author. */
    source: text('source').notNull(),
    decidedBy: text('decided_by').notNull(),
    reason: text('reason'),
    recordedAt: timestamp('recorded_at', { withTimezone: true, mode: 'string' }).notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.tenantId, table.evidenceSeq] }),
    index('trust_version_idx').on(table.tenantId, table.versionId, table.evidenceSeq),
  ],
);

export const contentIdempotency = idempotencyTable(contentSchema);
