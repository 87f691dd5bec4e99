import { tenantRows } from '../../../platform/tenant-rows.ts';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { lockKey, prepareOncePerDatabase, type Database } from '../../../platform/db.ts';
import type { RequestContext } from '../../../platform/context.ts';
import { requireAccess } from '../../../platform/auth.ts';
import { DomainError } from '../../../platform/errors.ts';

import { canonicalJson, type CommandResult } from '../../../platform/idempotency.ts';
import { judgeBeforeCall, runCommand, storedReplay } from '../../../platform/commands.ts';
import type { CommandInput } from '../rule-inputs.ts';
import { parseInput } from '../../../platform/validation.ts';
import { listRule, updatedSince } from '../lists.ts';
import { components } from '../tables.ts';
import { currentPin, insertWithPinAudit, recordPinChange } from '../pins.ts';
import { givenRow, givenRows, insertGiven } from '../../../platform/insert-with.ts';
import { groupCommit } from '../../../platform/group-commit.ts';
import type { CurriculumDeps } from '../deps.ts';
import { placeChild } from '../containment.ts';
import { resolveRenderer } from '../renderers.ts';
import { ACCESS } from '../access.ts';
import {
  personalizedCourseRefusals,
  personalizedCoursesCondition,
  requireCommandInBoundary,
  requirePersonalizedCourseInBoundary,
} from '../learner-boundary.ts';
import { ComponentInput, ListComponentsQuery, TreeQuery } from './components.schema.ts';
import {
  componentNotFound,
  descendantsOf,
  findChildren,
  findComponentRows,
  findComponents,
  lockComponent,
  presentComponent,
  requireActiveKcs,
  requireImportedFrameworks,
  type Component,
  type ComponentRow,
} from '../queries.ts';

/**
 * Curriculum components. Invariants: a pin is accepted only after content answered that exact
 * version is release eligible, asked after the shape check and before the write transaction, so a
 * refusal leaves nothing behind; every KC reference is an active registry KC of the tenant;
 * containment is one active isChildOf association per child; retired components stay readable by
 * id but leave lists and trees unless includeRetired is asked for.
 */

/** A mastery_gate not (yet) published: its bank pin need not be released (publishing the gate asks that). */
export const isDraftGate = (kind: string, alpha: Record<string, unknown>) =>
  kind === 'mastery_gate' && alpha.publication_status !== 'published';

export function normalizedAlpha(input: ComponentInput): Record<string, unknown> {
  const alpha: Record<string, unknown> = {
    ...input.alpha,
    publication_status: input.alpha.publication_status ?? 'draft',
  };
  const rendererNames = [input.alpha.renderer_ref, input.alpha.renderer_kind].filter(
    (name): name is string => name !== undefined,
  );
  const rows = rendererNames.map((name) => {
    const row = resolveRenderer(name);
    if (!row) throw new DomainError('curriculum:renderer_unknown', `Renderer ${name} is not in the renderer registry.`);
    return row;
  });
  if (rows.length === 2 && rows[0] !== rows[1]) {
    throw new DomainError('validation_failed', 'renderer_ref and renderer_kind name different renderers.', {
      fieldErrors: [{ field: 'alpha.renderer_kind', message: 'must resolve to the same row as renderer_ref' }],
    });
  }
  if (rows[0]) {
    alpha.renderer_ref = rows[0].renderer_ref;
    delete alpha.renderer_kind;
  }
  return alpha;
}

/** The alpha fields that list filters read, kept in columns of their own. */
export function filterColumnsOf(alpha: Record<string, unknown>) {
  return {
    publicationStatus: alpha.publication_status as string,
    subjectId: (alpha.subject_id as string | undefined) ?? null,
    sourceCourseRef: (alpha.source_course_ref as string | undefined) ?? null,
  };
}

/** Every KC and framework reference of a component: active registry KCs and imported frameworks of the tenant. */
function hasReferences(input: ComponentInput): boolean {
  const { scope_kc_refs = [], remediation_entries = [], standards_framework_refs = [] } = input.alpha;
  return scope_kc_refs.length + remediation_entries.length + standards_framework_refs.length > 0;
}

export async function assertReferences(tx: Database, ctx: RequestContext, input: ComponentInput): Promise<void> {
  await requireActiveKcs(tx, ctx.tenantId, [
    ...(input.alpha.scope_kc_refs ?? []).map((kcId, index) => ({ kcId, field: `alpha.scope_kc_refs.${index}` })),
    ...(input.alpha.remediation_entries ?? []).map((entry, index) => ({
      kcId: entry.kc_ref,
      field: `alpha.remediation_entries.${index}.kc_ref`,
    })),
  ]);
  await requireImportedFrameworks(tx, ctx.tenantId, input.alpha.standards_framework_refs ?? []);
}

/**
 * POST /components. New id: created (201). Same id, active, same request: unchanged (200).
 * Same id, retired: reactivated with an advanced version (200). Same id, active, other request: 409.
 */
export async function createComponent(
  deps: CurriculumDeps,
  ctx: RequestContext,
  { body: rawInput, idempotencyKey }: CommandInput,
): Promise<CommandResult<Component>> {
  requireAccess(ctx.principal, ACCESS.write, 'create components');
  const input = parseInput(ComponentInput, rawInput);
  requireDraftOnCreate(input);
  const alpha = normalizedAlpha(input);
  await requireCommandInBoundary(deps.db, ctx, {
    componentIds: [input.component_id, input.parent_component_id],
    studentId: input.student_id,
  });
  const call = { operation: 'components.create', key: idempotencyKey, sent: rawInput };
  const replay = await storedReplay<Component>(deps, ctx, call);
  if (replay) return replay;
  // A re-POST that can only be refused is refused before content is asked; judged again under the lock.
  const judged = await judgeBeforeCall<Component, ComponentRow | undefined>(deps, ctx, call, async () => {
    const prior = await priorRowTogether(deps.db, ctx.tenantId, input.component_id);
    if (prior) requireRepostAllowed(prior, input, alpha);
    if (input.alpha.target_ref)
      await deps.content.requireEligible(ctx, input.alpha.target_ref, { draftBank: isDraftGate(input.kind, alpha) });
    return prior;
  });
  if ('replay' in judged) return judged.replay;
  const prior = judged.judged;
  const now = ctx.now.toISOString();
  const values = (position: number | null) => ({
    kind: input.kind,
    documentId: input.document_id ?? null,
    parentComponentId: input.parent_component_id ?? null,
    position,
    name: input.name ?? null,
    humanCodingScheme: input.human_coding_scheme ?? null,
    studentId: input.student_id ?? null,
    alpha,
    ...filterColumnsOf(alpha),
    status: 'active',
    updatedAt: now,
    retiredAt: null,
  });
  const insertNew = (tx: Database, position: number | null) =>
    tx
      .insert(components)
      .values({
        ...values(position),
        tenantId: ctx.tenantId,
        componentId: input.component_id,
        version: 1,
        createdAt: now,
      })
      // The key queues a concurrent create of the same id until it commits, then says it is taken.
      .onConflictDoNothing({ target: [components.tenantId, components.componentId] })
      .returning();
  const recordPin = (tx: Database, existing: ComponentRow | undefined) =>
    recordPinChange(tx, ctx, {
      componentId: input.component_id,
      operation: 'create',
      previous: existing ? currentPin(existing) : undefined,
      target: input.alpha.target_ref,
    });
  // An id that did not exist a moment ago, with no parent to place it under: the row and its pin's
  // audit row in one statement, which is its own transaction (shared with the creates that arrive
  // meanwhile) unless references must be checked.
  const fresh: FreshComponent = {
    row: {
      ...values(input.position ?? null),
      tenantId: ctx.tenantId,
      componentId: input.component_id,
      version: 1,
      createdAt: now,
    },
    pin: input.alpha.target_ref
      ? { target: input.alpha.target_ref, actor: ctx.principal.subject, recordedAt: now }
      : null,
  };
  const createdAs = (row: ComponentRow | undefined) =>
    row && { value: presentComponent(row), created: true, replayed: false };
  const isFresh = !prior && !input.parent_component_id;
  // A keyed create runs the locked way, where its key's record is claimed in the create's transaction.
  if (isFresh && !hasReferences(input) && idempotencyKey === undefined) {
    const created = createdAs(await insertFreshTogether(deps.db, ctx.tenantId, fresh));
    if (created) return created;
  }
  return runCommand(deps, ctx, call, async (tx) => {
    await assertReferences(tx, ctx, input);
    if (isFresh && hasReferences(input)) {
      const created = createdAs((await insertFreshComponents(tx, [fresh]))[0]);
      if (created) return created;
    }
    // A row lock cannot hold an id that does not exist yet; creates of one id with a parent, and
    // re-POSTs, queue here.
    await lockKey(tx, `component|${ctx.tenantId}|${input.component_id}`);
    const existing = await lockComponent(tx, ctx.tenantId, input.component_id);
    if (existing) requireRepostAllowed(existing, input, alpha);
    if (existing?.status === 'active') return { value: presentComponent(existing), created: false };
    const position = input.parent_component_id ? await placeUnderParent(tx, ctx, input) : (input.position ?? null);
    const [row] = existing
      ? await tx
          .update(components)
          .set({ ...values(position), version: existing.version + 1 })
          .where(tenantRows(components, ctx.tenantId, { componentId: input.component_id }))
          .returning()
      : await insertNew(tx, position);
    // Taken meanwhile by a create without a parent: a different request for the same id.
    if (!row) throw componentExists(input.component_id);
    await recordPin(tx, existing);
    return { value: presentComponent(row), created: !existing };
  });
}

/** A new component's row, and its pin's audit row when it is pinned. */
interface FreshComponent {
  row: typeof components.$inferInsert;
  pin: { target: unknown; actor: string; recordedAt: string } | null;
}

/**
 * New components' rows and their pins' audit rows in one statement, built once per database (drizzle's
 * query building cost more than the insert); the rows come as one JSON array, so any number of creates
 * share the statement's text. An id already taken inserts nothing.
 */
const insertFreshStatement = prepareOncePerDatabase((db) => {
  const given = givenRows(components, sql`pin_target jsonb, pin_actor text, pin_recorded_at timestamptz`);
  const insert = insertGiven(db, components, given)
    // The key queues a concurrent create of the same id until it commits, then says it is taken.
    .onConflictDoNothing({ target: [components.tenantId, components.componentId] })
    .returning();
  return insertWithPinAudit(db, insert, given).prepare('curriculum_insert_fresh_components');
});

const keyOf = (row: { tenantId: string; componentId: string }) => `${row.tenantId}|${row.componentId}`;

/**
 * Inserts new components, answering each one's stored row, or nothing when its id is taken (by an
 * earlier row, or by an earlier create of the same id in the list: the later one then runs the locked
 * way, as if it had come after).
 */
async function insertFreshComponents(db: Database, creates: FreshComponent[]): Promise<(ComponentRow | undefined)[]> {
  const first = new Map<string, number>();
  creates.forEach((create, index) => {
    if (!first.has(keyOf(create.row))) first.set(keyOf(create.row), index);
  });
  const sent = [...first.values()].map((index) => {
    const { row, pin } = creates[index];
    return givenRow(components, row, {
      pin_target: pin?.target ?? null,
      pin_actor: pin?.actor ?? null,
      pin_recorded_at: pin?.recordedAt ?? null,
    });
  });
  const stored = new Map(
    (await insertFreshStatement(db).execute({ rows: JSON.stringify(sent) })).map((row) => [keyOf(row), row]),
  );
  return creates.map((create, index) =>
    first.get(keyOf(create.row)) === index ? stored.get(keyOf(create.row)) : undefined,
  );
}

/**
 * A tenant's prior-row reads that arrive while one runs are read together: one statement for their ids,
 * each sent after its create asked. The list form's generic plan keeps the primary key on PGlite too,
 * now that its statistics follow the table's growth (`platform/pglite-statistics.ts`).
 */
const priorRowTogether = groupCommit(async (db: Database, tenantId: string, componentIds: string[]) => {
  const rows = new Map((await findComponentRows(db, tenantId, componentIds)).map((row) => [row.componentId, row]));
  return componentIds.map((componentId) => rows.get(componentId));
});

/** A tenant's self-committing creates that arrive while one runs are inserted together: one statement and one commit for them. */
const insertFreshTogether = groupCommit((db: Database, _tenantId: string, creates: FreshComponent[]) =>
  insertFreshComponents(db, creates),
);

const componentExists = (componentId: string) =>
  new DomainError('curriculum:component_exists', `Component ${componentId} already exists; change it with PATCH.`);

/**
 * The state table: a create, and a re-POST that reactivates, yield a draft; publishing is the PATCH
 * that checks what publication needs (rule 17 for a gate). A mastery_gate declares `draft` explicitly.
 */
function requireDraftOnCreate(input: ComponentInput): void {
  if (input.alpha.publication_status !== 'published') return;
  throw new DomainError('validation_failed', 'A component is created draft; publish it with PATCH.', {
    fieldErrors: [{ field: 'alpha.publication_status', message: 'must be draft (or absent) on create' }],
  });
}

/**
 * A POST of an existing id: an active one only as an identical retry; a retired one is reactivated
 * as the same component (kind and student_id never change, as on PATCH).
 */
function requireRepostAllowed(existing: ComponentRow, input: ComponentInput, alpha: Record<string, unknown>): void {
  if (existing.status === 'active') {
    if (sameDefinition(existing, input, alpha)) return;
    throw componentExists(input.component_id);
  }
  const changed = [
    ...(existing.kind !== input.kind ? [{ field: 'kind', message: `stays ${existing.kind}` }] : []),
    ...(existing.studentId !== (input.student_id ?? null)
      ? [{ field: 'student_id', message: `stays ${existing.studentId ?? 'absent'}` }]
      : []),
  ];
  if (changed.length > 0) {
    throw new DomainError(
      'validation_failed',
      `Reactivating ${existing.componentId} cannot change kind or student_id.`,
      {
        fieldErrors: changed,
      },
    );
  }
}

function sameDefinition(existing: ComponentRow, input: ComponentInput, alpha: Record<string, unknown>): boolean {
  return (
    existing.kind === input.kind &&
    existing.documentId === (input.document_id ?? null) &&
    existing.parentComponentId === (input.parent_component_id ?? null) &&
    (input.position === undefined || existing.position === input.position) &&
    existing.name === (input.name ?? null) &&
    existing.humanCodingScheme === (input.human_coding_scheme ?? null) &&
    existing.studentId === (input.student_id ?? null) &&
    canonicalJson(existing.alpha) === canonicalJson(alpha)
  );
}

/** Checks the parent and records the containment edge; returns the sibling position. */
async function placeUnderParent(tx: Database, ctx: RequestContext, input: ComponentInput): Promise<number> {
  return (await placeChild(tx, ctx, input.component_id, input.parent_component_id as string, input.position)).position;
}

export async function getComponent(
  deps: CurriculumDeps,
  ctx: RequestContext,
  { componentId }: { componentId: string },
): Promise<Component> {
  requireAccess(ctx.principal, ACCESS.read, 'read components');
  const [found] = await findComponents(deps.db, ctx.tenantId, [componentId]);
  if (!found) throw componentNotFound(componentId);
  await requirePersonalizedCourseInBoundary(deps.db, ctx, found.component_id);
  return found;
}

/** Access-checked batch reads behind the GraphQL loaders: a component the token may not read is its refusal. */
export async function loadComponents(
  deps: CurriculumDeps,
  ctx: RequestContext,
  { componentIds }: { componentIds: readonly string[] },
): Promise<Map<string, Component | DomainError>> {
  requireAccess(ctx.principal, ACCESS.read, 'read components');
  const found = await findComponents(deps.db, ctx.tenantId, componentIds);
  const refusals = await personalizedCourseRefusals(
    deps.db,
    ctx,
    found.map((component) => component.component_id),
  );
  return new Map(found.map((component) => [component.component_id, refusals.get(component.component_id) ?? component]));
}

export async function loadChildren(
  deps: CurriculumDeps,
  ctx: RequestContext,
  { parentIds, includeRetired }: { parentIds: readonly string[]; includeRetired: boolean },
): Promise<Map<string, Component[]>> {
  requireAccess(ctx.principal, ACCESS.read, 'read components');
  return findChildren(deps.db, ctx.tenantId, parentIds, includeRetired);
}

export const listComponents = listRule({
  reads: 'list components',
  query: ListComponentsQuery,
  table: components,
  id: 'componentId',
  sorts: { component_id: 'componentId', updated_at: 'updatedAt' },
  where: (query, ctx) => [
    query.includeRetired ? undefined : eq(components.status, 'active'),
    query.kind ? eq(components.kind, query.kind) : undefined,
    query.parentId ? eq(components.parentComponentId, query.parentId) : undefined,
    personalizedCoursesCondition(ctx, query.studentId),
    query.studentId
      ? and(
          eq(components.studentId, query.studentId),
          eq(components.kind, 'course'),
          isNull(components.parentComponentId),
        )
      : undefined,
    query.subjectId ? eq(components.subjectId, query.subjectId) : undefined,
    query.sourceCourseRef ? eq(components.sourceCourseRef, query.sourceCourseRef) : undefined,
    query.publicationStatus ? eq(components.publicationStatus, query.publicationStatus) : undefined,
    updatedSince(components.updatedAt, query.updated_since),
    query.courseId ? inArray(components.componentId, descendantsOf(ctx.tenantId, query.courseId)) : undefined,
  ],
  present: presentComponent,
});

export interface ComponentTree extends Component {
  children: ComponentTree[];
}

/** GET /components/{id}/tree: the component and its descendants in sibling order, one query per level. */
export async function readTree(
  deps: CurriculumDeps,
  ctx: RequestContext,
  {
    componentId,
    query: rawQuery,
    courseRootOnly = false,
  }: { componentId: string; query: unknown; courseRootOnly?: boolean },
): Promise<ComponentTree> {
  requireAccess(ctx.principal, ACCESS.read, 'read component trees');
  const query = parseInput(TreeQuery, rawQuery);
  const includeRetired = query.includeRetired ?? false;
  const [root] = await findComponents(deps.db, ctx.tenantId, [componentId]);
  if (!root || (root.status !== 'active' && !includeRetired)) throw componentNotFound(componentId);
  await requirePersonalizedCourseInBoundary(deps.db, ctx, root.component_id);
  if (courseRootOnly && (root.kind !== 'course' || root.parent_component_id !== null))
    throw componentNotFound(componentId);
  const tree: ComponentTree = { ...root, children: [] };
  let level: ComponentTree[] = [tree];
  while (level.length > 0) {
    const children = await findChildren(
      deps.db,
      ctx.tenantId,
      level.map((node) => node.component_id),
      includeRetired,
    );
    const next: ComponentTree[] = [];
    for (const node of level) {
      node.children = (children.get(node.component_id) ?? []).map((child) => ({ ...child, children: [] }));
      next.push(...node.children);
    }
    level = next;
  }
  return tree;
}
