import { and, asc, eq, getTableColumns, gt, gte, inArray, lte, sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import { requireAccess } from '../../../platform/auth.ts';
import type { RequestContext } from '../../../platform/context.ts';
import { keysetPage, uniqueOrder } from '../../../platform/keyset.ts';
import { prepareOncePerDatabase, rowsOf, type Database } from '../../../platform/db.ts';
import { DomainError, type FieldError } from '../../../platform/errors.ts';
import type { CommandResult } from '../../../platform/idempotency.ts';
import { runCommand } from '../../../platform/commands.ts';
import { groupCommit } from '../../../platform/group-commit.ts';
import { timeOrderedUuid } from '../../../platform/time-ordered-uuid.ts';
import {
  isTimestamp,
  isoTimestamp,
  nullMeansAbsent,
  parseInput,
  isUuid,
  listQueryMembers,
} from '../../../platform/validation.ts';
import {
  ACCESS,
  boundaryConditions,
  boundaryOf,
  boundedValues,
  outsideBoundary,
  requireWithinBoundary,
  type BoundaryScope,
  type BoundedValues,
} from '../access.ts';
import { caliperEventOf, deriveCaliper, requireNoErrors, type DerivedCaliper, type EntityRef } from '../caliper.ts';
import { UNPROCESSABLE } from '../errors.ts';
import { withStudentNames } from '../people.ts';
import { activitySources, commitHeads, componentIdOf, learningEvents } from '../tables.ts';
import { findSourceRows } from '../queries.ts';
import {
  GRADING_EXTENSION_NAMESPACE,
  GRADING_EXTENSION_VALUES,
  KIND_CATALOGUE,
  PLAYER_EXTENSION_KEYS,
  PLAYER_EXTENSION_NAMESPACE,
} from '../vocabulary.ts';
import type { EventsDeps } from '../deps.ts';
import type { CommandInput, ListInput } from '../inputs.ts';

/**
 * Immutable learning events. Invariants: ids are server-issued; a stored event never changes; the
 * tenant's commit sequence (seq) and recordedAt only grow in commit order, so the modifiedSince
 * feed with seq cursors never skips a committed event; raw payloads never leave the service.
 */

const MAX_BATCH = 1000;

const EntityRefInput = z.looseObject({ id: z.string().min(1).max(2000), type: z.string().min(1).max(200) });
const boundedId = z.string().trim().min(1).max(200);

const CATALOGUE_KINDS = Object.keys(KIND_CATALOGUE).join(', ');
// The registries' own values, so the served description can only say what the checks accept.
const EXTENSIONS_DESCRIPTION =
  `Governed keys only: ${PLAYER_EXTENSION_NAMESPACE}/<key>, <key> one of ${PLAYER_EXTENSION_KEYS.join(', ')}; ` +
  `on an assessment_graded event also ${Object.entries(GRADING_EXTENSION_VALUES)
    .map(([key, values]) => `${GRADING_EXTENSION_NAMESPACE}/${key} (${values.join(' | ')})`)
    .join(' and ')}`;

export const EventInput = nullMeansAbsent(
  z
    .object({
      kind: z.string().min(1).max(100).describe(`School-language kind from the catalogue: ${CATALOGUE_KINDS}`),
      studentId: boundedId.optional().describe('Identity boundary value; the people service personId'),
      contentId: boundedId.optional().describe('The id the content and results services use'),
      orgId: boundedId.optional().describe('Organization (school) of the event; bounded by orgIds/schoolIds'),
      activitySourceId: z.string().min(1).describe('Id from activity-source registration or the demo mint'),
      happenedAt: z.string().min(1).optional().describe('ISO 8601 timestamp with offset (or send occurredAt)'),
      occurredAt: z.string().min(1).optional().describe('Alias of happenedAt'),
      sourceEventId: z
        .string()
        .min(1)
        .max(500)
        .optional()
        .describe("The producer's own id (compatibility; never deduplicated)"),
      eventType: z.string().min(1).optional().describe('Caliper 1.2 event type; derived from kind when omitted'),
      profile: z.string().min(1).optional().describe('Caliper 1.2 profile; derived from kind when omitted'),
      action: z.string().min(1).optional().describe('Caliper 1.2 action; derived from kind when omitted'),
      actorRef: EntityRefInput.optional().describe('Caliper actor {id, type}; derived from studentId when omitted'),
      objectRef: EntityRefInput.optional().describe('Caliper object {id, type}; derived from contentId when omitted'),
      extensions: z.record(z.string(), z.unknown()).optional().describe(EXTENSIONS_DESCRIPTION),
    })
    .strict(),
);

export const RecordEventsInput = z.object({ events: z.array(EventInput).min(1).max(MAX_BATCH) }).strict();

/** An event ready to store: checked, derived, with its id. */
export interface PreparedEvent {
  eventId: string;
  kind: string;
  studentId: string | null;
  contentId: string | null;
  orgId: string | null;
  activitySourceId: string;
  happenedAt: string;
  sourceEventId: string | null;
  derived: DerivedCaliper;
  extensions: Record<string, unknown>;
  /** What the producer sent, or null when the row's own fields restate all of it (`restatesRow`). */
  rawPayload: unknown;
}

/** The stored fields an event as sent may consist of, each sent exactly as it is stored. */
const RESTATED_FIELDS = [
  'kind',
  'studentId',
  'contentId',
  'orgId',
  'activitySourceId',
  'happenedAt',
  'sourceEventId',
] as const;

/**
 * Whether an event as sent says nothing that its row does not store as it was sent: only fields of
 * RESTATED_FIELDS, each with its stored value (no alias, no other case, no other form of the instant, no null),
 * and `extensions` only with members, the stored ones. The row is then the evidence, and the payload is not stored
 * again: it is the row's non-null RESTATED_FIELDS, with its extensions when it has any.
 */
function restatesRow(raw: unknown, event: PreparedEvent): boolean {
  if (typeof raw !== 'object' || raw === null) return false;
  const sent = raw as Record<string, unknown>;
  let members = 0;
  for (const field of RESTATED_FIELDS) {
    const stored = event[field];
    if (stored === null) continue;
    if (sent[field] !== stored) return false;
    members += 1;
  }
  if (sent.extensions !== undefined) {
    const keys = Object.keys(event.extensions);
    const extensions = sent.extensions as Record<string, unknown>;
    if (keys.length === 0 || Object.keys(extensions).length !== keys.length) return false;
    if (keys.some((key) => extensions[key] !== event.extensions[key])) return false;
    members += 1;
  }
  return Object.keys(sent).length === members;
}

/** Two timestamps name one instant however their offsets write it (an invalid one is judged where it is read). */
const sameInstant = (first: string, second: string) =>
  first === second || (isTimestamp(first) && isTimestamp(second) && Date.parse(first) === Date.parse(second));

/** What a producer may say about one event, checked against the boundary and the vocabularies. */
export function prepareEvent(
  scope: BoundaryScope,
  input: z.infer<typeof EventInput>,
  field: string,
  raw: unknown,
): { value?: PreparedEvent; errors: FieldError[] } {
  requireWithinBoundary(
    scope,
    {
      studentIds: { field: `${field}.studentId`, value: input.studentId },
      orgIds: { field: `${field}.orgId`, value: input.orgId },
      contentIds: { field: `${field}.contentId`, value: input.contentId },
    },
    'record events for',
  );
  const errors: FieldError[] = [];
  const happenedAt = input.happenedAt ?? input.occurredAt;
  if (
    input.happenedAt !== undefined &&
    input.occurredAt !== undefined &&
    !sameInstant(input.happenedAt, input.occurredAt)
  ) {
    errors.push({ field: `${field}.occurredAt`, message: 'send happenedAt or occurredAt, not two different times' });
  }
  if (happenedAt === undefined)
    errors.push({ field: `${field}.happenedAt`, message: 'required (happenedAt or occurredAt)' });
  else if (!isTimestamp(happenedAt))
    errors.push({ field: `${field}.happenedAt`, message: 'not an ISO 8601 timestamp with offset' });
  if (!isUuid(input.activitySourceId)) {
    errors.push({ field: `${field}.activitySourceId`, message: 'not an activity source id' });
  }
  const derived = deriveCaliper(input, field);
  errors.push(...derived.errors);
  if (errors.length > 0 || !derived.value || happenedAt === undefined) return { errors };
  const value: PreparedEvent = {
    eventId: timeOrderedUuid(),
    kind: input.kind,
    studentId: input.studentId ?? null,
    contentId: input.contentId ?? null,
    orgId: input.orgId ?? null,
    activitySourceId: input.activitySourceId.toLowerCase(),
    happenedAt: isoTimestamp(happenedAt),
    sourceEventId: input.sourceEventId ?? null,
    derived: derived.value,
    extensions: input.extensions ?? {},
    rawPayload: raw,
  };
  if (restatesRow(raw, value)) value.rawPayload = null;
  return { errors, value };
}

type EventTableRow = typeof learningEvents.$inferSelect;
/** Every column an event is presented from: the producer's raw payload is evidence, never read back. */
const { rawPayload: _evidence, ...presentedColumns } = getTableColumns(learningEvents);
type EventRow = Omit<EventTableRow, 'rawPayload'>;

/**
 * An event as its readers see it. No object here is a spread with members added: V8 gives each such
 * copy a map of its own (3 us per event row in Node 20, against 0.1 for a literal).
 */
export function presentEvent(row: Omit<EventRow, 'seq' | 'recordedAt'>, recordedAt: string, edApp: string | null) {
  const happenedAt = isoTimestamp(row.happenedAt);
  const extensions = row.extensions as Record<string, unknown>;
  const actorRef = row.actorRef as EntityRef;
  const objectRef = row.objectRef as EntityRef;
  return {
    id: row.eventId,
    kind: row.kind,
    studentId: row.studentId,
    contentId: row.contentId,
    orgId: row.orgId,
    activitySourceId: row.activitySourceId,
    happenedAt,
    occurredAt: happenedAt,
    sourceEventId: row.sourceEventId,
    eventType: row.eventType,
    profile: row.profile,
    action: row.action,
    actorRef,
    objectRef,
    extensions,
    modifiedAt: isoTimestamp(recordedAt),
    caliperEvent: caliperEventOf({
      id: row.eventId,
      eventType: row.eventType,
      profile: row.profile,
      action: row.action,
      actorRef,
      objectRef,
      happenedAt,
      edApp,
      extensions,
    }),
  };
}
export type EventProjection = ReturnType<typeof presentEvent>;

/** The tenant's activity sources among `ids`, by id, with their IRIs (a Caliper event's edApp). */
async function sourceIris(db: Database, tenantId: string, ids: string[]): Promise<Map<string, string>> {
  const rows = await findSourceRows(db, tenantId, ids);
  return new Map(rows.map((row) => [row.sourceId, row.sourceIri]));
}

/**
 * Stores prepared events, all of them or none, in one statement whose text is the same for any batch
 * (the rows travel as one JSON parameter, so the statement is prepared once): it checks that every
 * event names an activity source of the tenant, advances the tenant's commit head by the batch's
 * size and inserts the rows. The head's row lock is held to commit, so the next writer of the tenant
 * takes its seq and recordedAt only after this batch is visible. Outside a transaction the statement
 * commits itself, so the lock is held for its execution and commit only, never across a round trip.
 */
export async function insertEvents(
  db: Database,
  ctx: RequestContext,
  {
    events,
    ...options
  }: {
    events: PreparedEvent[];
    importId?: string;
    fieldOf?: (index: number) => string;
    /** `db` is no transaction: the batch may share its statement with the tenant's other keyless batches. */
    selfCommitting?: boolean;
  },
): Promise<EventProjection[]> {
  const rows = events.map((event) => ({
    tenantId: ctx.tenantId,
    eventId: event.eventId,
    kind: event.kind,
    studentId: event.studentId,
    contentId: event.contentId,
    orgId: event.orgId,
    activitySourceId: event.activitySourceId,
    happenedAt: event.happenedAt,
    sourceEventId: event.sourceEventId,
    eventType: event.derived.eventType,
    profile: event.derived.profile,
    action: event.derived.action,
    actorRef: event.derived.actorRef,
    objectRef: event.derived.objectRef,
    extensions: event.extensions,
    rawPayload: event.rawPayload,
    importId: options.importId ?? null,
  }));
  const stored = options.selfCommitting
    ? await storeTogether(db, ctx.tenantId, rows)
    : await storeBatches(db, ctx.tenantId, [rows], options.importId ?? null);
  if (!rows.every((row) => stored.has(row.eventId))) {
    await refuseUnknownSources(db, ctx.tenantId, events, options.fieldOf);
    throw new Error(`events batch of ${rows.length} stored ${stored.size} rows with every source known`);
  }
  return rows.map((row) => {
    const { recordedAt, sourceIri } = stored.get(row.eventId) as StoredEvent;
    return presentEvent(row, recordedAt, sourceIri);
  });
}

interface StoredEvent {
  recordedAt: string;
  sourceIri: string;
}

type BatchRow = Omit<EventTableRow, 'seq' | 'recordedAt'>;

/**
 * Group commit for keyless batches (`platform/group-commit.ts`): the commit head's lock is held until
 * the commit reaches the disk, so a tenant's batches are written one after another however many
 * arrive. A batch that arrives while its tenant's statement runs waits, and all that waited go together
 * in the next statement (each still whole or not at all, in arrival order): one lock and one WAL flush
 * for all of them. On PGlite an idle tenant's batch waits only for the batches of the next turns of the
 * event loop; on PostgreSQL the next statement leaves the moment the last one answers, and its batches'
 * answers are made while it runs. If the grouped statement fails, each batch is written alone, so one
 * batch's failure is its own.
 */
const storeTogether = groupCommit(
  async (db: Database, tenantId: string, batches: BatchRow[][]) => {
    const stored = await storeBatches(db, tenantId, batches, null);
    return batches.map(() => stored);
  },
  { pipelined: true },
);

/**
 * The batches' one statement. The commit head is a CTE: the first batch of a tenant makes its row,
 * later ones wait on its lock and read the committed head (never a stale snapshot). A batch naming a
 * source that is not the tenant's is left out whole; the head moves by the rows of the others, which
 * are numbered in batch order, and nothing moves when none is left. recordedAt is the clock truncated
 * to milliseconds, never earlier than the tenant's last one, and the same for every row of the
 * statement. Answers one row per known source named (its IRI), with that recordedAt and the count of
 * rows stored: which batches were stored follows from their sources, and a row per event would cost
 * the backend a seventh more (each row's timestamp and id turned to text, the IRI looked up, sent).
 * Each row travels as a JSON array of its columns (in `storeBatches`' order): unpacking it by position
 * costs the backend a third less per row than `jsonb_to_recordset` looking up named members. A raw payload the
 * row restates travels as JSON null and is stored as SQL null (no event or source record is the JSON literal null).
 */
const storeBatchesQuery = new PgDialect().sqlToQuery(sql`
  with batch as (
    select (r->>0)::int as part, (r->>1)::int as ord, (r->>2)::uuid as event_id, r->>3 as kind, r->>4 as student_id,
      r->>5 as content_id, r->>6 as org_id, (r->>7)::uuid as activity_source_id, (r->>8)::timestamptz as happened_at,
      r->>9 as source_event_id, r->>10 as event_type, r->>11 as profile, r->>12 as action, r->13 as actor_ref,
      r->14 as object_ref, r->15 as extensions, nullif(r->16, 'null') as raw_payload
    from jsonb_array_elements(${sql.placeholder('batch')}::jsonb) as r
  ),
  sources as (
    select source_id, source_iri from ${activitySources}
    where tenant_id = ${sql.placeholder('tenantId')} and source_id in (select activity_source_id from batch)
  ),
  accepted as (
    select b.*, row_number() over (order by b.part, b.ord) as n, count(*) over () as total from batch b
    where b.part not in (select part from batch where activity_source_id not in (select source_id from sources))
  ),
  head as (
    insert into ${commitHeads} (tenant_id, seq, recorded_at)
    select ${sql.placeholder('tenantId')}, count(*), date_trunc('milliseconds', clock_timestamp()) from accepted having count(*) > 0
    on conflict (tenant_id) do update set
      seq = ${commitHeads}.seq + excluded.seq,
      recorded_at = greatest(excluded.recorded_at, ${commitHeads}.recorded_at)
    returning seq, recorded_at
  ),
  inserted as (
    insert into ${learningEvents} (
      tenant_id, event_id, seq, recorded_at, kind, student_id, content_id, org_id, activity_source_id,
      happened_at, source_event_id, event_type, profile, action, actor_ref, object_ref, extensions,
      raw_payload, import_id)
    select ${sql.placeholder('tenantId')}, b.event_id, head.seq - (b.total - b.n), head.recorded_at, b.kind, b.student_id,
      b.content_id, b.org_id, b.activity_source_id, b.happened_at, b.source_event_id, b.event_type, b.profile,
      b.action, b.actor_ref, b.object_ref, b.extensions, b.raw_payload, ${sql.placeholder('importId')}::uuid
    from accepted b cross join head
    returning 1
  )
  select source_id::text as source_id, source_iri, (select recorded_at::text from head) as recorded_at,
    (select count(*)::int from inserted) as stored
  from sources`);

/** Prepared per database handle (and so per transaction): the text is built once, parsed once per connection. */
const storeBatchesStatement = prepareOncePerDatabase((db) =>
  db._.session.prepareQuery(storeBatchesQuery, undefined, 'events_store_batches', false),
);

async function storeBatches(
  db: Database,
  tenantId: string,
  batches: BatchRow[][],
  importId: string | null,
): Promise<Map<string, StoredEvent>> {
  const batch = JSON.stringify(
    batches.flatMap((rows, part) =>
      rows.map((row, index) => [
        part,
        index + 1,
        row.eventId,
        row.kind,
        row.studentId,
        row.contentId,
        row.orgId,
        row.activitySourceId,
        row.happenedAt,
        row.sourceEventId,
        row.eventType,
        row.profile,
        row.action,
        row.actorRef,
        row.objectRef,
        row.extensions,
        row.rawPayload,
      ]),
    ),
  );
  const result = await storeBatchesStatement(db).execute({ batch, tenantId, importId });
  const known = rowsOf<{ source_id: string; source_iri: string; recorded_at: string | null; stored: number }>(result);
  const iris = new Map(known.map((row) => [row.source_id, row.source_iri]));
  // The database answers a uuid in lower case, whatever case the caller's id was in.
  const sourceIriOf = (row: BatchRow) => iris.get(row.activitySourceId.toLowerCase());
  const storedRows = batches.filter((rows) => rows.every((row) => sourceIriOf(row) !== undefined)).flat();
  const storedCount = known[0]?.stored ?? 0;
  if (storedRows.length !== storedCount) {
    throw new Error(`events statement stored ${storedCount} rows where its sources accept ${storedRows.length}`);
  }
  const recordedAt = known[0]?.recorded_at as string;
  return new Map(storedRows.map((row) => [row.eventId, { recordedAt, sourceIri: sourceIriOf(row) as string }]));
}

/** The typed refusal of a batch that names activity sources the tenant has not registered. */
async function refuseUnknownSources(
  db: Database,
  tenantId: string,
  events: PreparedEvent[],
  fieldOf: ((index: number) => string) | undefined,
): Promise<void> {
  const known = new Set(
    (
      await findSourceRows(
        db,
        tenantId,
        events.map((event) => event.activitySourceId),
      )
    ).map((row) => row.sourceId),
  );
  const unknown = events.flatMap((event, index) =>
    known.has(event.activitySourceId)
      ? []
      : [
          {
            field: `${fieldOf?.(index) ?? `events.${index}`}.activitySourceId`,
            message: 'no such activity source in this tenant',
          },
        ],
  );
  requireNoErrors(unknown, UNPROCESSABLE, 'Events name activity sources this tenant has not registered.');
}

/** POST /events: a batch is stored whole or not at all; an Idempotency-Key replays the first answer. */
export async function recordEvents(
  deps: EventsDeps,
  ctx: RequestContext,
  { body: rawInput, idempotencyKey }: CommandInput,
): Promise<CommandResult<{ data: EventProjection[] }>> {
  requireAccess(ctx.principal, ACCESS.write, 'record events');
  const input = parseInput(RecordEventsInput, rawInput);
  const scope = boundaryOf(ctx.principal);
  const raws = (rawInput as { events: unknown[] }).events;
  const prepared = input.events.map((event, index) => prepareEvent(scope, event, `events.${index}`, raws[index]));
  requireNoErrors(prepared.flatMap((result) => result.errors));
  const events = prepared.map((result) => result.value as PreparedEvent);
  // Without a key the batch is one statement that commits itself: no transaction to hold the head's lock open.
  if (idempotencyKey === undefined) {
    return {
      value: { data: await insertEvents(deps.db, ctx, { events, selfCommitting: true }) },
      created: true,
      replayed: false,
    };
  }
  return runCommand(deps, ctx, { operation: 'events.record', key: idempotencyKey, sent: rawInput }, async (tx) => ({
    value: { data: await insertEvents(tx, ctx, { events }) },
    created: true,
  }));
}

/** Any precondition header on an event write: events are not versioned resources. */
export const PRECONDITION_HEADERS = ['if-match', 'if-none-match', 'if-unmodified-since', 'if-modified-since'] as const;

export function refusePreconditions(headers: Record<string, unknown>): void {
  const sent = PRECONDITION_HEADERS.find((name) => headers[name] !== undefined);
  if (sent) {
    throw new DomainError(
      'precondition_failed',
      `Events are immutable; ${sent} has nothing to match on an event write.`,
      {
        fieldErrors: [{ field: sent, message: 'not accepted on an immutable event write' }],
      },
    );
  }
}

const queryTimestamp = z.string().refine(isTimestamp, 'not an ISO 8601 timestamp with offset');
/**
 * The first whole millisecond at or after a filter's instant. Events' instants are whole milliseconds and a Date drops
 * the digits after them, so a lower bound 100 microseconds past an event's instant read as that instant, and matched it.
 */
function firstMillisecondFrom(instant: string): string {
  const milliseconds = Date.parse(instant);
  const beyond = /\.\d{3}(\d+)/.exec(instant)?.[1] ?? '';
  return new Date(/[1-9]/.test(beyond) ? milliseconds + 1 : milliseconds).toISOString();
}
/** As many kinds as the catalogue has, and room for it to grow. */
const MAX_KINDS = 50;

/** GET /events' and GET /event-tallies' `kind`: one kind or several; catalogue kinds hold no comma. */
const kindFilter = z
  .string()
  .refine((value) => value.split(',').every((kind) => kind.length > 0), 'a kind, or comma-separated kinds')
  .refine((value) => value.split(',').length <= MAX_KINDS, `at most ${MAX_KINDS} kinds`)
  .describe('A kind, or several comma-separated (events of any of them): catalogue kinds hold no comma');
const kindsOf = (filter: string) => [...new Set(filter.split(','))];

/** The fields of a listed event, in the order the full answer has them. */
export const EVENT_FIELDS = [
  'id',
  'kind',
  'studentId',
  'contentId',
  'orgId',
  'activitySourceId',
  'happenedAt',
  'occurredAt',
  'sourceEventId',
  'eventType',
  'profile',
  'action',
  'actorRef',
  'objectRef',
  'extensions',
  'modifiedAt',
  'caliperEvent',
  'studentName',
] as const;
type EventField = (typeof EVENT_FIELDS)[number];

export const ListEventsQuery = z
  .object({
    studentId: z.string().min(1).optional().describe('Only events of this student, the people service personId'),
    contentId: z.string().min(1).optional().describe('Only events about this content item'),
    componentId: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .describe(`Events whose ${PLAYER_EXTENSION_NAMESPACE}/component_id extension is this curriculum component`),
    orgId: z.string().min(1).optional().describe('Only events of this organization (school)'),
    activitySourceId: z.uuid().optional().describe('Only events sent by this activity source'),
    kind: kindFilter.optional(),
    action: z.string().min(1).optional().describe('Exact match on the Caliper 1.2 action, e.g. Completed'),
    eventType: z.string().min(1).optional().describe('Exact match on the Caliper 1.2 event type, e.g. AssessmentEvent'),
    happenedAtFrom: queryTimestamp
      .optional()
      .describe('Only events that happened at or after this ISO 8601 instant with offset'),
    happenedAtTo: queryTimestamp
      .optional()
      .describe('Only events that happened at or before this ISO 8601 instant with offset'),
    modifiedSince: queryTimestamp
      .optional()
      .describe('Inclusive: events committed at or after this instant; keep max(modifiedAt) as the watermark'),
    fields: z
      .string()
      .refine(
        (value) => value.split(',').every((field) => (EVENT_FIELDS as readonly string[]).includes(field)),
        `comma-separated fields of an event: ${EVENT_FIELDS.join(', ')}`,
      )
      .optional()
      .describe(
        'Only these fields of each event, comma-separated (id is always sent): a page without studentName asks the ' +
          'people service nothing, one without caliperEvent reads no activity source',
      ),
    cursor: listQueryMembers.cursor,
    pageSize: listQueryMembers.pageSize,
  })
  .strict();

/** A page's events as stored rows presented; their activity sources (a Caliper event's edApp) read unless not wanted. */
async function presentRows(deps: EventsDeps, ctx: RequestContext, rows: EventRow[], sources = true) {
  const iris = sources
    ? await sourceIris(
        deps.db,
        ctx.tenantId,
        rows.map((row) => row.activitySourceId),
      )
    : new Map<string, string>();
  return rows.map((row) => presentEvent(row, row.recordedAt, iris.get(row.activitySourceId) ?? null));
}

async function presentWithNames(deps: EventsDeps, ctx: RequestContext, rows: EventRow[]) {
  return withStudentNames(deps.people, ctx, await presentRows(deps, ctx, rows));
}

/**
 * A page's events with the fields asked for only: the activity sources are read for a Caliper event and the
 * people service asked for a name only when those are asked for.
 */
async function presentFields(deps: EventsDeps, ctx: RequestContext, rows: EventRow[], sent: string) {
  const fields = new Set(['id', ...sent.split(',')] as EventField[]);
  const events = await presentRows(deps, ctx, rows, fields.has('caliperEvent'));
  const named = fields.has('studentName') ? await withStudentNames(deps.people, ctx, events) : events;
  const chosen = EVENT_FIELDS.filter((field) => fields.has(field));
  return named.map((event) => {
    const values = event as Partial<Record<EventField, unknown>>;
    return Object.fromEntries(chosen.map((field) => [field, values[field]]));
  });
}

/** The columns a token's boundary narrows event reads by, with the client's own filters on them. */
function eventBoundaryColumns(requested: { studentId?: string; orgId?: string; contentId?: string }) {
  const e = learningEvents;
  return {
    studentIds: { column: e.studentId, field: 'studentId', requested: requested.studentId },
    orgIds: { column: e.orgId, field: 'orgId', requested: requested.orgId },
    contentIds: { column: e.contentId, field: 'contentId', requested: requested.contentId },
  };
}

/** The boundary of every event read: the token's claims against the event's student, org and content. */
function eventBoundary(ctx: RequestContext, requested: { studentId?: string; orgId?: string; contentId?: string }) {
  return boundaryConditions(boundaryOf(ctx.principal), eventBoundaryColumns(requested), 'events');
}

/** What GET /events filters by, beside its page: the parsed query without cursor, page size and fields. */
export type EventFilters = Omit<z.infer<typeof ListEventsQuery>, 'cursor' | 'pageSize' | 'fields'>;

/**
 * One list of events as a statement with placeholders: its shape (which filters, boundaries and cursor it
 * has) names the statement, its values fill it. The conditions are built only to prepare the statement.
 */
export interface EventListShape {
  key: string;
  conditions: () => SQL[];
  values: Record<string, unknown>;
}

const value = sql.placeholder;

/**
 * The tenant's events under a token's bounded dimensions, the filters sent and after a position in commit
 * order. Each filter's placeholder is named after it.
 */
export function eventListShape(
  tenantId: string,
  bounded: BoundedValues[],
  filters: EventFilters,
  afterSeq?: number,
): EventListShape {
  const e = learningEvents;
  const values: Record<string, unknown> = { tenantId };
  const parts: string[] = [];
  const conditions: Array<() => SQL | SQL[]> = [() => eq(e.tenantId, value('tenantId'))];
  const add = (name: string, given: unknown, condition: () => SQL | SQL[]) => {
    parts.push(name);
    conditions.push(condition);
    values[name] = given;
  };
  for (const { dimension, column, allowed } of bounded) {
    const name = `bounded_${dimension}`;
    add(name, allowed, () => sql`${column} = any(${value(name)}::text[])`);
  }
  const equal = {
    studentId: e.studentId,
    contentId: e.contentId,
    orgId: e.orgId,
    action: e.action,
    eventType: e.eventType,
  };
  for (const [name, column] of Object.entries(equal)) {
    const given = filters[name as keyof typeof equal];
    if (given !== undefined) add(name, given, () => eq(column, value(name)));
  }
  if (filters.componentId !== undefined)
    add('componentId', filters.componentId, () => eq(componentIdOf(e.extensions), value('componentId')));
  if (filters.activitySourceId !== undefined)
    add('activitySourceId', filters.activitySourceId.toLowerCase(), () =>
      eq(e.activitySourceId, value('activitySourceId')),
    );
  if (filters.kind !== undefined) {
    // One kind is an equality (the plan of the common case unchanged); several, a list.
    const kinds = kindsOf(filters.kind);
    if (kinds.length === 1) add('kind', kinds[0], () => eq(e.kind, value('kind')));
    else add('kinds', kinds, () => sql`${e.kind} = any(${value('kinds')}::text[])`);
  }
  if (filters.happenedAtFrom !== undefined)
    add('happenedAtFrom', firstMillisecondFrom(filters.happenedAtFrom), () =>
      gte(e.happenedAt, value('happenedAtFrom')),
    );
  if (filters.happenedAtTo !== undefined)
    add('happenedAtTo', new Date(filters.happenedAtTo).toISOString(), () => lte(e.happenedAt, value('happenedAtTo')));
  // Inclusive: a poller re-reads its watermark's own instant and de-duplicates by id.
  if (filters.modifiedSince !== undefined)
    add('modifiedSince', firstMillisecondFrom(filters.modifiedSince), () => committedSince('modifiedSince'));
  if (afterSeq !== undefined) add('afterSeq', afterSeq, () => gt(e.seq, value('afterSeq')));
  return { key: parts.join(','), conditions: () => conditions.flatMap((condition) => condition()), values };
}

/** Distinct shapes kept prepared per database; beyond it they are prepared anew. */
const MAX_LIST_SHAPES = 200;
const listStatements = new WeakMap<Database, Map<string, ReturnType<typeof prepareList>>>();
let listStatementCount = 0;

/** A list's query, its page size the placeholder `limit`. */
export function eventListQuery(db: Database, shape: EventListShape) {
  return db
    .select(presentedColumns)
    .from(learningEvents)
    .where(and(...shape.conditions()))
    .orderBy(asc(learningEvents.seq))
    .limit(value('limit'));
}

function prepareList(db: Database, shape: EventListShape) {
  listStatementCount += 1;
  return eventListQuery(db, shape).prepare(`events_list_${listStatementCount}`);
}

/**
 * A list's statement, prepared once per shape and database: building it with drizzle on every call cost a
 * gate's status read about a fifth of its CPU. Only the statement is kept, never a result.
 */
function listStatement(db: Database, shape: EventListShape) {
  let byShape = listStatements.get(db);
  if (!byShape) listStatements.set(db, (byShape = new Map()));
  let statement = byShape.get(shape.key);
  if (!statement) {
    if (byShape.size >= MAX_LIST_SHAPES) byShape.clear();
    statement = prepareList(db, shape);
    byShape.set(shape.key, statement);
  }
  return statement;
}

/** The page of GET /events: its filters, the token's boundary and the cursor; the rows as stored. */
async function eventPage(deps: EventsDeps, ctx: RequestContext, rawQuery: ListInput['query']) {
  requireAccess(ctx.principal, ACCESS.read, 'read events');
  const { cursor, pageSize, fields, ...filters } = parseInput(ListEventsQuery, rawQuery);
  const bounded = boundedValues(boundaryOf(ctx.principal), eventBoundaryColumns(filters), 'events');
  const page = await keysetPage(
    deps.cursors,
    { cursor, limit: pageSize, tenantId: ctx.tenantId, filters },
    BY_SEQ,
    ({ position, limit }) => {
      const shape = eventListShape(ctx.tenantId, bounded, filters, position?.[0] as number | undefined);
      return listStatement(deps.db, shape).execute({ ...shape.values, limit });
    },
  );
  return { rows: page.data, nextCursor: page.next_cursor, fields };
}

/** GET /events: every field of each event, or only the `fields` asked for (a GraphQL list asks for its selection's). */
export async function listEventFields(deps: EventsDeps, ctx: RequestContext, { query }: ListInput) {
  const { rows, nextCursor, fields } = await eventPage(deps, ctx, query);
  const data =
    fields === undefined ? await presentWithNames(deps, ctx, rows) : await presentFields(deps, ctx, rows, fields);
  return { data, nextCursor };
}

/**
 * Events committed at or after the instant the placeholder `sinceName` holds. recordedAt never goes back
 * as seq grows, so the first such seq is found by a binary search of the tenant's (tenant_id, seq) index, one probe a halving (about
 * 20 for a million events): the page then starts there on the seq or filter index, and no index on
 * recordedAt costs every stored event an insertion. A probe reads the first event at or after the
 * middle, so a gap in seq would be stepped over, never a reason to miss an event; the recordedAt
 * condition stays what the filter means.
 */
function committedSince(sinceName: string) {
  const tenantId = value('tenantId');
  const since = value(sinceName);
  const firstSeq = sql`(
    with recursive search (lo, hi) as (
      select 0::bigint, coalesce((select max(seq) from ${learningEvents} where tenant_id = ${tenantId}), 0) + 1
      union all
      select case when probe.later then search.lo else probe.seq + 1 end,
        case when probe.later then (search.lo + search.hi) / 2 else search.hi end
      from search cross join lateral (
        select coalesce(bool_or(seq >= search.hi or recorded_at >= ${since}::timestamptz), true) as later, max(seq) as seq
        from (
          select seq, recorded_at from ${learningEvents}
          where tenant_id = ${tenantId} and seq >= (search.lo + search.hi) / 2
          order by seq limit 1
        ) first_at_or_after_middle
      ) probe
      where search.lo < search.hi
    )
    select lo from search where lo = hi
  )`;
  return [gte(learningEvents.seq, firstSeq), gte(learningEvents.recordedAt, since)];
}

/** Commit order: seq is unique per tenant and only grows. */
const BY_SEQ = uniqueOrder<EventRow>(learningEvents.seq, (row) => row.seq);

/**
 * Events by id, in the order asked, for entity reads: an absent id is null; an event outside the
 * token's boundary is its 403 (the spec's rule for any out-of-boundary use), never silently absent.
 */
export async function findEvents(
  deps: EventsDeps,
  ctx: RequestContext,
  { ids }: { ids: readonly string[] },
): Promise<Array<EventProjection | DomainError | null>> {
  requireAccess(ctx.principal, ACCESS.read, 'read events');
  const valid = ids.filter((id) => isUuid(id)).map((id) => id.toLowerCase());
  if (valid.length === 0) return ids.map(() => null);
  const rows = await deps.db
    .select(presentedColumns)
    .from(learningEvents)
    .where(and(eq(learningEvents.tenantId, ctx.tenantId), inArray(learningEvents.eventId, valid)));
  const found = new Map((await presentWithNames(deps, ctx, rows)).map((event) => [event.id, event]));
  const scope = boundaryOf(ctx.principal);
  return ids.map((id) => {
    const event = found.get(id.toLowerCase());
    if (!event) return null;
    const values = {
      studentIds: { field: 'studentId', value: event.studentId },
      orgIds: { field: 'orgId', value: event.orgId },
      contentIds: { field: 'contentId', value: event.contentId },
    };
    return outsideBoundary(scope, values, 'read an event of') ?? event;
  });
}

/**
 * Which of `contentIds` name content items of the tenant, asked of content's published API in one
 * call per batch: an entity key content does not know resolves to null, never to an empty item.
 */
export async function knownContentItems(
  deps: EventsDeps,
  ctx: RequestContext,
  { contentIds }: { contentIds: readonly string[] },
): Promise<Set<string>> {
  requireAccess(ctx.principal, ACCESS.read, 'read events');
  return deps.content.existingItems(ctx, contentIds);
}

export async function getEvent(deps: EventsDeps, ctx: RequestContext, { eventId }: { eventId: string }) {
  const [event] = await findEvents(deps, ctx, { ids: [eventId] });
  if (!event) throw new DomainError('not_found', `No event ${eventId} in this tenant.`);
  if (event instanceof DomainError) throw event;
  return { data: event };
}

const RENDERED_VERSION_EXTENSION = `${PLAYER_EXTENSION_NAMESPACE}/rendered_content_id`;

export const TallyEventsQuery = z
  .object({
    contentId: z.string().min(1).max(200).describe('The content item the events are about'),
    renderedContentId: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .describe(`Only events whose ${RENDERED_VERSION_EXTENSION} extension names this exact content version`),
    kind: kindFilter.optional(),
  })
  .strict();

/**
 * GET /event-tallies: how many events of each kind one content item (or one exact version of it)
 * has, with the first and last happenedAt and the last commit. Counting only; what the counts mean
 * (effectiveness) is the content service's derivation, not this service's.
 */
export async function tallyEvents(deps: EventsDeps, ctx: RequestContext, { query: rawQuery }: ListInput) {
  requireAccess(ctx.principal, ACCESS.read, 'read events');
  const query = parseInput(TallyEventsQuery, rawQuery);
  const e = learningEvents;
  const rows = await deps.db
    .select({
      kind: e.kind,
      eventCount: sql<number>`count(*)::int`.mapWith(Number),
      firstHappenedAt: sql<string>`min(${e.happenedAt})`.mapWith(e.happenedAt),
      lastHappenedAt: sql<string>`max(${e.happenedAt})`.mapWith(e.happenedAt),
      lastModifiedAt: sql<string>`max(${e.recordedAt})`.mapWith(e.recordedAt),
    })
    .from(e)
    .where(
      and(
        eq(e.tenantId, ctx.tenantId),
        ...eventBoundary(ctx, { contentId: query.contentId }),
        eq(e.contentId, query.contentId),
        query.renderedContentId !== undefined
          ? sql`${e.extensions} ->> ${RENDERED_VERSION_EXTENSION} = ${query.renderedContentId}`
          : undefined,
        query.kind !== undefined ? inArray(e.kind, kindsOf(query.kind)) : undefined,
      ),
    )
    .groupBy(e.kind)
    .orderBy(asc(e.kind));
  return {
    contentId: query.contentId,
    renderedContentId: query.renderedContentId ?? null,
    data: rows.map((row) => ({
      kind: row.kind,
      eventCount: row.eventCount,
      firstHappenedAt: isoTimestamp(row.firstHappenedAt),
      lastHappenedAt: isoTimestamp(row.lastHappenedAt),
      lastModifiedAt: isoTimestamp(row.lastModifiedAt),
    })),
  };
}
