import { and, asc, eq, gt, gte, inArray, lte, or, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import { requireAccess } from '../../../platform/auth.ts';
import type { RequestContext } from '../../../platform/context.ts';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, pageOf } from '../../../platform/cursor.ts';
import { DomainError } from '../../../platform/errors.ts';
import { isoTimestamp, parseInput, queryInteger, isUuid } from '../../../platform/validation.ts';
import {
  ACCESS,
  boundaryConditions,
  boundaryOf,
  CHECKABLE,
  requireCheckable,
  requireWithinBoundary,
} from '../access.ts';
import type { EventsDeps } from '../deps.ts';
import { withStudentNames } from '../people.ts';
import { attendanceEvents, disciplineEvents } from '../tables.ts';
import { resolveDescriptor, type DescriptorName } from '../vocabulary.ts';

/**
 * Read-only attendance and discipline moments, descriptors already resolved. Narratives, reporter
 * names and raw payloads are stored as evidence and never presented.
 */

type AttendanceRow = typeof attendanceEvents.$inferSelect;
type DisciplineRow = typeof disciplineEvents.$inferSelect;

function presentAttendance(row: AttendanceRow) {
  return {
    id: row.attendanceEventId,
    studentId: row.studentId,
    schoolId: row.schoolId,
    classId: row.classId,
    eventDate: row.eventDate,
    category: row.category,
    categoryDescriptor: row.categoryDescriptor,
    durationDays: row.durationDays,
    sessionName: row.sessionName,
    schoolYear: row.schoolYear,
    sourceSystem: row.sourceSystem,
    sourceRecordId: row.sourceRecordId,
    importId: row.importId,
    recordedAt: isoTimestamp(row.recordedAt),
  };
}

function presentDiscipline(row: DisciplineRow) {
  return {
    id: row.disciplineEventId,
    incidentId: row.incidentId,
    studentId: row.studentId,
    schoolId: row.schoolId,
    eventDate: row.eventDate,
    incidentTime: row.incidentTime,
    behavior: row.behavior,
    behaviorDescriptor: row.behaviorDescriptor,
    participationCode: row.participationCode,
    participationCodeDescriptor: row.participationCodeDescriptor,
    location: row.location,
    locationDescriptor: row.locationDescriptor,
    disciplineAction: row.disciplineAction,
    disciplineActionDescriptor: row.disciplineActionDescriptor,
    reporterDescription: row.reporterDescription,
    reporterDescriptionDescriptor: row.reporterDescriptionDescriptor,
    sourceSystem: row.sourceSystem,
    sourceRecordId: row.sourceRecordId,
    importId: row.importId,
    recordedAt: isoTimestamp(row.recordedAt),
  };
}

const dateFilter = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'expected a date YYYY-MM-DD')
  .refine((value) => !Number.isNaN(Date.parse(value)), 'not a calendar date');

/** A descriptor filter accepts the code value or the descriptor URI and compares code values. */
const descriptorFilter = (name: DescriptorName) =>
  z
    .string()
    .min(1)
    .refine((value) => resolveDescriptor(name, value) !== undefined, `not a code value of the Ed-Fi ${name}`)
    .transform((value) => resolveDescriptor(name, value)?.codeValue as string);

const paging = {
  cursor: z.string().min(1).optional(),
  pageSize: queryInteger(1, MAX_PAGE_SIZE).optional(),
  from: dateFilter.optional(),
  to: dateFilter.optional(),
};

export const ListAttendanceQuery = z
  .object({
    studentId: z.string().min(1).optional(),
    schoolId: z.string().min(1).optional(),
    classId: z.string().min(1).optional(),
    category: descriptorFilter('AttendanceEventCategoryDescriptor').optional(),
    ...paging,
  })
  .strict();

export const ListDisciplineQuery = z
  .object({
    studentId: z.string().min(1).optional(),
    schoolId: z.string().min(1).optional(),
    behavior: descriptorFilter('BehaviorDescriptor').optional(),
    participationCode: descriptorFilter('DisciplineIncidentParticipationCodeDescriptor').optional(),
    location: descriptorFilter('IncidentLocationDescriptor').optional(),
    ...paging,
  })
  .strict();

/** What the shared listing knows of a presented moment (GraphQL resolves its fields by name). */
export interface MomentRecord {
  studentId: string;
  schoolId: string;
  eventDate: string;
}

/** What differs between the two views; listing, paging, boundaries and names are shared. */
interface MomentView<Row, Query extends z.ZodType> {
  what: string;
  table: typeof attendanceEvents | typeof disciplineEvents;
  id: PgColumn;
  studentId: PgColumn;
  schoolId: PgColumn;
  eventDate: PgColumn;
  tenantId: PgColumn;
  query: Query;
  /** Equality filters: query field to column. */
  equals: Record<string, PgColumn>;
  idOf: (row: Row) => string;
  present: (row: Row) => MomentRecord;
}

const ATTENDANCE: MomentView<AttendanceRow, typeof ListAttendanceQuery> = {
  what: 'attendance event',
  table: attendanceEvents,
  id: attendanceEvents.attendanceEventId,
  studentId: attendanceEvents.studentId,
  schoolId: attendanceEvents.schoolId,
  eventDate: attendanceEvents.eventDate,
  tenantId: attendanceEvents.tenantId,
  query: ListAttendanceQuery,
  equals: {
    studentId: attendanceEvents.studentId,
    schoolId: attendanceEvents.schoolId,
    classId: attendanceEvents.classId,
    category: attendanceEvents.category,
  },
  idOf: (row) => row.attendanceEventId,
  present: presentAttendance,
};

const DISCIPLINE: MomentView<DisciplineRow, typeof ListDisciplineQuery> = {
  what: 'discipline event',
  table: disciplineEvents,
  id: disciplineEvents.disciplineEventId,
  studentId: disciplineEvents.studentId,
  schoolId: disciplineEvents.schoolId,
  eventDate: disciplineEvents.eventDate,
  tenantId: disciplineEvents.tenantId,
  query: ListDisciplineQuery,
  equals: {
    studentId: disciplineEvents.studentId,
    schoolId: disciplineEvents.schoolId,
    behavior: disciplineEvents.behavior,
    participationCode: disciplineEvents.participationCode,
    location: disciplineEvents.location,
  },
  idOf: (row) => row.disciplineEventId,
  present: presentDiscipline,
};

async function listMoments<Row, Query extends z.ZodType>(
  deps: EventsDeps,
  ctx: RequestContext,
  view: MomentView<Row, Query>,
  rawQuery: unknown,
) {
  requireAccess(ctx.principal, ACCESS.read, `read ${view.what}s`);
  const { cursor, pageSize, from, to, ...equals } = parseInput(view.query, rawQuery) as Record<
    string,
    string | number | undefined
  >;
  const filters = { ...equals, from, to };
  const limit = (pageSize as number | undefined) ?? DEFAULT_PAGE_SIZE;
  const after = cursor ? (deps.cursors.decode(cursor as string, filters).after as [string, string]) : undefined;
  const conditions: Array<SQL | undefined> = [
    eq(view.tenantId, ctx.tenantId),
    ...boundaryConditions(
      boundaryOf(ctx.principal),
      {
        studentIds: { column: view.studentId, field: 'studentId', requested: equals.studentId as string | undefined },
        orgIds: { column: view.schoolId, field: 'schoolId', requested: equals.schoolId as string | undefined },
      },
      `${view.what}s`,
    ),
    ...Object.entries(equals).map(([name, value]) => (value === undefined ? undefined : eq(view.equals[name], value))),
    from ? gte(view.eventDate, from as string) : undefined,
    to ? lte(view.eventDate, to as string) : undefined,
    after ? or(gt(view.eventDate, after[0]), and(eq(view.eventDate, after[0]), gt(view.id, after[1]))) : undefined,
  ];
  const rows = (await deps.db
    .select()
    .from(view.table)
    .where(and(...conditions))
    .orderBy(asc(view.eventDate), asc(view.id))
    .limit(limit + 1)) as Row[];
  const page = pageOf(
    rows,
    limit,
    (row) => [view.present(row).eventDate, view.idOf(row)],
    view.present,
    deps.cursors,
    filters,
  );
  return { data: await withStudentNames(deps.people, ctx, page.data), nextCursor: page.next_cursor };
}

async function getMoment<Row, Query extends z.ZodType>(
  deps: EventsDeps,
  ctx: RequestContext,
  view: MomentView<Row, Query>,
  id: string,
) {
  requireAccess(ctx.principal, ACCESS.read, `read ${view.what}s`);
  const scope = boundaryOf(ctx.principal);
  // Before the lookup: an uncheckable claim is refused whether or not the row exists.
  requireCheckable(scope, CHECKABLE.moments, `${view.what}s`);
  const rows = isUuid(id)
    ? ((await deps.db
        .select()
        .from(view.table)
        .where(and(eq(view.tenantId, ctx.tenantId), inArray(view.id, [id.toLowerCase()])))) as Row[])
    : [];
  if (rows.length === 0) throw new DomainError('not_found', `No ${view.what} ${id} in this tenant.`);
  const moment = view.present(rows[0]);
  requireWithinBoundary(
    scope,
    {
      studentIds: { field: 'studentId', value: moment.studentId },
      orgIds: { field: 'schoolId', value: moment.schoolId },
    },
    `read a ${view.what} of`,
  );
  const [named] = await withStudentNames(deps.people, ctx, [moment]);
  return { data: named };
}

export const listAttendanceEvents = (deps: EventsDeps, ctx: RequestContext, rawQuery: unknown) =>
  listMoments(deps, ctx, ATTENDANCE, rawQuery);
export const getAttendanceEvent = (deps: EventsDeps, ctx: RequestContext, id: string) =>
  getMoment(deps, ctx, ATTENDANCE, id);
export const listDisciplineEvents = (deps: EventsDeps, ctx: RequestContext, rawQuery: unknown) =>
  listMoments(deps, ctx, DISCIPLINE, rawQuery);
export const getDisciplineEvent = (deps: EventsDeps, ctx: RequestContext, id: string) =>
  getMoment(deps, ctx, DISCIPLINE, id);
