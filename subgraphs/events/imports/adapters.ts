import { z } from 'zod';
import type { FieldError } from '../../../platform/errors.ts';
import {
  calendarDate,
  fieldErrorsOf,
  isCalendarDay,
  isTimestamp,
  nullMeansAbsent,
} from '../../../platform/validation.ts';
import { resolveDescriptor, VENDOR_ACTIVITY_KIND, type DescriptorName } from '../vocabulary.ts';

/**
 * The three source adapters: each takes one producer row exactly as emitted and answers either the
 * normalized record or the field errors that name what is wrong with it. Rows never carry fields
 * the server derives.
 */

/** Fields only the server derives; a row carrying one is refused rather than trusted. */
export const CALLER_DERIVED_FIELDS = [
  'activity_kind',
  'activityKind',
  'kind',
  'eventType',
  'event_type',
  'profile',
  'action',
  'actorRef',
  'actor_ref',
  'objectRef',
  'object_ref',
  'source_course_id',
  'sourceCourseId',
  'source_course',
  'course_alias',
  'courseAlias',
] as const;
const DERIVED: ReadonlySet<string> = new Set(CALLER_DERIVED_FIELDS);

const dateOnly = calendarDate();
const id = z.union([z.string().trim().min(1).max(200), z.number().int().transform(String)]);
const count = z.number().int().min(0);

const VendorLearningRow = nullMeansAbsent(
  z
    .object({
      id: id,
      user_id: id,
      // Date.parse would take 24:00 as the next day, a time without an offset as the server's local time and a year
      // an offset moves to 0 (a 500): a day, or a timestamp as happenedAt takes it.
      date: z
        .string()
        .refine(
          (value) => isCalendarDay(value) || isTimestamp(value),
          'expected a date YYYY-MM-DD or an RFC 3339 timestamp with offset',
        ),
      subject: z.string().optional(),
      app: z.string().optional(),
      course_id: id.optional(),
      activity_id: id,
      total_questions: count.optional(),
      correct_questions: count.optional(),
      xp_earned: z.number().min(0).optional(),
      mastered_units: z.number().min(0).optional(),
      active_seconds: z.number().min(0).optional(),
      source_system: z.string().optional(),
      score_type: z.string().optional(),
      score_given: z.number().optional(),
      max_score: z.number().optional(),
    })
    .strict(),
)
  .refine(
    (row) =>
      row.correct_questions === undefined ||
      row.total_questions === undefined ||
      row.correct_questions <= row.total_questions,
    {
      path: ['correct_questions'],
      message: 'greater than total_questions',
    },
  )
  .refine((row) => row.score_given === undefined || row.max_score === undefined || row.score_given <= row.max_score, {
    path: ['score_given'],
    message: 'greater than max_score',
  });

/** Ed-Fi's SchoolYear: the integer year a school year ends in. */
const edFiSchoolYear = z.number().int().min(1900).max(9999);

const descriptorValue = (name: DescriptorName) =>
  z
    .string()
    .min(1)
    .refine((value) => resolveDescriptor(name, value) !== undefined, `not a code value of the Ed-Fi ${name}`);

/** An attendance row as a SIS emits it (Ed-Fi StudentSchoolAttendanceEvent / StudentSectionAttendanceEvent, flattened). */
const SisAttendanceRow = nullMeansAbsent(
  z
    .object({
      id: id.optional(),
      student_id: id,
      school_id: id,
      class_id: id.optional(),
      event_date: dateOnly,
      attendance_event_category: descriptorValue('AttendanceEventCategoryDescriptor'),
      attendance_event_reason: z.string().max(2000).optional(),
      event_duration: z.number().min(0).max(1).optional(),
      session_name: z.string().optional(),
      // Text, or Ed-Fi's integer SchoolYear a SIS flattens from the session (served as text, as the Ed-Fi resources' is).
      school_year: z.union([z.string(), edFiSchoolYear.transform(String)]).optional(),
    })
    .strict(),
);

type SisAttendance = z.infer<typeof SisAttendanceRow>;

/** A reference as the Ed-Fi API writes it: its key fields, and on reads a `link` to the referenced resource. */
const edFiReference = <Shape extends z.ZodRawShape>(shape: Shape) =>
  nullMeansAbsent(z.object({ ...shape, link: z.object({ rel: z.string(), href: z.string() }).optional() }).strict());

/** The members every Ed-Fi API attendance event resource has (Data Standard 4 and 5). */
const edFiAttendanceEvent = {
  id: id.optional(),
  studentReference: edFiReference({ studentUniqueId: id }),
  eventDate: dateOnly,
  attendanceEventCategoryDescriptor: descriptorValue('AttendanceEventCategoryDescriptor'),
  attendanceEventReason: z.string().max(2000).optional(),
  eventDuration: z.number().min(0).max(1).optional(),
  arrivalTime: z.string().optional(),
  departureTime: z.string().optional(),
  educationalEnvironmentDescriptor: z.string().optional(),
  _etag: z.string().optional(),
  _lastModifiedDate: z.string().optional(),
  _ext: z.record(z.string(), z.unknown()).optional(),
};

/** An Ed-Fi API studentSchoolAttendanceEvents resource, as the API serves it. */
const EdFiSchoolAttendanceEvent = nullMeansAbsent(
  z
    .object({
      ...edFiAttendanceEvent,
      schoolReference: edFiReference({ schoolId: id }),
      sessionReference: edFiReference({ schoolId: id, schoolYear: edFiSchoolYear, sessionName: z.string() }).optional(),
      schoolAttendanceDuration: z.number().min(0).optional(),
    })
    .strict(),
).transform((event): SisAttendance => ({
  ...fromEdFiAttendanceEvent(event),
  school_id: event.schoolReference.schoolId,
  session_name: event.sessionReference?.sessionName,
  school_year: event.sessionReference && String(event.sessionReference.schoolYear),
}));

/** An Ed-Fi API studentSectionAttendanceEvents resource: its section is the moment's class. */
const EdFiSectionAttendanceEvent = nullMeansAbsent(
  z
    .object({
      ...edFiAttendanceEvent,
      sectionReference: edFiReference({
        localCourseCode: z.string(),
        schoolId: id,
        schoolYear: edFiSchoolYear,
        sectionIdentifier: id,
        sessionName: z.string(),
      }),
      sectionAttendanceDuration: z.number().min(0).optional(),
      classPeriods: z.array(z.unknown()).optional(),
    })
    .strict(),
).transform((event): SisAttendance => ({
  ...fromEdFiAttendanceEvent(event),
  school_id: event.sectionReference.schoolId,
  class_id: event.sectionReference.sectionIdentifier,
  session_name: event.sectionReference.sessionName,
  school_year: String(event.sectionReference.schoolYear),
}));

function fromEdFiAttendanceEvent(
  event: z.infer<z.ZodObject<typeof edFiAttendanceEvent>>,
): Omit<SisAttendance, 'school_id'> {
  return {
    id: event.id,
    student_id: event.studentReference.studentUniqueId,
    event_date: event.eventDate,
    attendance_event_category: event.attendanceEventCategoryDescriptor,
    attendance_event_reason: event.attendanceEventReason,
    event_duration: event.eventDuration,
  };
}

/**
 * An attendance row in either shape a SIS emits: the flattened row, or an Ed-Fi API attendance event resource
 * (told apart by its studentReference, and a section event by its sectionReference).
 */
const attendanceRowSchema = (row: object): z.ZodType<SisAttendance> =>
  !('studentReference' in row)
    ? SisAttendanceRow
    : 'sectionReference' in row
      ? EdFiSectionAttendanceEvent
      : EdFiSchoolAttendanceEvent;

/** A discipline row: one participant of an Ed-Fi DisciplineIncident with its action, flattened. */
const SisDisciplineRow = nullMeansAbsent(
  z
    .object({
      id: id.optional(),
      incident_id: id,
      student_id: id,
      school_id: id,
      incident_date: dateOnly,
      // A time of day that exists (Ed-Fi IncidentTime is a time): 25:99 was stored and served as sent.
      incident_time: z
        .string()
        .regex(/^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$/, 'expected a time of day HH:MM[:SS]')
        .optional(),
      behavior: descriptorValue('BehaviorDescriptor'),
      behavior_detailed_description: z.string().max(4000).optional(),
      participation_code: descriptorValue('DisciplineIncidentParticipationCodeDescriptor').optional(),
      incident_location: descriptorValue('IncidentLocationDescriptor').optional(),
      discipline: descriptorValue('DisciplineDescriptor').optional(),
      reporter_description: descriptorValue('ReporterDescriptionDescriptor').optional(),
      reporter_name: z.string().max(500).optional(),
      incident_description: z.string().max(4000).optional(),
    })
    .strict(),
);

export interface NormalizedLearning {
  resource: 'events';
  kind: string;
  studentId: string;
  contentId: string;
  happenedAt: string;
  sourceEventId: string;
}

export interface NormalizedAttendance {
  resource: 'attendanceEvents';
  studentId: string;
  schoolId: string;
  classId: string | null;
  eventDate: string;
  category: string;
  categoryDescriptor: string;
  durationDays: number | null;
  sessionName: string | null;
  schoolYear: string | null;
  sourceRecordId: string | null;
}

export interface NormalizedDiscipline {
  resource: 'disciplineEvents';
  incidentId: string;
  studentId: string;
  schoolId: string;
  eventDate: string;
  incidentTime: string | null;
  behavior: string;
  behaviorDescriptor: string;
  participationCode: string | null;
  participationCodeDescriptor: string | null;
  location: string | null;
  locationDescriptor: string | null;
  disciplineAction: string | null;
  disciplineActionDescriptor: string | null;
  reporterDescription: string | null;
  reporterDescriptionDescriptor: string | null;
  sourceRecordId: string | null;
}

export type Normalized = NormalizedLearning | NormalizedAttendance | NormalizedDiscipline;

interface Adapter {
  sourceSystem: 'vendor_production' | 'sis_system';
  /** The schema of one row; an adapter that takes more than one shape picks it by the row's members. */
  row: z.ZodType | ((row: object) => z.ZodType);
  normalize(row: never): Normalized;
}

const resolved = (name: DescriptorName, value: string | undefined) => {
  const found = value === undefined ? undefined : resolveDescriptor(name, value);
  return { code: found?.codeValue ?? null, descriptor: found?.descriptor ?? null };
};

/** A vendor date without a time is the start of that day in UTC. */
const timestampOf = (value: string) => new Date(isCalendarDay(value) ? `${value}T00:00:00Z` : value).toISOString();

export const ADAPTERS = {
  vendor_learning_event_v1: {
    sourceSystem: 'vendor_production',
    row: VendorLearningRow,
    normalize: (row: z.infer<typeof VendorLearningRow>): NormalizedLearning => ({
      resource: 'events',
      kind: VENDOR_ACTIVITY_KIND,
      studentId: row.user_id,
      contentId: row.activity_id,
      happenedAt: timestampOf(row.date),
      sourceEventId: row.id,
    }),
  },
  sis_attendance_event_v1: {
    sourceSystem: 'sis_system',
    row: attendanceRowSchema,
    normalize: (row: SisAttendance): NormalizedAttendance => {
      const category = resolved('AttendanceEventCategoryDescriptor', row.attendance_event_category);
      return {
        resource: 'attendanceEvents',
        studentId: row.student_id,
        schoolId: row.school_id,
        classId: row.class_id ?? null,
        eventDate: row.event_date,
        category: category.code as string,
        categoryDescriptor: category.descriptor as string,
        durationDays: row.event_duration ?? null,
        sessionName: row.session_name ?? null,
        schoolYear: row.school_year ?? null,
        sourceRecordId: row.id ?? null,
      };
    },
  },
  sis_discipline_event_v1: {
    sourceSystem: 'sis_system',
    row: SisDisciplineRow,
    normalize: (row: z.infer<typeof SisDisciplineRow>): NormalizedDiscipline => {
      const behavior = resolved('BehaviorDescriptor', row.behavior);
      const participation = resolved('DisciplineIncidentParticipationCodeDescriptor', row.participation_code);
      const location = resolved('IncidentLocationDescriptor', row.incident_location);
      const action = resolved('DisciplineDescriptor', row.discipline);
      const reporter = resolved('ReporterDescriptionDescriptor', row.reporter_description);
      return {
        resource: 'disciplineEvents',
        incidentId: row.incident_id,
        studentId: row.student_id,
        schoolId: row.school_id,
        eventDate: row.incident_date,
        incidentTime: row.incident_time ?? null,
        behavior: behavior.code as string,
        behaviorDescriptor: behavior.descriptor as string,
        participationCode: participation.code,
        participationCodeDescriptor: participation.descriptor,
        location: location.code,
        locationDescriptor: location.descriptor,
        disciplineAction: action.code,
        disciplineActionDescriptor: action.descriptor,
        reporterDescription: reporter.code,
        reporterDescriptionDescriptor: reporter.descriptor,
        sourceRecordId: row.id ?? null,
      };
    },
  },
} satisfies Record<string, Adapter>;

export type AdapterName = keyof typeof ADAPTERS;

/** A flattened row's members, required then optional, as the API description names them. */
function membersOf(row: z.ZodObject): string {
  const members = Object.entries(row.shape);
  const named = (optional: boolean) =>
    members.filter(([, member]) => member.isOptional() === optional).map(([name]) => name);
  return `${named(false).join(', ')}, optional ${named(true).join(', ')}`;
}

/** What each adapter takes, from the row schemas themselves. */
export const ADAPTER_ROWS_DESCRIPTION = [
  `The shape of every row. vendor_learning_event_v1: ${membersOf(VendorLearningRow)}.`,
  `sis_attendance_event_v1: ${membersOf(SisAttendanceRow)}; or an Ed-Fi API studentSchoolAttendanceEvents or`,
  `studentSectionAttendanceEvents resource as the API serves it. sis_discipline_event_v1: ${membersOf(SisDisciplineRow)}.`,
  'Descriptor members take an Ed-Fi code value or its URI. Unknown members are refused.',
].join(' ');

/** One row through its adapter: field errors are named records.<index>.<field>. */
export function adaptRow(
  adapter: AdapterName,
  row: unknown,
  index: number,
): { value?: Normalized; errors: FieldError[] } {
  const field = `records.${index}`;
  if (row === null || typeof row !== 'object' || Array.isArray(row)) {
    return { errors: [{ field, message: 'a record is a JSON object' }] };
  }
  const derived = Object.keys(row).filter((key) => DERIVED.has(key));
  if (derived.length > 0) {
    return {
      errors: derived.map((key) => ({
        field: `${field}.${key}`,
        message: 'caller-derived field: the server derives it',
      })),
    };
  }
  const shape: Adapter['row'] = ADAPTERS[adapter].row;
  const parsed = (typeof shape === 'function' ? shape(row) : shape).safeParse(row);
  if (!parsed.success) {
    return {
      errors: fieldErrorsOf(parsed.error).map((error) => ({
        field:
          error.field === '(body)'
            ? field
            : error.field
                .split(', ')
                .map((part) => `${field}.${part}`)
                .join(', '),
        message: error.message,
      })),
    };
  }
  return { value: (ADAPTERS[adapter].normalize as (row: unknown) => Normalized)(parsed.data), errors: [] };
}
