import { z } from 'zod';
import { isTimestamp, nullMeansAbsent, uuidRef } from '../../../platform/validation.ts';
import { CONTENT_KINDS } from '../../../platform/contract.ts';
import { expectedXp, siblingPosition } from '../components/components.schema.ts';

/**
 * The source ingest request: the spec's `records[]`, each naming its `source_table`, or the same
 * rows grouped by table (`courses`, `course_components`, `component_resources`), as CDF/OneRoster
 * style exports ship them. Columns are the spec's snake_case names; the OneRoster camelCase
 * spellings (sourcedId, courseSourcedId, sortOrder ...) are accepted as the same columns.
 */

export const SOURCE_TABLES = ['courses', 'course_components', 'component_resources'] as const;
export type SourceTable = (typeof SOURCE_TABLES)[number];

const sourcedId = z.string().trim().min(1).max(500);
/**
 * A count or an order: a JSON number, or a CSV cell of decimal digits. z.coerce read ' ' as 0, '0x10' as 16,
 * '1e2' as 100 and true as 1, and stored them as if sent.
 */
const cellNumber = z.union([z.number(), z.string().regex(/^\d+$/, 'decimal digits').transform(Number)]);
const order = cellNumber.pipe(siblingPosition);
const xp = cellNumber.pipe(expectedXp);

/** OneRoster 1.2 grade codes and plain numbers, to the numeric grade levels routing uses. */
const GRADE_CODES: Record<string, number> = { PK: -1, PREK: -1, KG: 0, K: 0 };
export function gradeLevelOf(grade: string): number | undefined {
  const code = grade.trim().toUpperCase();
  if (code in GRADE_CODES) return GRADE_CODES[code];
  if (!/^\d{1,2}$/.test(code)) return undefined;
  const level = Number(code);
  return level >= 1 && level <= 12 ? level : undefined;
}

const grades = z
  .union([
    z.array(z.string()),
    z.string().transform((value) => value.split(/[,;|]/).filter((grade) => grade.trim() !== '')),
  ])
  .pipe(z.array(z.string().refine((grade) => gradeLevelOf(grade) !== undefined, 'a grade code: PK, KG, K or 1..12')));

const kcCluster = z
  .union([z.array(uuidRef()), z.string().transform((value) => value.split(/[,;|\s]+/).filter((id) => id !== ''))])
  .pipe(z.array(uuidRef()).min(1, "the producer's KC cluster is non-empty when sent"));

/**
 * OneRoster's bookkeeping columns, which its every row carries: read, not stored (a component keeps its own
 * timestamps). A row marked for deletion is refused rather than ingested as if active.
 */
const rosterBookkeeping = {
  status: z
    .enum(['active'], { error: "'active' or empty: ingest does not delete; retire the component instead" })
    .optional(),
  date_last_modified: z.string().refine(isTimestamp, 'an RFC 3339 timestamp with an offset').optional(),
};

const codes = z.union([z.string().max(500), z.array(z.string().max(500)).max(100)]);

export const CourseRow = z
  .object({
    source_table: z.literal('courses').optional(),
    sourced_id: sourcedId,
    title: z.string().trim().min(1).max(500),
    subject: z
      .string({ error: 'one subject: a course has one alpha.subject_id, so a list of several is not read' })
      .min(1)
      .optional(),
    grades: grades.optional(),
    total_xp: xp.optional(),
    ...rosterBookkeeping,
    // OneRoster's course columns with no place on a course component: read, not stored.
    org_sourced_id: sourcedId.optional(),
    school_year_sourced_id: sourcedId.optional(),
    course_code: z.string().max(500).optional(),
    subject_codes: codes.optional(),
  })
  .strict();

const COMPONENT_KINDS = ['unit', 'lesson', 'practice', 'review'] as const;

export const CourseComponentRow = z
  .object({
    source_table: z.literal('course_components').optional(),
    sourced_id: sourcedId,
    course_sourced_id: sourcedId,
    parent_sourced_id: sourcedId.optional().describe('Enclosing course component; the course when absent'),
    title: z.string().trim().min(1).max(500),
    component_kind: z.enum(COMPONENT_KINDS).optional().describe('unit when absent'),
    sort_order: order,
    scope_kc_refs: kcCluster.optional(),
    ...rosterBookkeeping,
  })
  .strict();

export const ComponentResourceRow = z
  .object({
    source_table: z.literal('component_resources').optional(),
    sourced_id: sourcedId,
    course_component_sourced_id: sourcedId,
    resource_sourced_id: sourcedId.optional().describe("The producer's resource id (provenance)"),
    title: z.string().trim().min(1).max(500),
    component_kind: z.enum(['lesson', 'practice', 'review']).optional().describe('lesson when absent'),
    sort_order: order,
    scope_kc_refs: kcCluster.optional(),
    expected_xp: xp.optional(),
    content_id: uuidRef(),
    content_version_id: uuidRef(),
    content_kind: z.enum(CONTENT_KINDS),
    ...rosterBookkeeping,
  })
  .strict();

export type CourseRow = z.infer<typeof CourseRow>;
export type CourseComponentRow = z.infer<typeof CourseComponentRow>;
export type ComponentResourceRow = z.infer<typeof ComponentResourceRow>;

/** Column spellings of the standard layouts that name the spec's columns. */
const COLUMN_ALIASES: Record<string, string> = {
  sourcedId: 'sourced_id',
  courseSourcedId: 'course_sourced_id',
  course_id: 'course_sourced_id',
  courseId: 'course_sourced_id',
  parentSourcedId: 'parent_sourced_id',
  courseComponentSourcedId: 'course_component_sourced_id',
  resourceSourcedId: 'resource_sourced_id',
  sortOrder: 'sort_order',
  position: 'sort_order',
  componentKind: 'component_kind',
  scopeKcRefs: 'scope_kc_refs',
  totalXp: 'total_xp',
  expectedXp: 'expected_xp',
  contentId: 'content_id',
  contentVersionId: 'content_version_id',
  contentKind: 'content_kind',
  sourceTable: 'source_table',
  subjects: 'subject',
  dateLastModified: 'date_last_modified',
  orgSourcedId: 'org_sourced_id',
  schoolYearSourcedId: 'school_year_sourced_id',
  courseCode: 'course_code',
  subjectCodes: 'subject_codes',
};

/** A row with its columns under the spec's names (a column sent twice under two names keeps the first). */
export function canonicalColumns(row: unknown): unknown {
  if (!row || typeof row !== 'object' || Array.isArray(row)) return row;
  const canonical: Record<string, unknown> = {};
  for (const [column, value] of Object.entries(row)) {
    const name = COLUMN_ALIASES[column] ?? column;
    if (!(name in canonical) && value !== null && value !== '')
      // OneRoster's subjects is a list; a course has one alpha.subject_id, so only a list of one is read as it.
      canonical[name] = Array.isArray(value) && name === 'subject' && value.length === 1 ? value[0] : value;
  }
  return canonical;
}

export const ROW_SCHEMAS = {
  courses: CourseRow,
  course_components: CourseComponentRow,
  component_resources: ComponentResourceRow,
} as const;
const rowsOf = (tables: SourceTable[]) =>
  z
    .array(z.unknown())
    .max(5000)
    .describe(
      `Rows (objects; an empty string or null is an absent cell). ${tables
        .map((table) => `A ${table} row's columns: ${Object.keys(ROW_SCHEMAS[table].shape).join(', ')}.`)
        .join(' ')} The same columns are also read under ${Object.entries(COLUMN_ALIASES)
        .map(([alias, column]) => `${alias} (${column})`)
        .join(', ')}. Any other column is refused.`,
    );

export const IngestInput = nullMeansAbsent(
  z
    .object({
      source_system: z.string().trim().min(1).max(100),
      producer_batch_id: z.string().trim().min(1).max(200),
      records: rowsOf([...SOURCE_TABLES]).optional(),
      courses: rowsOf(['courses']).optional(),
      course_components: rowsOf(['course_components']).optional(),
      component_resources: rowsOf(['component_resources']).optional(),
    })
    .strict(),
).refine((input) => [input.records, input.courses].some((list) => list !== undefined), {
  message: 'send records[] or the grouped courses, course_components and component_resources rows',
  path: ['records'],
});
export type IngestInput = z.infer<typeof IngestInput>;
