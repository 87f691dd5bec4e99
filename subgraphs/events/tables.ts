import {
  bigint,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgSchema,
  type PgColumn,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { sql, type SQL } from 'drizzle-orm';
import { creation, instant, tenantTables } from '../../platform/columns.ts';
import { idempotencyTable } from '../../platform/idempotency.ts';
import { PLAYER_EXTENSION_NAMESPACE } from './vocabulary.ts';

/** The events service's own schema; every key starts with tenant_id. */
export const eventsSchema = pgSchema('events');
const eventsTable = tenantTables(eventsSchema);

/** Registry of activity sources; the natural key is tenant plus sourceIri. */
export const activitySources = eventsTable(
  'activity_sources',
  ['sourceId'],
  {
    sourceId: uuid('source_id').notNull(),
    sourceIri: text('source_iri').notNull(),
    name: text('name').notNull(),
    status: text('status').notNull(),
    ...creation(),
  },
  (table) => [
    uniqueIndex('activity_sources_iri_idx').on(table.tenantId, table.sourceIri),
    index('activity_sources_created_idx').on(table.tenantId, table.createdAt, table.sourceId),
  ],
);

export const eventsIdempotency = idempotencyTable(eventsSchema);

/**
 * Each tenant's last commit sequence number and recordedAt. A batch advances it in the statement
 * that inserts the events; the row lock then holds the next writer of the tenant until this batch
 * commits, and only for that one statement plus the commit.
 */
export const commitHeads = eventsSchema.table('commit_heads', {
  tenantId: text('tenant_id').primaryKey(),
  seq: bigint('seq', { mode: 'number' }).notNull(),
  recordedAt: instant('recorded_at').notNull(),
});

/**
 * The curriculum component a player event is about (its component_id extension). The key is written
 * as a literal: the planner matches an index expression only to the same expression, never to one
 * with a parameter in it.
 */
export const componentIdOf = (extensions: PgColumn): SQL =>
  sql`(${extensions} ->> ${sql.raw(`'${PLAYER_EXTENSION_NAMESPACE}/component_id'`)})`;

/**
 * Immutable learning events. `seq` is the tenant's commit sequence, taken from the tenant's
 * commit head (whose row lock is held until commit), so seq order is commit order and `recordedAt`
 * never goes back: a modifiedSince poller that keeps its high-watermark cannot miss a committed event.
 */
export const learningEvents = eventsTable(
  'learning_events',
  ['eventId'],
  {
    eventId: uuid('event_id').notNull(),
    seq: bigint('seq', { mode: 'number' }).notNull(),
    recordedAt: instant('recorded_at').notNull(),
    kind: text('kind').notNull(),
    studentId: text('student_id'),
    contentId: text('content_id'),
    orgId: text('org_id'),
    activitySourceId: uuid('activity_source_id').notNull(),
    happenedAt: instant('happened_at').notNull(),
    sourceEventId: text('source_event_id'),
    eventType: text('event_type').notNull(),
    profile: text('profile').notNull(),
    action: text('action').notNull(),
    actorRef: jsonb('actor_ref').notNull(),
    objectRef: jsonb('object_ref').notNull(),
    extensions: jsonb('extensions').notNull(),
    /**
     * What the producer sent, kept as evidence; never part of a response. Null when the row's own columns restate
     * all of it (`restatesRow` in learning/events.service.ts says exactly when): the evidence is then the row.
     */
    rawPayload: jsonb('raw_payload'),
    importId: uuid('import_id'),
  },
  (table) => [
    uniqueIndex('learning_events_seq_idx').on(table.tenantId, table.seq),
    index('learning_events_student_idx').on(table.tenantId, table.studentId, table.seq),
    index('learning_events_content_idx').on(table.tenantId, table.contentId, table.seq),
    // A gate reads one student's events on one component: without this, a walk of the student's whole
    // history. Partial, so an event about no component costs no insertion.
    index('learning_events_component_idx')
      .on(table.tenantId, componentIdOf(table.extensions), table.studentId, table.seq)
      .where(sql`${componentIdOf(table.extensions)} is not null`),
  ],
);

/** School-records attendance moments, descriptor fields resolved at import. */
export const attendanceEvents = eventsTable(
  'attendance_events',
  ['attendanceEventId'],
  {
    attendanceEventId: uuid('attendance_event_id').notNull(),
    studentId: text('student_id').notNull(),
    schoolId: text('school_id').notNull(),
    classId: text('class_id'),
    eventDate: date('event_date', { mode: 'string' }).notNull(),
    category: text('category').notNull(),
    categoryDescriptor: text('category_descriptor').notNull(),
    durationDays: doublePrecision('duration_days'),
    sessionName: text('session_name'),
    schoolYear: text('school_year'),
    sourceSystem: text('source_system').notNull(),
    sourceRecordId: text('source_record_id'),
    importId: uuid('import_id').notNull(),
    /** The producer's row, including the free-text reason; never part of a response. */
    rawPayload: jsonb('raw_payload').notNull(),
    recordedAt: instant('recorded_at').notNull(),
  },
  (table) => [
    index('attendance_events_date_idx').on(table.tenantId, table.eventDate, table.attendanceEventId),
    index('attendance_events_student_idx').on(table.tenantId, table.studentId, table.eventDate),
  ],
);

/** School-records discipline moments; narratives and reporter names stay in the raw payload. */
export const disciplineEvents = eventsTable(
  'discipline_events',
  ['disciplineEventId'],
  {
    disciplineEventId: uuid('discipline_event_id').notNull(),
    incidentId: text('incident_id').notNull(),
    studentId: text('student_id').notNull(),
    schoolId: text('school_id').notNull(),
    eventDate: date('event_date', { mode: 'string' }).notNull(),
    incidentTime: text('incident_time'),
    behavior: text('behavior').notNull(),
    behaviorDescriptor: text('behavior_descriptor').notNull(),
    participationCode: text('participation_code'),
    participationCodeDescriptor: text('participation_code_descriptor'),
    location: text('location'),
    locationDescriptor: text('location_descriptor'),
    disciplineAction: text('discipline_action'),
    disciplineActionDescriptor: text('discipline_action_descriptor'),
    reporterDescription: text('reporter_description'),
    reporterDescriptionDescriptor: text('reporter_description_descriptor'),
    sourceSystem: text('source_system').notNull(),
    sourceRecordId: text('source_record_id'),
    importId: uuid('import_id').notNull(),
    rawPayload: jsonb('raw_payload').notNull(),
    recordedAt: instant('recorded_at').notNull(),
  },
  (table) => [
    index('discipline_events_date_idx').on(table.tenantId, table.eventDate, table.disciplineEventId),
    index('discipline_events_student_idx').on(table.tenantId, table.studentId, table.eventDate),
  ],
);

/** One row per materialized source import. */
export const sourceImports = eventsTable('source_imports', ['importId'], {
  importId: uuid('import_id').notNull(),
  label: text('label'),
  sourceSystem: text('source_system').notNull(),
  adapter: text('adapter').notNull(),
  status: text('status').notNull(),
  acceptedCount: integer('accepted_count').notNull(),
  materializedCount: integer('materialized_count').notNull(),
  createdBy: text('created_by').notNull(),
  createdAt: instant('created_at').notNull(),
});
