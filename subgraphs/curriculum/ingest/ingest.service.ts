import { tenantRows } from '../../../platform/tenant-rows.ts';
import { createHash, randomUUID } from 'node:crypto';
import type { Database } from '../../../platform/db.ts';
import { lockKey } from '../../../platform/db.ts';
import type { RequestContext } from '../../../platform/context.ts';
import { requireAccess } from '../../../platform/auth.ts';
import { DomainError, type FieldError } from '../../../platform/errors.ts';
import { canonicalJson, requestHash, type CommandResult } from '../../../platform/idempotency.ts';
import { isoTimestamp, isUuid, parseInput } from '../../../platform/validation.ts';
import type { z } from 'zod';
import { ACCESS } from '../access.ts';
import { components, sourceIngestJobs } from '../tables.ts';
import { currentPin, recordPinChange, requirePinMayMove } from '../pins.ts';
import { lockContainment, placeChild, syncEdgeSequence } from '../containment.ts';
import { RENDERER_REGISTRY } from '../renderers.ts';
import type { TargetRef } from '../content-client.ts';
import { filterColumnsOf } from '../components/components.service.ts';
import type { CurriculumDeps } from '../deps.ts';
import {
  ROW_SCHEMAS,
  type ComponentResourceRow,
  type CourseComponentRow,
  type CourseRow,
  IngestInput,
  SOURCE_TABLES,
  canonicalColumns,
  gradeLevelOf,
  type SourceTable,
} from './ingest.schema.ts';
import { findChildren, lockComponent, requireActiveKcs } from '../queries.ts';

/**
 * Vendor course ingest (rule 14). Source rows become one curriculum tree per course: every pin's
 * exact version is release eligible before anything is written; identities are derived from
 * (source_system, source table, sourced_id), so a retry of the same run lands on the same
 * components; rows are staged as draft, the whole tree is read back and compared, then published
 * bottom-up with the course root last, all in one transaction: any failure leaves nothing.
 */

type IngestDeps = Pick<CurriculumDeps, 'db' | 'content'>;

/** Reading an ingest job: curriculum:read, or the import scope that started it. */
export const INGEST_JOB_ACCESS = { anyOf: [ACCESS.read, ACCESS.import] };

/** One source row as a component to stage. */
interface PlannedNode {
  table: SourceTable;
  field: string;
  sourcedId: string;
  componentId: string;
  kind: string;
  parentComponentId: string | null;
  position: number | null;
  name: string;
  /** The alpha it is staged with (publication_status draft). */
  alpha: Record<string, unknown>;
  courseSourcedId: string;
  depth: number;
}

/** Deterministic identity of a source row: same producer, table and sourced_id, same component. */
export function ingestComponentId(sourceSystem: string, table: SourceTable, sourcedId: string): string {
  return `src-${createHash('sha256').update(`${sourceSystem}\u0000${table}\u0000${sourcedId}`).digest('hex').slice(0, 40)}`;
}

type ParsedRows = {
  courses: Array<{ field: string; row: CourseRow }>;
  course_components: Array<{ field: string; row: CourseComponentRow }>;
  component_resources: Array<{ field: string; row: ComponentResourceRow }>;
};

/** Every row of either layout, shape-checked, with the field path a problem names it by. */
function parseRows(input: IngestInput): ParsedRows {
  const parsed: ParsedRows = { courses: [], course_components: [], component_resources: [] };
  const errors: FieldError[] = [];
  const take = (table: SourceTable | undefined, raw: unknown, field: string) => {
    if (!table || !SOURCE_TABLES.includes(table)) {
      errors.push({ field: `${field}.source_table`, message: `one of ${SOURCE_TABLES.join(', ')}` });
      return;
    }
    const result = (ROW_SCHEMAS[table] as z.ZodType).safeParse(canonicalColumns(raw));
    if (!result.success) {
      for (const issue of result.error.issues)
        errors.push({ field: [field, ...issue.path].join('.'), message: issue.message });
      return;
    }
    (parsed[table] as Array<{ field: string; row: unknown }>).push({ field, row: result.data });
  };
  (input.records ?? []).forEach((raw, index) =>
    take((canonicalColumns(raw) as { source_table?: SourceTable })?.source_table, raw, `records.${index}`),
  );
  for (const table of SOURCE_TABLES)
    (input[table] ?? []).forEach((raw, index) =>
      take(table, { source_table: table, ...(raw as object) }, `${table}.${index}`),
    );
  if (errors.length > 0)
    throw new DomainError('validation_failed', 'Some source rows are not acceptable; nothing was written.', {
      fieldErrors: errors,
    });
  return parsed;
}

function courseAlpha(row: CourseRow): Record<string, unknown> {
  const levels = [...new Set((row.grades ?? []).map((grade) => gradeLevelOf(grade) as number))].sort((a, b) => a - b);
  return {
    publication_status: 'draft',
    source_course_ref: row.sourced_id,
    ...(row.subject ? { subject_id: row.subject } : {}),
    ...(levels.length > 0
      ? { course_grade_mode: levels.length === 1 ? 'single_grade' : 'multi_grade', course_grade_levels: levels }
      : {}),
    ...(row.total_xp !== undefined ? { expected_xp: row.total_xp } : {}),
  };
}

function rendererFor(contentKind: string): string | undefined {
  return RENDERER_REGISTRY.find((renderer) => renderer.content_kinds.includes(contentKind))?.renderer_ref;
}

/** The trees the rows describe, top-down; references and parents are checked before any I/O. */
function planTrees(sourceSystem: string, rows: ParsedRows): PlannedNode[] {
  const errors: FieldError[] = [];
  const idOf = (table: SourceTable, sourcedId: string) => ingestComponentId(sourceSystem, table, sourcedId);
  const nodes = new Map<string, PlannedNode>();
  const add = (node: PlannedNode) => {
    const earlier = nodes.get(node.componentId);
    if (!earlier) return void nodes.set(node.componentId, node);
    if (earlier.parentComponentId !== node.parentComponentId) {
      throw new DomainError(
        'curriculum:second_parent',
        `${node.table} row ${node.sourcedId} is placed under two parents; nothing was written.`,
        {
          fieldErrors: [{ field: `${node.field}.sourced_id`, message: `also placed by ${earlier.field}` }],
        },
      );
    }
    errors.push({ field: `${node.field}.sourced_id`, message: `repeats ${earlier.field}` });
  };
  const courses = new Map(rows.courses.map(({ row }) => [row.sourced_id, row]));
  for (const { field, row } of rows.courses) {
    add({
      table: 'courses',
      field,
      sourcedId: row.sourced_id,
      componentId: idOf('courses', row.sourced_id),
      kind: 'course',
      parentComponentId: null,
      position: null,
      name: row.title,
      alpha: courseAlpha(row),
      courseSourcedId: row.sourced_id,
      depth: 0,
    });
  }
  const unitRows = new Map(rows.course_components.map((entry) => [entry.row.sourced_id, entry]));
  const depthOf = new Map<string, number>();
  const depth = (sourcedId: string, seen: Set<string> = new Set()): number => {
    const known = depthOf.get(sourcedId);
    if (known !== undefined) return known;
    const entry = unitRows.get(sourcedId) as { row: CourseComponentRow };
    const parent = entry.row.parent_sourced_id;
    if (parent === undefined || !unitRows.has(parent) || seen.has(parent)) return 1;
    const value = depth(parent, new Set([...seen, sourcedId])) + 1;
    depthOf.set(sourcedId, value);
    return value;
  };
  for (const { field, row } of rows.course_components) {
    const course = courses.get(row.course_sourced_id);
    if (!course)
      errors.push({
        field: `${field}.course_sourced_id`,
        message: 'no courses row with this sourced_id in the request',
      });
    const parent = row.parent_sourced_id === undefined ? undefined : unitRows.get(row.parent_sourced_id);
    if (row.parent_sourced_id !== undefined && (!parent || parent.row.course_sourced_id !== row.course_sourced_id)) {
      errors.push({
        field: `${field}.parent_sourced_id`,
        message: 'no course_components row of the same course with this sourced_id',
      });
    }
    if (!course) continue;
    add({
      table: 'course_components',
      field,
      sourcedId: row.sourced_id,
      componentId: idOf('course_components', row.sourced_id),
      kind: row.component_kind ?? 'unit',
      parentComponentId: parent ? idOf('course_components', parent.row.sourced_id) : idOf('courses', course.sourced_id),
      position: row.sort_order,
      name: row.title,
      courseSourcedId: course.sourced_id,
      depth: depth(row.sourced_id),
      alpha: {
        publication_status: 'draft',
        source_course_ref: course.sourced_id,
        ...(course.subject ? { subject_id: course.subject } : {}),
        ...(row.scope_kc_refs ? { scope_kc_refs: row.scope_kc_refs } : {}),
      },
    });
  }
  for (const { field, row } of rows.component_resources) {
    const unit = unitRows.get(row.course_component_sourced_id);
    if (!unit) {
      errors.push({
        field: `${field}.course_component_sourced_id`,
        message: 'no course_components row with this sourced_id in the request',
      });
      continue;
    }
    const course = courses.get(unit.row.course_sourced_id);
    if (!course) continue;
    const renderer = rendererFor(row.content_kind);
    add({
      table: 'component_resources',
      field,
      sourcedId: row.sourced_id,
      componentId: idOf('component_resources', row.sourced_id),
      kind: row.component_kind ?? 'lesson',
      parentComponentId: idOf('course_components', unit.row.sourced_id),
      position: row.sort_order,
      name: row.title,
      courseSourcedId: course.sourced_id,
      depth: depth(unit.row.sourced_id) + 1,
      alpha: {
        publication_status: 'draft',
        source_course_ref: course.sourced_id,
        ...(course.subject ? { subject_id: course.subject } : {}),
        ...(row.scope_kc_refs ? { scope_kc_refs: row.scope_kc_refs } : {}),
        ...(row.expected_xp !== undefined ? { expected_xp: row.expected_xp } : {}),
        target_ref: {
          module: 'content',
          content_kind: row.content_kind,
          content_id: row.content_id,
          content_version_id: row.content_version_id,
        },
        ...(renderer ? { renderer_ref: renderer } : {}),
      },
    });
  }
  for (const entry of rows.course_components) {
    if (hasCycle(entry.row.sourced_id, unitRows))
      errors.push({ field: `${entry.field}.parent_sourced_id`, message: 'would make a containment loop' });
  }
  if (errors.length > 0)
    throw new DomainError('validation_failed', 'The source rows do not describe a tree; nothing was written.', {
      fieldErrors: errors,
    });
  return [...nodes.values()].sort((a, b) => a.depth - b.depth);
}

function hasCycle(start: string, unitRows: Map<string, { row: CourseComponentRow }>): boolean {
  const seen = new Set<string>([start]);
  for (
    let at = unitRows.get(start)?.row.parent_sourced_id;
    at !== undefined;
    at = unitRows.get(at)?.row.parent_sourced_id
  ) {
    if (seen.has(at)) return true;
    seen.add(at);
  }
  return false;
}

const targetOf = (node: PlannedNode) => node.alpha.target_ref as TargetRef | undefined;

/** Every distinct pin must be release eligible now; a refusal names the first row that carries it. */
async function requireEligiblePins(deps: IngestDeps, ctx: RequestContext, nodes: PlannedNode[]): Promise<void> {
  const checked = new Set<string>();
  for (const node of nodes) {
    const target = targetOf(node);
    if (!target || checked.has(target.content_version_id)) continue;
    checked.add(target.content_version_id);
    try {
      await deps.content.requireEligible(ctx, target);
    } catch (error) {
      if (!(error instanceof DomainError) || error.code !== 'curriculum:target_not_serveable') throw error;
      throw new DomainError(error.code, `${error.message} (${node.field}); nothing was written.`, {
        fieldErrors: [
          {
            field: `${node.field}.content_version_id`,
            message: error.fieldErrors?.[0]?.message ?? 'not release eligible',
          },
        ],
        extensions: { ...error.extensions, source_table: node.table, sourced_id: node.sourcedId },
      });
    }
  }
}

type Outcome = 'created' | 'unchanged' | 'updated' | 'reactivated';
type JobRow = typeof sourceIngestJobs.$inferSelect;

/** A course of a job as stored in its `courses` column. */
export interface IngestedCourse {
  sourced_id: string;
  component_id: string;
  routable: boolean;
  anchor_reason: string | null;
}

/** One source row's outcome as stored in the job's `rows` column. */
export interface IngestRowOutcome {
  source_table: SourceTable;
  sourced_id: string;
  field: string;
  component_id: string;
  kind: string;
  parent_component_id: string | null;
  outcome: Outcome;
}

function presentJob(job: JobRow) {
  return {
    job_id: job.jobId,
    source_system: job.sourceSystem,
    producer_batch_id: job.producerBatchId,
    status: job.status,
    courses: job.courses as IngestedCourse[],
    rows: job.rows as IngestRowOutcome[],
    created_by: job.createdBy,
    created_at: isoTimestamp(job.createdAt),
  };
}
export type SourceIngestJob = ReturnType<typeof presentJob>;

const definitionOf = (node: { kind: string; name: string | null; position: number | null; alpha: unknown }) =>
  canonicalJson({
    kind: node.kind,
    name: node.name,
    position: node.position,
    alpha: { ...(node.alpha as object), publication_status: null },
  });

/**
 * Stages one node as draft; refuses a parent replacement. A component the retirement of its parent left as a root
 * has no parent to replace: it is placed under the one its row names, as a retired one is.
 */
async function stage(tx: Database, ctx: RequestContext, node: PlannedNode): Promise<Outcome> {
  const existing = await lockComponent(tx, ctx.tenantId, node.componentId);
  const placed = existing?.status === 'active' && existing.parentComponentId !== null;
  if (placed && existing.parentComponentId !== node.parentComponentId) {
    throw new DomainError(
      'curriculum:ingest_parent_conflict',
      `Component ${node.componentId} already sits under ${existing.parentComponentId}; an ingest never replaces a parent. Nothing was written.`,
      {
        fieldErrors: [{ field: `${node.field}.sourced_id`, message: 'already ingested under another parent' }],
      },
    );
  }
  const detached = existing?.status === 'active' && !placed && node.parentComponentId !== null;
  if (existing?.status === 'active' && !detached && definitionOf(existing) === definitionOf(node)) return 'unchanged';
  if (existing?.status === 'active') requirePinMayMove(existing, targetOf(node));
  const now = ctx.now.toISOString();
  if (node.parentComponentId && (existing?.status !== 'active' || detached))
    await placeChild(tx, ctx, node.componentId, node.parentComponentId, node.position ?? undefined);
  else if (node.parentComponentId && node.position !== null)
    await syncEdgeSequence(tx, ctx, node.componentId, node.position);
  const values = {
    kind: node.kind,
    parentComponentId: node.parentComponentId,
    position: node.position,
    name: node.name,
    alpha: node.alpha,
    ...filterColumnsOf(node.alpha),
    status: 'active',
    updatedAt: now,
    retiredAt: null,
  };
  if (existing) {
    await tx
      .update(components)
      .set({ ...values, version: existing.version + 1 })
      .where(tenantRows(components, ctx.tenantId, { componentId: node.componentId }));
  } else {
    await tx
      .insert(components)
      .values({ ...values, tenantId: ctx.tenantId, componentId: node.componentId, version: 1, createdAt: now });
  }
  await recordPinChange(tx, ctx, {
    componentId: node.componentId,
    operation: 'ingest',
    previous: existing ? currentPin(existing) : undefined,
    target: targetOf(node),
  });
  return existing ? (existing.status === 'active' ? 'updated' : 'reactivated') : 'created';
}

/** The staged trees as the database now holds them must be exactly the planned nodes. */
async function verifyReadback(tx: Database, ctx: RequestContext, nodes: PlannedNode[]): Promise<void> {
  const expected = new Map(nodes.map((node) => [node.componentId, node]));
  const found = new Set<string>();
  let level = nodes.filter((node) => node.parentComponentId === null).map((node) => node.componentId);
  while (level.length > 0) {
    const children = await findChildren(tx, ctx.tenantId, level, false);
    level = [];
    for (const [parentId, list] of children) {
      for (const child of list) {
        const node = expected.get(child.component_id);
        if (!node) continue;
        if (node.parentComponentId !== parentId || definitionOf(child) !== definitionOf(node)) {
          throw new DomainError(
            'curriculum:ingest_readback_mismatch',
            `Component ${child.component_id} read back differently than staged; nothing was written.`,
          );
        }
        found.add(child.component_id);
        level.push(child.component_id);
      }
    }
  }
  const missing = nodes.filter((node) => node.parentComponentId !== null && !found.has(node.componentId));
  if (missing.length > 0) {
    throw new DomainError(
      'curriculum:ingest_readback_mismatch',
      `${missing.length} staged component(s) are not in their course tree; nothing was written.`,
    );
  }
}

/** Deepest first, course roots last. */
async function publishBottomUp(tx: Database, ctx: RequestContext, nodes: PlannedNode[]): Promise<void> {
  const order = [...nodes].sort((a, b) => b.depth - a.depth);
  for (const node of order) {
    const row = await lockComponent(tx, ctx.tenantId, node.componentId);
    if (!row || row.publicationStatus === 'published') continue;
    const alpha = { ...(row.alpha as object), publication_status: 'published' };
    await tx
      .update(components)
      .set({ alpha, publicationStatus: 'published', version: row.version + 1, updatedAt: ctx.now.toISOString() })
      .where(tenantRows(components, ctx.tenantId, { componentId: node.componentId }));
  }
}

/**
 * Whether routing can ever start in the course: it needs a KC-scoped content-bearing descendant.
 * Anything else is a valid anchor that next-lesson refuses with curriculum:lesson_structure_missing.
 */
function courseSummaries(nodes: PlannedNode[]) {
  return nodes
    .filter((node) => node.kind === 'course')
    .map((course) => {
      const inCourse = nodes.filter((node) => node.courseSourcedId === course.sourcedId && node !== course);
      const resources = inCourse.filter((node) => node.table === 'component_resources');
      const scoped = resources.filter((node) => ((node.alpha.scope_kc_refs as string[] | undefined) ?? []).length > 0);
      const anchorReason =
        inCourse.length === 0
          ? 'reference_only'
          : resources.length === 0
            ? 'source_empty'
            : scoped.length === 0
              ? 'kc_unscoped'
              : null;
      return {
        sourced_id: course.sourcedId,
        component_id: course.componentId,
        routable: anchorReason === null,
        anchor_reason: anchorReason,
      };
    });
}

async function findJob(
  db: Database,
  tenantId: string,
  sourceSystem: string,
  batchId: string,
): Promise<JobRow | undefined> {
  const [job] = await db
    .select()
    .from(sourceIngestJobs)
    .where(tenantRows(sourceIngestJobs, tenantId, { sourceSystem, producerBatchId: batchId }));
  return job;
}

/** A stored run of the same batch: its job when the request is the same, a conflict otherwise. */
function sameRun(job: JobRow, digest: string): CommandResult<SourceIngestJob> {
  if (job.requestSha256 !== digest) {
    throw new DomainError(
      'curriculum:ingest_batch_conflict',
      `Batch ${job.producerBatchId} of ${job.sourceSystem} was ingested with other rows; send a new producer_batch_id.`,
    );
  }
  return { value: presentJob(job), created: false, replayed: true };
}

/** POST /ingest/vendor-course-refs. */
export async function ingestVendorCourse(
  deps: IngestDeps,
  ctx: RequestContext,
  { body: rawInput }: { body: unknown },
): Promise<CommandResult<SourceIngestJob>> {
  requireAccess(ctx.principal, ACCESS.import, 'ingest vendor courses');
  const input = parseInput(IngestInput, rawInput);
  const digest = requestHash(rawInput);
  const stored = await findJob(deps.db, ctx.tenantId, input.source_system, input.producer_batch_id);
  if (stored) return sameRun(stored, digest);
  const nodes = planTrees(input.source_system, parseRows(input));
  await requireEligiblePins(deps, ctx, nodes);
  return deps.db.transaction(async (tx) => {
    await lockKey(tx, `ingest|${ctx.tenantId}|${input.source_system}|${input.producer_batch_id}`);
    const raced = await findJob(tx, ctx.tenantId, input.source_system, input.producer_batch_id);
    if (raced) return sameRun(raced, digest);
    await requireActiveKcs(
      tx,
      ctx.tenantId,
      nodes.flatMap((node) =>
        ((node.alpha.scope_kc_refs as string[] | undefined) ?? []).map((kcId, index) => ({
          kcId,
          field: `${node.field}.scope_kc_refs.${index}`,
        })),
      ),
    );
    // Containment before any component row, the order every containment writer takes.
    await lockContainment(tx, ctx.tenantId);
    const outcomes: IngestRowOutcome[] = [];
    for (const node of nodes) {
      const outcome = await stage(tx, ctx, node);
      outcomes.push({
        source_table: node.table,
        sourced_id: node.sourcedId,
        field: node.field,
        component_id: node.componentId,
        kind: node.kind,
        parent_component_id: node.parentComponentId,
        outcome,
      });
    }
    await verifyReadback(tx, ctx, nodes);
    await publishBottomUp(tx, ctx, nodes);
    const [job] = await tx
      .insert(sourceIngestJobs)
      .values({
        tenantId: ctx.tenantId,
        jobId: randomUUID(),
        sourceSystem: input.source_system,
        producerBatchId: input.producer_batch_id,
        requestSha256: digest,
        status: 'completed',
        courses: courseSummaries(nodes),
        rows: outcomes,
        createdBy: ctx.principal.subject,
        createdAt: ctx.now.toISOString(),
      })
      .returning();
    return { value: presentJob(job), created: true, replayed: false };
  });
}

/** GET /ingest/vendor-course-refs/{jobId}. */
export async function getIngestJob(
  deps: IngestDeps,
  ctx: RequestContext,
  input: { jobId: string },
): Promise<SourceIngestJob> {
  requireAccess(ctx.principal, INGEST_JOB_ACCESS, 'read source ingest jobs');
  const [job] = isUuid(input.jobId)
    ? await deps.db
        .select()
        .from(sourceIngestJobs)
        .where(tenantRows(sourceIngestJobs, ctx.tenantId, { jobId: input.jobId }))
    : [];
  if (!job) throw new DomainError('not_found', `No source ingest job ${input.jobId} in this tenant.`);
  return presentJob(job);
}
