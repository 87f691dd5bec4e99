import { z } from 'zod';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from './cursor.ts';
import { DomainError, type FieldError, type ProblemCode } from './errors.ts';

/**
 * Every input is parsed by one zod schema, in the service, so REST and GraphQL refuse the same
 * things with the same field errors. The same schema documents the REST path in OpenAPI.
 */
export function parseInput<S extends z.ZodType>(
  schema: S,
  input: unknown,
  code: ProblemCode = 'validation_failed',
): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw new DomainError(code, 'The request has invalid fields.', { fieldErrors: fieldErrorsOf(result.error) });
}

export function fieldErrorsOf(error: z.ZodError): FieldError[] {
  return error.issues.flatMap((issue) => {
    const field = issue.path.map(String).join('.') || '(body)';
    if (issue.code === 'unrecognized_keys') {
      // one entry per key, so a form can mark each field the client sent
      return issue.keys.map((key) => ({
        field: field === '(body)' ? key : `${field}.${key}`,
        message: 'unknown field',
      }));
    }
    return [{ field, message: issue.message }];
  });
}

/** A query-string boolean: only the literal words true and false. */
export const queryBoolean = z.enum(['true', 'false']).transform((value) => value === 'true');

/** A number as a query string writes one: digits, a sign, a decimal fraction (which the integer check refuses). */
const DECIMAL = /^-?\d+(?:\.\d+)?$/;

/** A query-string integer within bounds, written in decimal digits (GraphQL hands over a number). */
export function queryInteger(min: number, max?: number) {
  const base = z.coerce.number().int().min(min);
  const bounded = max === undefined ? base : base.max(max);
  // Number() reads '' as 0 (`limit=` answered an empty page as if there were nothing) and ' 5', '0x10' or '1e2' as
  // numbers; anything but decimal digits becomes NaN, refused as no number.
  return z.preprocess((value) => (typeof value === 'string' && !DECIMAL.test(value) ? Number.NaN : value), bounded);
}

const CALENDAR_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-](\d{2}):(\d{2}))$/;

const isLeapYear = (year: number) => year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);

/**
 * Year 1 to 9999, and a day its month has. Date.parse alone lets through days a month lacks (it reads 2024-02-30 as
 * March 1) and the year 0, which PostgreSQL refuses: a database error, answered 500.
 */
function dayExists(year: number, month: number, day: number): boolean {
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
  const days =
    month === 2 ? (isLeapYear(year) ? 29 : 28) : month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
  return day <= days;
}

/** Whether YYYY-MM-DD names a day the calendar has. */
export function isCalendarDay(value: string): boolean {
  const parts = CALENDAR_DAY.exec(value);
  return parts !== null && dayExists(Number(parts[1]), Number(parts[2]), Number(parts[3]));
}

const inYears1To9999 = (instant: Date) => instant.getUTCFullYear() >= 1 && instant.getUTCFullYear() <= 9999;

/**
 * An RFC 3339 timestamp with an offset, every part in range: Date.parse would read 2024-02-30T10:00Z as March 1
 * and 24:00 as the next day, and the event would be stored at a time the client never sent. The instant too is
 * of the years 1 to 9999 in UTC: 0001-01-01T00:00+01:00 is in the year 0 and 9999-12-31T23:00-05:00 in 10000,
 * which PostgreSQL refuses (a database error, answered 500).
 */
export function isTimestamp(value: string): boolean {
  const parts = TIMESTAMP.exec(value);
  if (parts === null) return false;
  const [, year, month, day, hours, minutes, seconds = '0', offsetHours = '0', offsetMinutes = '0'] = parts;
  return (
    dayExists(Number(year), Number(month), Number(day)) &&
    Number(hours) < 24 &&
    Number(minutes) < 60 &&
    Number(seconds) < 60 &&
    Number(offsetHours) < 24 &&
    Number(offsetMinutes) < 60 &&
    // An offset moves an instant by less than a day: only the years 1 and 9999 can leave the range.
    ((year !== '0001' && year !== '9999') || inYears1To9999(new Date(value)))
  );
}

/**
 * A list filter's instant (`updated_since`, `modifiedSince`): RFC 3339 with an offset. Zod's check already refuses
 * a day a month lacks, but not the year 0, which PostgreSQL refuses (a database error, answered 500): the calendar's
 * own rule judges the day.
 */
export function queryInstant() {
  return z.iso
    .datetime({ offset: true })
    .refine((value) => isCalendarDay(value.slice(0, 10)), 'the year must be 1 to 9999');
}

/**
 * The members a list's query shares, described once, so every list's OpenAPI says the same about them. `limit` takes
 * 0 (an empty page, as docs/decisions.md's paging envelope says); events' `pageSize` starts at 1.
 */
export const listQueryMembers = {
  cursor: z
    .string()
    .min(1)
    .describe("The previous page's next cursor, with the same filters; omit for the first page")
    .optional(),
  limit: queryInteger(0, MAX_PAGE_SIZE)
    .describe(`Rows per page, 0 to ${MAX_PAGE_SIZE}; ${DEFAULT_PAGE_SIZE} when omitted`)
    .optional(),
  pageSize: queryInteger(1, MAX_PAGE_SIZE)
    .describe(`Rows per page, 1 to ${MAX_PAGE_SIZE}; ${DEFAULT_PAGE_SIZE} when omitted`)
    .optional(),
  updated_since: queryInstant()
    .describe('Only rows updated at or after this RFC 3339 instant, offset required')
    .optional(),
  includeRetired: queryBoolean.describe('true lists retired rows too; active ones only when omitted').optional(),
  order: z.enum(['asc', 'desc']).describe('Sort direction; asc when omitted').optional(),
};

/** A calendar date YYYY-MM-DD that exists. */
export function calendarDate() {
  return z.string().regex(CALENDAR_DAY, 'expected a date YYYY-MM-DD').refine(isCalendarDay, 'not a calendar date');
}

/**
 * A link a browser will open or fetch: absolute http(s) only (no javascript:, data: or file:), and
 * no longer than browsers and proxies reliably carry.
 */
export function webUrl() {
  return z.url({ protocol: /^https?$/ }).max(2048);
}

const POSTGRES_UTC_TIMESTAMP = /^([1-9]\d{3}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})(?:\.(\d{1,6}))?\+00(?::00)?$/;
const ISO_UTC_MILLISECONDS = /^[1-9]\d{3}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** Timestamps leave the platform as ISO 8601 with a Z offset, whatever the driver returned. */
export function isoTimestamp(value: string): string;
export function isoTimestamp(value: string | null): string | null;
export function isoTimestamp(value: string | null): string | null {
  if (value === null) return null;
  // PostgreSQL's text or json form in a UTC session, rewritten without building a Date (every read pays this).
  const utc = POSTGRES_UTC_TIMESTAMP.exec(value);
  if (utc) return `${utc[1]}T${utc[2]}.${(utc[3] ?? '').padEnd(3, '0').slice(0, 3)}Z`;
  // Already the form `toISOString` gives (a value the platform wrote): building a Date again cost a write 3% of its CPU.
  if (ISO_UTC_MILLISECONDS.test(value)) return value;
  return new Date(value).toISOString();
}

/**
 * A uuid a client names, in its canonical lower-case form: uuids are case-insensitive (RFC 9562), the
 * database answers them in lower case, and references kept in JSON or compared in code must match those.
 */
export function uuidRef() {
  return z.uuid().overwrite((value) => value.toLowerCase());
}

const uuid = z.uuid();
/** Whether an id from a path or a batch can name a row at all (uuid columns refuse anything else). */
export function isUuid(value: string): boolean {
  return uuid.safeParse(value).success;
}

/** An id as the database answers it: a uuid in lower case (uuids are case-insensitive), anything else as sent. */
export function idAsStored(id: string): string {
  return isUuid(id) ? id.toLowerCase() : id;
}

/**
 * A create body whose optional members take an explicit null as the member left out (many clients serialize a value
 * they lack as null; a PATCH takes null as "clear", and on a create there is nothing to clear). A required member,
 * and one whose own schema gives null a meaning, keep their rule. The OpenAPI describes each such member as nullable.
 * The members are only made nullable and one pass over the parsed object replaces their nulls: a transform on each
 * member took zod off its compiled object parse (120 us a batch of ten events, against 7).
 */
export function nullMeansAbsent<S extends z.ZodObject>(schema: S): S {
  const leftOut: Record<string, z.ZodType> = {};
  for (const [name, member] of Object.entries(schema.shape as Record<string, z.ZodType>)) {
    if (member.safeParse(undefined).success && !member.safeParse(null).success) leftOut[name] = member;
  }
  const names = Object.keys(leftOut);
  const members = Object.fromEntries(
    names.map((name) => {
      const member = leftOut[name];
      // The description stays on the member itself, where the OpenAPI and its readers find it.
      return [name, member.description ? member.nullable().describe(member.description) : member.nullable()];
    }),
  );
  return schema.extend(members).overwrite((parsed: Record<string, unknown>) => {
    for (const name of names) {
      if (parsed[name] !== null) continue;
      const absent = leftOut[name].parse(undefined);
      if (absent === undefined) delete parsed[name];
      else parsed[name] = absent;
    }
    return parsed;
  }) as unknown as S;
}
