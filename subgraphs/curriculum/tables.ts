import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgSchema,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { changeTimes, creation, instant, lifecycle, tenantTables } from '../../platform/columns.ts';
import { idempotencyTable } from '../../platform/idempotency.ts';

/**
 * The curriculum service's own schema. Every key starts with tenant_id. Content is never read from
 * here: pins hold exact ids only, and eligibility is asked of content's API each time.
 */
export const curriculumSchema = pgSchema('curriculum');
const curriculumTable = tenantTables(curriculumSchema);

export const components = curriculumTable(
  'components',
  ['componentId'],
  {
    componentId: text('component_id').notNull(),
    kind: text('kind').notNull(),
    documentId: uuid('document_id'),
    parentComponentId: text('parent_component_id'),
    position: integer('position'),
    name: text('name'),
    humanCodingScheme: text('human_coding_scheme'),
    studentId: text('student_id'),
    /** The alpha object as authored (validated on the way in). */
    alpha: jsonb('alpha').notNull(),
    publicationStatus: text('publication_status').notNull(),
    subjectId: text('subject_id'),
    /** The producer's course this component came from (alpha.source_course_ref), for the sourceCourseRef filter. */
    sourceCourseRef: text('source_course_ref'),
    ...lifecycle(),
  },
  (table) => [
    index('components_parent_idx').on(table.tenantId, table.parentComponentId, table.position),
    index('components_kind_idx').on(table.tenantId, table.kind, table.componentId),
    index('components_updated_idx').on(table.tenantId, table.updatedAt, table.componentId),
    index('components_source_course_idx')
      .on(table.tenantId, table.sourceCourseRef)
      .where(sql`source_course_ref is not null`),
    // KC retirement asks which components still reference a KC.
    index('components_scope_kcs_idx').using('gin', sql`(alpha -> 'scope_kc_refs')`),
    index('components_remediation_kcs_idx').using('gin', sql`(alpha -> 'remediation_entries')`),
  ],
);

/** CASE-style associations between components: isChildOf containment and framework alignment. */
export const associations = curriculumTable(
  'associations',
  ['associationId'],
  {
    associationId: uuid('association_id').notNull(),
    associationType: text('association_type').notNull(),
    originId: text('origin_id').notNull(),
    destinationId: text('destination_id').notNull(),
    sequenceNumber: integer('sequence_number'),
    ...lifecycle(),
  },
  (table) => [
    index('associations_origin_idx').on(table.tenantId, table.originId, table.associationType),
    index('associations_destination_idx').on(table.tenantId, table.destinationId, table.associationType),
    // One active parent per child, held by the database as well as by the rule.
    uniqueIndex('associations_one_parent_idx')
      .on(table.tenantId, table.originId)
      .where(sql`association_type = 'isChildOf' and status = 'active'`),
  ],
);

/** The governed KC registry: identity rows (versions are appended in their own table). */
export const knowledgeComponents = curriculumTable(
  'knowledge_components',
  ['kcId'],
  {
    kcId: uuid('kc_id').notNull(),
    storedAs: text('stored_as').notNull(),
    definition: text('definition').notNull(),
    sourceKcId: text('source_kc_id'),
    subjectId: text('subject_id'),
    kcKind: text('kc_kind'),
    alpha: jsonb('alpha').notNull(),
    publicationStatus: text('publication_status').notNull(),
    status: text('status').notNull(),
    currentVersionId: uuid('current_version_id'),
    version: integer('version').notNull(),
    ...changeTimes(),
    retiredAt: instant('retired_at'),
  },
  (table) => [
    // source_kc_id is provenance of one identity only: it can never be reused by another kc_id.
    uniqueIndex('knowledge_components_source_idx')
      .on(table.tenantId, table.sourceKcId)
      .where(sql`source_kc_id is not null`),
    index('knowledge_components_updated_idx').on(table.tenantId, table.updatedAt, table.kcId),
  ],
);

/** Immutable numbered KC versions (the database refuses UPDATE and DELETE). Firmness is derived from firming events. */
export const kcVersions = curriculumTable(
  'kc_versions',
  ['versionId'],
  {
    versionId: uuid('version_id').notNull(),
    kcId: uuid('kc_id').notNull(),
    versionNumber: integer('version_number').notNull(),
    definition: text('definition').notNull(),
    alpha: jsonb('alpha').notNull(),
    ...creation(),
  },
  (table) => [uniqueIndex('kc_versions_number_idx').on(table.tenantId, table.kcId, table.versionNumber)],
);

/** Edges of the one acyclic prerequisite graph: prerequisite_kc_id must be learned before dependent_kc_id. */
export const kcPrerequisites = curriculumTable(
  'kc_prerequisites',
  ['prerequisiteId'],
  {
    prerequisiteId: uuid('prerequisite_id').notNull(),
    prerequisiteKcId: uuid('prerequisite_kc_id').notNull(),
    dependentKcId: uuid('dependent_kc_id').notNull(),
    status: text('status').notNull(),
    ...creation(),
    updatedAt: instant('updated_at').notNull(),
  },
  (table) => [
    uniqueIndex('kc_prerequisites_pair_idx').on(table.tenantId, table.prerequisiteKcId, table.dependentKcId),
    index('kc_prerequisites_dependent_idx').on(table.tenantId, table.dependentKcId),
  ],
);

/**
 * Typed KC relations other than prerequisites, a store of their own: they never enter the acyclic
 * prerequisite graph. Symmetric types are stored once, whichever direction was sent first.
 */
export const kcRelations = curriculumTable(
  'kc_relations',
  ['relationId'],
  {
    relationId: uuid('relation_id').notNull(),
    relationType: text('relation_type').notNull(),
    fromKcId: uuid('from_kc_id').notNull(),
    toKcId: uuid('to_kc_id').notNull(),
    status: text('status').notNull(),
    ...creation(),
    updatedAt: instant('updated_at').notNull(),
  },
  (table) => [
    uniqueIndex('kc_relations_triple_idx').on(table.tenantId, table.fromKcId, table.toKcId, table.relationType),
    index('kc_relations_to_idx').on(table.tenantId, table.toKcId),
  ],
);

/** Immutable review decisions on exact KC versions. */
export const kcReviewDecisions = curriculumTable(
  'kc_review_decisions',
  ['decisionId'],
  {
    decisionId: uuid('decision_id').notNull(),
    kcId: uuid('kc_id').notNull(),
    kcVersionId: uuid('kc_version_id').notNull(),
    decision: text('decision').notNull(),
    reason: text('reason'),
    reviewerRef: text('reviewer_ref').notNull(),
    createdAt: instant('created_at').notNull(),
  },
  (table) => [index('kc_review_decisions_version_idx').on(table.tenantId, table.kcVersionId)],
);

/** Immutable evidence that firms an exact draft KC version; at most one per version. */
export const kcFirmingEvents = curriculumTable(
  'kc_firming_events',
  ['firmingEventId'],
  {
    firmingEventId: uuid('firming_event_id').notNull(),
    kcId: uuid('kc_id').notNull(),
    kcVersionId: uuid('kc_version_id').notNull(),
    source: text('source').notNull(),
    evidence: jsonb('evidence').notNull(),
    recordedBy: text('recorded_by').notNull(),
    createdAt: instant('created_at').notNull(),
  },
  (table) => [uniqueIndex('kc_firming_events_version_idx').on(table.tenantId, table.kcVersionId)],
);

/**
 * Imported standards frameworks (CASE CFDocuments), one row per CFDocument identifier; each import
 * of a new checksum appends a frozen release and advances current_release_id.
 */
export const standardsFrameworks = curriculumTable(
  'standards_frameworks',
  ['standardsFrameworkId'],
  {
    standardsFrameworkId: uuid('standards_framework_id').notNull(),
    frameworkIdentifier: text('framework_identifier').notNull(),
    title: text('title').notNull(),
    creator: text('creator'),
    /** CFDocument.subject values and CFSubject identifiers of the current release, for the subjectId filter. */
    subjectIds: jsonb('subject_ids').notNull(),
    language: text('language'),
    frameworkVersion: text('framework_version'),
    caseVersion: text('case_version'),
    currentReleaseId: uuid('current_release_id').notNull(),
    currentChecksum: text('current_checksum').notNull(),
    ...changeTimes(),
  },
  (table) => [
    uniqueIndex('standards_frameworks_identifier_idx').on(table.tenantId, table.frameworkIdentifier),
    index('standards_frameworks_updated_idx').on(table.tenantId, table.updatedAt, table.standardsFrameworkId),
  ],
);

/** Frozen standards releases, addressed by the SHA-256 of their canonical package (the database refuses UPDATE and DELETE). */
export const standardsReleases = curriculumTable(
  'standards_releases',
  ['releaseId'],
  {
    releaseId: uuid('release_id').notNull(),
    standardsFrameworkId: uuid('standards_framework_id').notNull(),
    checksumSha256: text('checksum_sha256').notNull(),
    package: jsonb('package').notNull(),
    itemCount: integer('item_count').notNull(),
    associationCount: integer('association_count').notNull(),
    mapCount: integer('map_count').notNull(),
    importedBy: text('imported_by').notNull(),
    createdAt: instant('created_at').notNull(),
  },
  (table) => [uniqueIndex('standards_releases_checksum_idx').on(table.tenantId, table.checksumSha256)],
);

/**
 * Standard-to-KC maps, pinned to the release they came with; not associations. A newer release of
 * the framework retires them. match_type is a legacy column that no response carries.
 */
export const standardKcMaps = curriculumTable(
  'standard_kc_maps',
  ['mapId'],
  {
    mapId: uuid('map_id').notNull(),
    sourceReleaseId: uuid('source_release_id').notNull(),
    standardsFrameworkId: uuid('standards_framework_id').notNull(),
    standardId: text('standard_id').notNull(),
    kcId: uuid('kc_id').notNull(),
    relationship: text('relationship').notNull(),
    matchType: text('match_type'),
    ...changeTimes(),
    retiredAt: instant('retired_at'),
  },
  (table) => [
    uniqueIndex('standard_kc_maps_pair_idx').on(table.tenantId, table.sourceReleaseId, table.standardId, table.kcId),
    index('standard_kc_maps_kc_idx')
      .on(table.tenantId, table.kcId)
      .where(sql`retired_at is null`),
  ],
);

/** One immutable audit row per accepted pin operation (create, attach, repoint). */
export const pinAudit = curriculumTable('pin_audit', ['auditSeq'], {
  auditSeq: bigserial('audit_seq', { mode: 'number' }).notNull(),
  componentId: text('component_id').notNull(),
  operation: text('operation').notNull(),
  previousTargetRef: jsonb('previous_target_ref'),
  targetRef: jsonb('target_ref').notNull(),
  actor: text('actor').notNull(),
  recordedAt: instant('recorded_at').notNull(),
});

/**
 * Vendor course ingest runs (rule 14), one per source_system and producer_batch_id: the request's
 * digest, so a same-run retry is recognized, and the per-row outcome a producer reads back.
 */
export const sourceIngestJobs = curriculumTable(
  'source_ingest_jobs',
  ['jobId'],
  {
    jobId: uuid('job_id').notNull(),
    sourceSystem: text('source_system').notNull(),
    producerBatchId: text('producer_batch_id').notNull(),
    requestSha256: text('request_sha256').notNull(),
    status: text('status').notNull(),
    courses: jsonb('courses').notNull(),
    rows: jsonb('rows').notNull(),
    ...creation(),
  },
  (table) => [uniqueIndex('source_ingest_jobs_run_idx').on(table.tenantId, table.sourceSystem, table.producerBatchId)],
);

export const curriculumIdempotency = idempotencyTable(curriculumSchema);

/**
 * Course approvals, appended per course (sequence 1, 2, ...), with the SHA-256 of the canonical
 * course graph and KC-version set they approved and that graph itself. Immutable (the database
 * refuses UPDATE and DELETE); routing compares the current digests with the latest one.
 */
export const courseApprovals = curriculumTable(
  'course_approvals',
  ['approvalId'],
  {
    approvalId: uuid('approval_id').notNull(),
    courseId: text('course_id').notNull(),
    sequence: integer('sequence').notNull(),
    approvedBy: text('approved_by').notNull(),
    provenance: jsonb('provenance').notNull(),
    courseGraphSha256: text('course_graph_sha256').notNull(),
    kcSnapshotSha256: text('kc_snapshot_sha256').notNull(),
    expectedCourseGraphSha256: text('expected_course_graph_sha256'),
    expectedKcSnapshotSha256: text('expected_kc_snapshot_sha256'),
    courseGraph: jsonb('course_graph').notNull(),
    /** The course's graph revision the approved graph was read at (null on approvals recorded before revisions). */
    graphRevision: bigint('graph_revision', { mode: 'number' }),
    /** The first routable node of the approved graph, where routing starts while the revision holds. */
    routeComponentId: text('route_component_id'),
    recordedBy: text('recorded_by').notNull(),
    createdAt: instant('created_at').notNull(),
  },
  (table) => [uniqueIndex('course_approvals_sequence_idx').on(table.tenantId, table.courseId, table.sequence)],
);

/**
 * One revision per course root, advanced by a trigger on components in the writing transaction
 * whenever a field of the canonical course graph changes anywhere in the course (drizzle migration
 * 0012): routing compares it with the approval's instead of re-digesting the whole course.
 */
export const courseGraphRevisions = curriculumTable('course_graph_revisions', ['courseId'], {
  courseId: text('course_id').notNull(),
  revision: bigint('revision', { mode: 'number' }).notNull(),
});

/** The complete exact KC-version snapshot of an approval, one row per KC; immutable like the approval. */
export const courseApprovalKcVersions = curriculumTable('course_approval_kc_versions', ['approvalId', 'kcId'], {
  approvalId: uuid('approval_id').notNull(),
  kcId: uuid('kc_id').notNull(),
  kcVersionId: uuid('kc_version_id').notNull(),
  versionNumber: integer('version_number').notNull(),
  firmingEventId: uuid('firming_event_id').notNull(),
  /** True when this approval's transaction firmed the version; false when it was firm already. */
  firmedByApproval: boolean('firmed_by_approval').notNull(),
});
