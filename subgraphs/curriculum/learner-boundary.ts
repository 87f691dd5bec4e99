import { inArray, isNull, or, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { RequestContext } from '../../platform/context.ts';
import { DomainError } from '../../platform/errors.ts';

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

/** The organizations a token is bounded to: orgIds and schoolIds are one dimension, as in the events service. */
function orgBoundary(ctx: RequestContext): ReadonlySet<string> | undefined {
  const { orgIds, schoolIds } = ctx.principal.boundary;
  return orgIds || schoolIds ? new Set([...(orgIds ?? []), ...(schoolIds ?? [])]) : undefined;
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
  const orgs = orgBoundary(ctx);
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
 * A personalized course root (a component with a student_id) of a student outside the token's studentIds boundary:
 * the refusal to answer in its place, or undefined when the token may read it.
 */
export function personalizedRootRefusal(
  ctx: RequestContext,
  component: { component_id: string; student_id?: string },
): DomainError | undefined {
  const students = ctx.principal.boundary.studentIds;
  if (!students || component.student_id === undefined || students.includes(component.student_id)) return undefined;
  return outside(
    'studentIds',
    'studentId',
    `The token may not read ${component.component_id}, the personalized course of another student.`,
  );
}

export function requirePersonalizedRootInBoundary(
  ctx: RequestContext,
  component: { component_id: string; student_id?: string },
): void {
  const refusal = personalizedRootRefusal(ctx, component);
  if (refusal) throw refusal;
}

/**
 * A list of components as a studentIds-bounded token sees it: a requested student outside the boundary is refused,
 * and other students' personalized roots are left out.
 */
export function personalizedRootsCondition(
  ctx: RequestContext,
  studentColumn: PgColumn,
  requestedStudentId: string | undefined,
): SQL | undefined {
  const students = ctx.principal.boundary.studentIds;
  if (!students) return undefined;
  if (requestedStudentId !== undefined) requireStudentInBoundary(ctx, requestedStudentId);
  return students.length > 0 ? or(isNull(studentColumn), inArray(studentColumn, students)) : isNull(studentColumn);
}
