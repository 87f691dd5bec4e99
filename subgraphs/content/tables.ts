import {
  bigserial,
  boolean,
  customType,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgSchema,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { creation, instant, tenantTables } from '../../platform/columns.ts';
import { idempotencyTable } from '../../platform/idempotency.ts';

/**
 * The content service's own schema. Every table's key starts with tenant_id and no other service
 * reads these tables: they are reached only through content's published API.
 */
export const contentSchema = pgSchema('content');
const contentTable = tenantTables(contentSchema);

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => Buffer.from(value),
});

export const items = contentTable(
  'items',
  ['contentId'],
  {
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
    /** test_bank only: how forms are drawn from the bank. */
    membershipRule: text('membership_rule'),
    latestVersionId: uuid('latest_version_id'),
    latestVersionNumber: integer('latest_version_number').notNull().default(0),
    /** Advances on every metadata change; the ETag is derived from it. */
    rowVersion: integer('row_version').notNull().default(1),
    ...creation(),
    updatedAt: instant('updated_at').notNull(),
  },
  (table) => [
    index('items_tenant_kind_idx').on(table.tenantId, table.contentKind),
    index('items_tenant_updated_idx').on(table.tenantId, table.updatedAt, table.contentId),
  ],
);

/** Append-only: a database trigger refuses UPDATE and DELETE (see the migration). */
export const versions = contentTable(
  'versions',
  ['versionId'],
  {
    versionId: uuid('version_id').notNull(),
    contentId: uuid('content_id').notNull(),
    versionNumber: integer('version_number').notNull(),
    studentView: jsonb('student_view').notNull(),
    canonicalXml: text('canonical_xml'),
    supersedesVersionId: uuid('supersedes_version_id'),
    contentHash: text('content_hash').notNull(),
    ...creation(),
  },
  (table) => [uniqueIndex('versions_item_number_idx').on(table.tenantId, table.contentId, table.versionNumber)],
);

/** Publication of one exact test_spec or test_bank version (other kinds follow the item status). */
export const versionPublications = contentTable('version_publications', ['versionId'], {
  versionId: uuid('version_id').notNull(),
  contentId: uuid('content_id').notNull(),
  publishedBy: text('published_by').notNull(),
  publishedAt: instant('published_at').notNull(),
});

/** Append-only trust evidence of exact versions; the newest row of a version is its trust. */
export const trustEvidence = contentTable(
  'trust_evidence',
  ['evidenceSeq'],
  {
    evidenceSeq: bigserial('evidence_seq', { mode: 'number' }).notNull(),
    evidenceId: uuid('evidence_id').notNull(),
    contentId: uuid('content_id').notNull(),
    versionId: uuid('version_id').notNull(),
    trustStatus: text('trust_status').notNull(),
    /** How the trust was set: import or qc_decision. Never by the author. */
    source: text('source').notNull(),
    decidedBy: text('decided_by').notNull(),
    reason: text('reason'),
    recordedAt: instant('recorded_at').notNull(),
  },
  (table) => [index('trust_version_idx').on(table.tenantId, table.versionId, table.evidenceSeq)],
);

export const contentIdempotency = idempotencyTable(contentSchema);

/** The test_spec sidecar: the seven blueprint fields, written once with the item. */
export const testSpecBlueprints = contentTable('test_spec_blueprints', ['contentId'], {
  contentId: uuid('content_id').notNull(),
  kcCoverage: jsonb('kc_coverage').notNull(),
  itemTypeMix: jsonb('item_type_mix').notNull(),
  difficultyConstraints: jsonb('difficulty_constraints').notNull(),
  passingRule: jsonb('passing_rule').notNull(),
  minForms: integer('min_forms').notNull(),
  maxItemOverlap: doublePrecision('max_item_overlap').notNull(),
  enemyItemRule: jsonb('enemy_item_rule').notNull(),
  createdAt: instant('created_at').notNull(),
});

/**
 * Projections of a question version's canonical_xml, written in the same transaction as the
 * version and never changed afterwards (a new canonical_xml is a new version).
 */
export const answerSlots = contentTable('answer_slots', ['versionId', 'responseIdentifier'], {
  versionId: uuid('version_id').notNull(),
  responseIdentifier: text('response_identifier').notNull(),
  contentId: uuid('content_id').notNull(),
  ordinal: integer('ordinal').notNull(),
  interactionType: text('interaction_type').notNull(),
  qtiCardinality: text('qti_cardinality').notNull(),
  qtiBaseType: text('qti_base_type'),
  choices: jsonb('choices').notNull(),
  correctValues: jsonb('correct_values'),
});

export const assessmentComponents = contentTable(
  'assessment_components',
  ['componentId'],
  {
    versionId: uuid('version_id').notNull(),
    componentId: uuid('component_id').notNull(),
    contentId: uuid('content_id').notNull(),
    ordinal: integer('ordinal').notNull(),
    componentRole: text('component_role').notNull(),
    identifier: text('identifier').notNull(),
    parentIdentifier: text('parent_identifier'),
    text: text('text'),
    /** A rubric's QTI view list; null on other roles, and on rubrics projected before it was kept (answer-key material). */
    view: text('view'),
  },
  (table) => [index('assessment_components_version_idx').on(table.tenantId, table.versionId, table.ordinal)],
);

export const scoringPlans = contentTable('scoring_plans', ['versionId', 'ordinal'], {
  versionId: uuid('version_id').notNull(),
  ordinal: integer('ordinal').notNull(),
  contentId: uuid('content_id').notNull(),
  scoringRuleScope: text('scoring_rule_scope').notNull(),
  identifier: text('identifier').notNull(),
  qtiCardinality: text('qti_cardinality'),
  qtiBaseType: text('qti_base_type'),
  template: text('template'),
});

/** Tenant catalog facet definitions (one per key of the twelve). */
export const catalogFacets = contentTable('catalog_facets', ['facetKey'], {
  facetKey: text('facet_key').notNull(),
  valueType: text('value_type').notNull(),
  grain: text('grain').notNull(),
  status: text('status').notNull(),
  allowedValues: jsonb('allowed_values'),
  createdBy: text('created_by').notNull(),
  createdAt: instant('created_at').notNull(),
});

/** Facet values of items; facet_value is stored as text, typed by the facet's value_type. */
export const facetAssignments = contentTable(
  'facet_assignments',
  ['assignmentId'],
  {
    assignmentId: uuid('assignment_id').notNull(),
    contentId: uuid('content_id').notNull(),
    facetKey: text('facet_key').notNull(),
    facetValue: text('facet_value').notNull(),
    provenance: jsonb('provenance'),
    ...creation(),
  },
  (table) => [
    uniqueIndex('facet_assignments_value_idx').on(table.tenantId, table.contentId, table.facetKey, table.facetValue),
    index('facet_assignments_filter_idx').on(table.tenantId, table.facetKey, table.facetValue),
  ],
);

/** Weighted links to active KCs of the curriculum registry; replaced in place, never to CASE ids. */
export const kcTags = contentTable('kc_tags', ['contentId', 'kcId'], {
  contentId: uuid('content_id').notNull(),
  kcId: text('kc_id').notNull(),
  weight: doublePrecision('weight').notNull(),
  status: text('status').notNull(),
  taggedBy: text('tagged_by').notNull(),
  createdAt: instant('created_at').notNull(),
  updatedAt: instant('updated_at').notNull(),
});

/** Relationships between items; soft-retired, never deleted (the row is the audit). */
export const contentReferences = contentTable(
  'content_references',
  ['referenceId'],
  {
    referenceId: uuid('reference_id').notNull(),
    contentId: uuid('content_id').notNull(),
    relationshipKind: text('relationship_kind').notNull(),
    referencedContentId: uuid('referenced_content_id').notNull(),
    parentVersionId: uuid('parent_version_id'),
    referencedVersionId: uuid('referenced_version_id'),
    ordinal: integer('ordinal'),
    status: text('status').notNull(),
    ...creation(),
    retiredBy: text('retired_by'),
    retiredAt: instant('retired_at'),
  },
  (table) => [index('content_references_parent_idx').on(table.tenantId, table.contentId, table.createdAt)],
);

export const externalLinks = contentTable('external_links', ['contentId'], {
  contentId: uuid('content_id').notNull(),
  url: text('url').notNull(),
  externalOpenPolicy: text('external_open_policy').notNull(),
  provider: text('provider'),
  title: text('title'),
  updatedBy: text('updated_by').notNull(),
  updatedAt: instant('updated_at').notNull(),
});

export const mediaAssets = contentTable(
  'media_assets',
  ['mediaId'],
  {
    mediaId: uuid('media_id').notNull(),
    contentId: uuid('content_id').notNull(),
    mediaKind: text('media_kind').notNull(),
    mimeType: text('mime_type').notNull(),
    fileName: text('file_name'),
    byteSize: integer('byte_size').notNull(),
    sha256: text('sha256').notNull(),
    bytes: bytea('bytes').notNull(),
    ...creation(),
  },
  (table) => [index('media_assets_item_idx').on(table.tenantId, table.contentId, table.createdAt)],
);

/** Frozen archive of legacy content-to-curriculum links: read-only, no write path. */
export const curriculumLinks = contentTable(
  'curriculum_links',
  ['linkId'],
  {
    linkId: uuid('link_id').notNull(),
    contentId: uuid('content_id').notNull(),
    curriculumNodeId: text('curriculum_node_id').notNull(),
    curriculumLinkKind: text('curriculum_link_kind').notNull(),
    archivedAt: instant('archived_at').notNull(),
  },
  (table) => [index('curriculum_links_node_idx').on(table.tenantId, table.curriculumNodeId)],
);

/**
 * Provisioned tenant policy rows (read projection through GET /policies). Provisioning is an
 * operator task outside the documented API; a test_serve_grant row is the server-side grant of
 * rule 8.
 */
export const policies = contentTable(
  'policies',
  ['policyId'],
  {
    policyId: uuid('policy_id').notNull(),
    policyKey: text('policy_key').notNull(),
    status: text('status').notNull(),
    value: jsonb('value').notNull(),
    provisionedBy: text('provisioned_by').notNull(),
    provisionedAt: instant('provisioned_at').notNull(),
  },
  (table) => [index('policies_key_idx').on(table.tenantId, table.policyKey)],
);

/** Immutable receipts of test-serve authorizations. */
export const testServeAuthorizations = contentTable('test_serve_authorizations', ['authorizationId'], {
  authorizationId: uuid('authorization_id').notNull(),
  bankContentId: uuid('bank_content_id').notNull(),
  bankVersionId: uuid('bank_version_id').notNull(),
  formContentId: uuid('form_content_id').notNull(),
  formVersionId: uuid('form_version_id').notNull(),
  testIdentityId: text('test_identity_id').notNull(),
  personReality: text('person_reality').notNull(),
  grantPolicyId: uuid('grant_policy_id').notNull(),
  producerSurface: text('producer_surface'),
  authorizedBy: text('authorized_by').notNull(),
  authorizedAt: instant('authorized_at').notNull(),
});

/** The ordered bindings of an interactive item, replaced as a whole. */
export const interactiveCompositions = contentTable('interactive_compositions', ['contentId'], {
  contentId: uuid('content_id').notNull(),
  composition: jsonb('composition').notNull(),
  revision: integer('revision').notNull(),
  updatedBy: text('updated_by').notNull(),
  updatedAt: instant('updated_at').notNull(),
});
