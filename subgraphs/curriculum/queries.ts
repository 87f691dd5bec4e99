import { tenantRows, type ColumnMatch } from '../../platform/tenant-rows.ts';
import { and, asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { prepareOncePerDatabase, type Database } from '../../platform/db.ts';
import { DomainError } from '../../platform/errors.ts';
import { etagOf } from '../../platform/etag.ts';
import { isoTimestamp, isUuid } from '../../platform/validation.ts';
import { components, kcVersions, knowledgeComponents, standardsFrameworks } from './tables.ts';

/**
 * Finders and reference checks several curriculum features share, always within one tenant:
 * components by id, by parent and by course subtree; KC versions by id; the active KCs and
 * imported frameworks a write names.
 */

export type ComponentRow = typeof components.$inferSelect;

/** The tenant's components whose columns equal `match` and that meet every further condition. */
export function selectComponents(
  db: Database,
  tenantId: string,
  match: ColumnMatch<typeof components>,
  ...conditions: Array<SQL | undefined>
) {
  return db
    .select()
    .from(components)
    .where(tenantRows(components, tenantId, match, ...conditions));
}

export function presentComponent(row: ComponentRow) {
  return {
    component_id: row.componentId,
    kind: row.kind,
    document_id: row.documentId,
    parent_component_id: row.parentComponentId,
    position: row.position,
    name: row.name,
    human_coding_scheme: row.humanCodingScheme,
    ...(row.studentId !== null ? { student_id: row.studentId } : {}),
    alpha: row.alpha as Record<string, unknown>,
    status: row.status,
    version: row.version,
    etag: etagOf(row.componentId, row.version),
    created_at: isoTimestamp(row.createdAt),
    updated_at: isoTimestamp(row.updatedAt),
    retired_at: isoTimestamp(row.retiredAt),
  };
}
export type Component = ReturnType<typeof presentComponent>;

/** The stored alpha: as authored, with a renderer_kind alias resolved to its canonical renderer_ref. */
export async function lockComponent(
  tx: Database,
  tenantId: string,
  componentId: string,
): Promise<ComponentRow | undefined> {
  const [row] = await tx
    .select()
    .from(components)
    .where(tenantRows(components, tenantId, { componentId }))
    .for('update');
  return row;
}

export function componentNotFound(componentId: string): DomainError {
  return new DomainError('not_found', `No component ${componentId} in this tenant.`);
}

/** The components asked for: a list of ids (the loader's batches), or one key (`componentId`). */
const askedComponents = {
  list: sql`${components.componentId} = any(${sql.placeholder('componentIds')}::text[])`,
  key: eq(components.componentId, sql.placeholder('componentId')),
};

const componentsAsked = (db: Database, asked: keyof typeof askedComponents) =>
  db
    .select()
    .from(components)
    .where(and(eq(components.tenantId, sql.placeholder('tenantId')), askedComponents[asked]));

const componentsById = prepareOncePerDatabase((db) =>
  componentsAsked(db, 'list').prepare('curriculum_components_by_id'),
);

/**
 * One component by its key, the REST read's and most loaders' case: the primary key's index. A
 * prepared `any($2)` plans generically for an array of unknown length, which on a small tenant is a
 * scan of every row (and on PGlite a file-size question per scan) plus the array's parsing.
 */
const componentByKey = prepareOncePerDatabase((db) =>
  componentsAsked(db, 'key').prepare('curriculum_component_by_key'),
);

/** Stored rows by id (retired included), through the prepared statements of the hottest read. */
export async function findComponentRows(
  db: Database,
  tenantId: string,
  componentIds: readonly string[],
): Promise<ComponentRow[]> {
  const distinct = [...new Set(componentIds)];
  if (distinct.length === 0) return [];
  if (distinct.length === 1) return componentByKey(db).execute({ tenantId, componentId: distinct[0] });
  return componentsById(db).execute({ tenantId, componentIds: distinct });
}

/** Batched read by id (retired included), for loaders and single reads. */
export async function findComponents(
  db: Database,
  tenantId: string,
  componentIds: readonly string[],
): Promise<Component[]> {
  return (await findComponentRows(db, tenantId, componentIds)).map(presentComponent);
}

/** Children of many parents in sibling order, for tree loaders: one statement per tree level. */
export async function findChildren(
  db: Database,
  tenantId: string,
  parentIds: readonly string[],
  includeRetired: boolean,
): Promise<Map<string, Component[]>> {
  const byParent = new Map<string, Component[]>(parentIds.map((id) => [id, []]));
  if (parentIds.length === 0) return byParent;
  const rows = await selectComponents(
    db,
    tenantId,
    {},
    inArray(components.parentComponentId, [...new Set(parentIds)]),
    includeRetired ? undefined : eq(components.status, 'active'),
  ).orderBy(asc(components.position), asc(components.componentId));
  for (const row of rows) byParent.get(row.parentComponentId as string)?.push(presentComponent(row));
  return byParent;
}

/**
 * Component ids in a course's subtree (the course itself included), by containment; activeOnly
 * descends through active components only. Each level's children are one index lookup per parent:
 * `offset 0` keeps the lateral subquery from being flattened into a join, which stale statistics
 * (PGlite never auto-analyzes) planned as a filter over every pair of rows: 3.5 s on a
 * 2,000-component course instead of 57 ms.
 */
export function descendantsOf(tenantId: string, courseId: string, options: { activeOnly?: boolean } = {}): SQL {
  return sql`(with recursive subtree(component_id) as (
      select ${courseId}::text
      union
      select c.component_id from subtree s cross join lateral (
        select component_id from ${components}
        where tenant_id = ${tenantId} and parent_component_id = s.component_id${options.activeOnly ? sql` and status = 'active'` : sql``}
        offset 0
      ) c
    ) select component_id from subtree)`;
}

export type KcVersionRow = typeof kcVersions.$inferSelect;

export async function findKcVersionRows(db: Database, tenantId: string, versionIds: string[]): Promise<KcVersionRow[]> {
  const valid = versionIds.filter(isUuid);
  if (valid.length === 0) return [];
  return db
    .select()
    .from(kcVersions)
    .where(tenantRows(kcVersions, tenantId, {}, inArray(kcVersions.versionId, valid)));
}

/** Every KC named is an active registry KC of the tenant, share-locked so a concurrent retire waits for this write and then sees it. */
export async function requireActiveKcs(
  tx: Database,
  tenantId: string,
  fields: Array<{ kcId: string; field: string }>,
): Promise<void> {
  if (fields.length === 0) return;
  const rows = await tx
    .select({ kcId: knowledgeComponents.kcId })
    .from(knowledgeComponents)
    .where(
      tenantRows(
        knowledgeComponents,
        tenantId,
        { status: 'active' },
        inArray(knowledgeComponents.kcId, [...new Set(fields.map((item) => item.kcId))]),
      ),
    )
    .for('share');
  const active = new Set(rows.map((row) => row.kcId));
  const missing = fields.filter((item) => !active.has(item.kcId));
  if (missing.length > 0) {
    throw new DomainError('curriculum:kc_not_active', 'Every KC named must be an active registry KC of this tenant.', {
      fieldErrors: missing.map((item) => ({ field: item.field, message: `${item.kcId} is not an active registry KC` })),
    });
  }
}

/** alpha.standards_framework_refs name imported frameworks of the tenant, by standards_framework_id. */
export async function requireImportedFrameworks(
  tx: Database,
  tenantId: string,
  refs: readonly string[],
): Promise<void> {
  if (refs.length === 0) return;
  const found = await tx
    .select({ id: standardsFrameworks.standardsFrameworkId })
    .from(standardsFrameworks)
    .where(
      tenantRows(
        standardsFrameworks,
        tenantId,
        {},
        inArray(standardsFrameworks.standardsFrameworkId, [...new Set(refs)]),
      ),
    );
  const known = new Set(found.map((row) => row.id));
  const missing = refs.map((ref, index) => ({ ref, index })).filter(({ ref }) => !known.has(ref));
  if (missing.length > 0) {
    throw new DomainError(
      'curriculum:standards_framework_unknown',
      'Every standards_framework_refs value must be an imported framework of this tenant.',
      {
        fieldErrors: missing.map(({ ref, index }) => ({
          field: `alpha.standards_framework_refs.${index}`,
          message: `${ref} is not an imported standards framework`,
        })),
      },
    );
  }
}
