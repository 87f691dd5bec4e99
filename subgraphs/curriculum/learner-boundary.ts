import { and, notInArray, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { rowsOf, type Database } from '../../platform/db.ts';
import { organizationsOf } from '../../platform/auth.ts';
import type { RequestContext } from '../../platform/context.ts';
import { DomainError } from '../../platform/errors.ts';
import { components } from './tables.ts';

/**
 * A token's identity boundary (studentIds, orgIds/schoolIds, contentIds; the events service's claims) on curriculum's
 * learner data. Curriculum reads learner history with its own service token, so the caller's boundary is held here, as
 * the events service holds it: a bounded value outside the boundary, or a bounded dimension the data holds nothing to
 * judge it by, is refused with 403 curriculum:forbidden and a field error naming the claim.
 */

type Claim = 'studentIds' | 'orgIds/schoolIds' | 'contentIds';

function outside(claim: Claim, field: string, detail: string): DomainError {
  return new DomainError('forbidden', detail, {
    fieldErrors: [{ field, message: `outside the token's ${claim} boundary` }],
  });
}

/** A student's data read by a token bounded to other students is refused. */
export function requireStudentInBoundary(ctx: RequestContext, studentId: string): void {
  const students = ctx.principal.boundary.studentIds;
  if (students && !students.includes(studentId)) {
    throw outside('studentIds', 'studentId', `The token may not read the learner data of student ${studentId}.`);
  }
}

/** Learner data about content (a gate's pinned bank) read by a token bounded to other content; no pin is refused. */
export function requireContentInBoundary(ctx: RequestContext, contentId: string | undefined, field: string): void {
  const contents = ctx.principal.boundary.contentIds;
  if (contents && (contentId === undefined || !contents.includes(contentId))) {
    throw outside('contentIds', field, `The token may not read learner data about content ${contentId ?? '(none)'}.`);
  }
}

/**
 * Learner history whose every record names an organization inside an orgIds/schoolIds bound: an answer derived from
 * history the token may not see (or that names no organization) is refused, never derived from a part of it.
 */
export function requireHistoryInOrgBoundary(ctx: RequestContext, history: ReadonlyArray<{ orgId: string | null }>) {
  const orgs = organizationsOf(ctx.principal.boundary);
  const stray = orgs && history.find((event) => event.orgId === null || !orgs.has(event.orgId));
  if (stray) {
    throw outside(
      'orgIds/schoolIds',
      'orgId',
      `The learner history holds an event of organization ${stray.orgId ?? '(none)'}.`,
    );
  }
}

/**
 * The student each of `componentIds` belongs to, for those inside a personalized course (the root holds the
 * student_id; its subtree belongs to the same student): one walk up the containment of all of them.
 */
async function personalizedOwners(
  db: Database,
  tenantId: string,
  componentIds: readonly string[],
): Promise<Map<string, string>> {
  const result = await db.execute(sql`
    with recursive up(origin, component_id, parent_id, student_id) as (
      select component_id, component_id, parent_component_id, student_id from ${components}
      where tenant_id = ${tenantId} and component_id in (${sql.join(
        componentIds.map((id) => sql`${id}`),
        sql`, `,
      )})
      union all
      select up.origin, c.component_id, c.parent_component_id, c.student_id from up
      join ${components} c on c.tenant_id = ${tenantId} and c.component_id = up.parent_id
    ) select origin, student_id from up where student_id is not null`);
  return new Map(rowsOf<{ origin: string; student_id: string }>(result).map((row) => [row.origin, row.student_id]));
}

/**
 * The components of other students' personalized courses (roots and subtrees) that a studentIds-bounded token asks
 * to read or change, each with its refusal; empty for a token without the claim, which costs no query.
 */
export async function personalizedCourseRefusals(
  db: Database,
  ctx: RequestContext,
  componentIds: readonly string[],
  action: 'read' | 'change' = 'read',
): Promise<Map<string, DomainError>> {
  const students = ctx.principal.boundary.studentIds;
  if (!students || componentIds.length === 0) return new Map();
  const refusals = new Map<string, DomainError>();
  for (const [componentId, studentId] of await personalizedOwners(db, ctx.tenantId, componentIds)) {
    if (students.includes(studentId)) continue;
    const detail = `The token may not ${action} ${componentId}, part of the personalized course of another student.`;
    refusals.set(componentId, outside('studentIds', 'studentId', detail));
  }
  return refusals;
}

/** A read of components (one, or an edge's two ends) refused when any is inside another student's personalized course. */
export async function requirePersonalizedCourseInBoundary(
  db: Database,
  ctx: RequestContext,
  ...componentIds: string[]
): Promise<void> {
  const [refusal] = (await personalizedCourseRefusals(db, ctx, componentIds)).values();
  if (refusal) throw refusal;
}

/**
 * A command by a studentIds-bounded token: refused when a component it changes or places under (`componentIds`) is
 * inside another student's personalized course, or when it would make a personalized course (`studentId`) for a
 * student outside the claim. Commands are held to the boundary reads are: a token may not change what it may not see.
 */
export async function requireCommandInBoundary(
  db: Database,
  ctx: RequestContext,
  { componentIds, studentId }: { componentIds: ReadonlyArray<string | undefined>; studentId?: string | null },
): Promise<void> {
  const students = ctx.principal.boundary.studentIds;
  if (!students) return;
  if (studentId != null && !students.includes(studentId)) {
    throw outside('studentIds', 'student_id', `The token may not make a personalized course for student ${studentId}.`);
  }
  const named = componentIds.filter((id): id is string => id !== undefined);
  const [refusal] = (await personalizedCourseRefusals(db, ctx, named, 'change')).values();
  if (refusal) throw refusal;
}

/** The components of personalized courses of students outside `students` (roots and subtrees), as a subquery. */
function otherStudentsCourses(ctx: RequestContext, students: readonly string[]): SQL {
  const ownRoot =
    students.length > 0
      ? sql`student_id in (${sql.join(
          students.map((id) => sql`${id}`),
          sql`, `,
        )})`
      : sql`false`;
  return sql`(with recursive others(component_id) as (
      select component_id from ${components}
      where tenant_id = ${ctx.tenantId} and student_id is not null and not (${ownRoot})
      union
      select c.component_id from others o
      join ${components} c on c.tenant_id = ${ctx.tenantId} and c.parent_component_id = o.component_id
    ) select component_id from others)`;
}

/**
 * A list of components as a studentIds-bounded token sees it: a requested student outside the boundary is refused,
 * and other students' personalized courses (roots and subtrees) are left out.
 */
export function personalizedCoursesCondition(
  ctx: RequestContext,
  requestedStudentId: string | undefined,
): SQL | undefined {
  const students = ctx.principal.boundary.studentIds;
  if (!students) return undefined;
  if (requestedStudentId !== undefined) requireStudentInBoundary(ctx, requestedStudentId);
  return notInArray(components.componentId, otherStudentsCourses(ctx, students));
}

/**
 * A list of edges as a studentIds-bounded token sees it: an edge with an end inside another student's personalized
 * course is left out (its edges show that course's structure).
 */
export function personalizedEdgesCondition(ctx: RequestContext, ends: [PgColumn, PgColumn]): SQL | undefined {
  const students = ctx.principal.boundary.studentIds;
  if (!students) return undefined;
  const others = otherStudentsCourses(ctx, students);
  return and(...ends.map((end) => notInArray(end, others)));
}
