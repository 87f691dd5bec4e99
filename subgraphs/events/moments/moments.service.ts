import { eq, gte, lte, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import { requireAccess } from '../../../platform/auth.ts';
import type { RequestContext } from '../../../platform/context.ts';
import { sortedOrder, tablePage } from '../../../platform/keyset.ts';
import { DomainError } from '../../../platform/errors.ts';
import { tenantRows } from '../../../platform/tenant-rows.ts';
import { calendarDate, isoTimestamp, parseInput, isUuid, listQueryMembers } from '../../../platform/validation.ts';
import {
  ACCESS,
  boundaryConditions,
  boundaryOf,
  CHECKABLE,
  requireCheckable,
  requireWithinBoundary,
} from '../access.ts';
import type { EventsDeps } from '../deps.ts';
import type { ListInput } from '../inputs.ts';
import { withStudentNames } from '../people.ts';
import { attendanceEvents, disciplineEvents } from '../tables.ts';
import { resolveDescriptor, type DescriptorName } from '../vocabulary.ts';

/**
 * Read-only attendance and discipline moments, descriptors already resolved. Narratives, reporter
 * names and raw payloads are stored as evidence and never presented.
 */

type AttendanceRow = typeof attendanceEvents.$inferSelect;
type DisciplineRow = typeof disciplineEvents.$inferSelect;

/**
 * A moment as presented: its row under its own id, without the tenant and without the raw payload,
 * which is evidence only.
 */
function presentMoment<Row extends AttendanceRow | DisciplineRow>(
  row: Row,
  idColumn: keyof Row & ('attendanceEventId' | 'disciplineEventId'),
) {
  const { tenantId: _tenantId, [idColumn]: id, rawPayload: _rawPayload, recordedAt, ...fields } = row;
  return { id: id as string, ...fields, recordedAt: isoTimestamp(recordedAt) };
}

const dateFilter = calendarDate();

/** A descriptor filter accepts the code value or the descriptor URI and compares code values. */
const descriptorFilter = (name: DescriptorName) =>
  z
    .string()
    .min(1)
    .refine((value) => resolveDescriptor(name, value) !== undefined, `not a code value of the Ed-Fi ${name}`)
    .transform((value) => resolveDescriptor(name, value)?.codeValue as string);

const paging = {
  cursor: listQueryMembers.cursor,
  pageSize: listQueryMembers.pageSize,
  from: dateFilter.optional().describe('YYYY-MM-DD; only moments on this day or later'),
  to: dateFilter.optional().describe('YYYY-MM-DD; only moments on this day or earlier'),
};

const momentFilters = {
  studentId: z.string().min(1).optional().describe('Only moments of this student, the people service personId'),
  schoolId: z.string().min(1).optional().describe('Only moments recorded at this school'),
};

export const ListAttendanceQuery = z
  .object({
    ...momentFilters,
    classId: z.string().min(1).optional().describe('Only moments of this class, the Ed-Fi section'),
    category: descriptorFilter('AttendanceEventCategoryDescriptor')
      .optional()
      .describe('An AttendanceEventCategoryDescriptor code value (e.g. Tardy) or its descriptor URI'),
    ...paging,
  })
  .strict();

export const ListDisciplineQuery = z
  .object({
    ...momentFilters,
    behavior: descriptorFilter('BehaviorDescriptor')
      .optional()
      .describe('A BehaviorDescriptor code value or its descriptor URI'),
    participationCode: descriptorFilter('DisciplineIncidentParticipationCodeDescriptor')
      .optional()
      .describe('A DisciplineIncidentParticipationCodeDescriptor code value or its descriptor URI'),
    location: descriptorFilter('IncidentLocationDescriptor')
      .optional()
      .describe('An IncidentLocationDescriptor code value or its descriptor URI'),
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
  query: Query;
  /** Equality filters besides studentId and schoolId, which every moment has: query field to column. */
  equals: Record<string, PgColumn>;
  idOf: (row: Row) => string;
  present: (row: Row) => MomentRecord;
}

const ATTENDANCE: MomentView<AttendanceRow, typeof ListAttendanceQuery> = {
  what: 'attendance event',
  table: attendanceEvents,
  id: attendanceEvents.attendanceEventId,
  query: ListAttendanceQuery,
  equals: {
    classId: attendanceEvents.classId,
    category: attendanceEvents.category,
  },
  idOf: (row) => row.attendanceEventId,
  present: (row) => presentMoment(row, 'attendanceEventId'),
};

const DISCIPLINE: MomentView<DisciplineRow, typeof ListDisciplineQuery> = {
  what: 'discipline event',
  table: disciplineEvents,
  id: disciplineEvents.disciplineEventId,
  query: ListDisciplineQuery,
  equals: {
    behavior: disciplineEvents.behavior,
    participationCode: disciplineEvents.participationCode,
    location: disciplineEvents.location,
  },
  idOf: (row) => row.disciplineEventId,
  present: (row) => presentMoment(row, 'disciplineEventId'),
};

async function listMoments<Row, Query extends z.ZodType>(
  deps: EventsDeps,
  ctx: RequestContext,
  view: MomentView<Row, Query>,
  { query: rawQuery }: ListInput,
) {
  requireAccess(ctx.principal, ACCESS.read, `read ${view.what}s`);
  const { cursor, pageSize, from, to, ...equals } = parseInput(view.query, rawQuery) as Record<
    string,
    string | number | undefined
  >;
  const request = {
    cursor: cursor as string | undefined,
    limit: pageSize as number | undefined,
    tenantId: ctx.tenantId,
    filters: { ...equals, from, to },
  };
  const columns: Record<string, PgColumn> = {
    studentId: view.table.studentId,
    schoolId: view.table.schoolId,
    ...view.equals,
  };
  const conditions: Array<SQL | undefined> = [
    tenantRows(view.table, ctx.tenantId),
    ...boundaryConditions(
      boundaryOf(ctx.principal),
      {
        studentIds: {
          column: view.table.studentId,
          field: 'studentId',
          requested: equals.studentId as string | undefined,
        },
        orgIds: { column: view.table.schoolId, field: 'schoolId', requested: equals.schoolId as string | undefined },
      },
      `${view.what}s`,
    ),
    ...Object.entries(equals).map(([name, value]) => (value === undefined ? undefined : eq(columns[name], value))),
    from ? gte(view.table.eventDate, from as string) : undefined,
    to ? lte(view.table.eventDate, to as string) : undefined,
  ];
  const order = sortedOrder<Row>({ sortColumn: view.table.eventDate, idColumn: view.id, descending: false }, (row) => [
    view.present(row).eventDate,
    view.idOf(row),
  ]);
  const page = await tablePage(deps.db, deps.cursors, view.table, order, request, conditions);
  return { data: await withStudentNames(deps.people, ctx, page.data.map(view.present)), nextCursor: page.next_cursor };
}

async function getMoment<Row, Query extends z.ZodType>(
  deps: EventsDeps,
  ctx: RequestContext,
  view: MomentView<Row, Query>,
  { id }: { id: string },
) {
  requireAccess(ctx.principal, ACCESS.read, `read ${view.what}s`);
  const scope = boundaryOf(ctx.principal);
  // Before the lookup: an uncheckable claim is refused whether or not the row exists.
  requireCheckable(scope, CHECKABLE.moments, `${view.what}s`);
  const rows = isUuid(id)
    ? ((await deps.db
        .select()
        .from(view.table)
        .where(tenantRows(view.table, ctx.tenantId, {}, eq(view.id, id.toLowerCase())))) as Row[])
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

type GetInput = { id: string };

export const listAttendanceEvents = (deps: EventsDeps, ctx: RequestContext, input: ListInput) =>
  listMoments(deps, ctx, ATTENDANCE, input);
export const getAttendanceEvent = (deps: EventsDeps, ctx: RequestContext, input: GetInput) =>
  getMoment(deps, ctx, ATTENDANCE, input);
export const listDisciplineEvents = (deps: EventsDeps, ctx: RequestContext, input: ListInput) =>
  listMoments(deps, ctx, DISCIPLINE, input);
export const getDisciplineEvent = (deps: EventsDeps, ctx: RequestContext, input: GetInput) =>
  getMoment(deps, ctx, DISCIPLINE, input);
