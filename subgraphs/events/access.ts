import { inArray, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { AccessRule, Principal } from '../../platform/auth.ts';
import { DomainError } from '../../platform/errors.ts';
import { BOUNDARY_REJECTED } from './errors.ts';

/** Scopes and roles of the events document. */
export const ACCESS = {
  read: { scopes: ['events:read'] },
  write: { scopes: ['events:write'] },
  registerSource: { anyOf: [{ scopes: ['events:sources:write'] }, { anyRole: ['approved_source', 'operator'] }] },
  /** Source imports write events and school-records moments: events:write, like any event write. */
  sourceImport: { scopes: ['events:write'] },
} satisfies Record<string, AccessRule>;

/**
 * The identity boundary of a token: each dimension is either unbounded (undefined) or the set of
 * values the token may touch. orgIds and schoolIds are one dimension: the organization (school)
 * an event or moment belongs to.
 */
export interface BoundaryScope {
  studentIds?: ReadonlySet<string>;
  orgIds?: ReadonlySet<string>;
  contentIds?: ReadonlySet<string>;
}

export type BoundaryDimension = keyof BoundaryScope;

export function boundaryOf(principal: Principal): BoundaryScope {
  const { studentIds, orgIds, schoolIds, contentIds } = principal.boundary;
  const orgs = orgIds || schoolIds ? new Set([...(orgIds ?? []), ...(schoolIds ?? [])]) : undefined;
  return {
    ...(studentIds ? { studentIds: new Set(studentIds) } : {}),
    ...(orgs ? { orgIds: orgs } : {}),
    ...(contentIds ? { contentIds: new Set(contentIds) } : {}),
  };
}

/** The claim name a client sees in the field error of each dimension. */
const CLAIM: Record<BoundaryDimension, string> = {
  studentIds: 'studentIds',
  orgIds: 'orgIds/schoolIds',
  contentIds: 'contentIds',
};

export function boundaryRejected(dimension: BoundaryDimension, field: string, detail: string): DomainError {
  return new DomainError(BOUNDARY_REJECTED, detail, {
    fieldErrors: [{ field, message: `outside the token's ${CLAIM[dimension]} boundary` }],
  });
}

type BoundaryValues = Partial<Record<BoundaryDimension, { field: string; value: string | null | undefined }>>;

/**
 * A record (or a requested filter) against the boundary: every bounded dimension must hold a value
 * inside it. `values` maps each dimension to the client's field name and its value.
 */
export function outsideBoundary(scope: BoundaryScope, values: BoundaryValues, what: string): DomainError | undefined {
  for (const dimension of ['studentIds', 'orgIds', 'contentIds'] as const) {
    const allowed = scope[dimension];
    const given = values[dimension];
    if (!allowed || !given) continue;
    if (given.value == null || !allowed.has(given.value)) {
      return boundaryRejected(
        dimension,
        given.field,
        `The token may not ${what} ${given.field} ${given.value ?? '(none)'}.`,
      );
    }
  }
  return undefined;
}

export function requireWithinBoundary(scope: BoundaryScope, values: BoundaryValues, what: string): void {
  const rejected = outsideBoundary(scope, values, what);
  if (rejected) throw rejected;
}

/**
 * The filter a bounded token adds to every list: a requested value outside the boundary is 403, an
 * omitted one is narrowed to the boundary.
 */
export function boundaryConditions(
  scope: BoundaryScope,
  requested: { studentId?: string; orgId?: string; contentId?: string },
  columns: { studentId?: PgColumn; orgId?: PgColumn; contentId?: PgColumn },
  names: { studentId: string; orgId: string; contentId: string } = {
    studentId: 'studentId',
    orgId: 'orgId',
    contentId: 'contentId',
  },
): SQL[] {
  requireWithinBoundary(
    scope,
    {
      ...(requested.studentId !== undefined
        ? { studentIds: { field: names.studentId, value: requested.studentId } }
        : {}),
      ...(requested.orgId !== undefined ? { orgIds: { field: names.orgId, value: requested.orgId } } : {}),
      ...(requested.contentId !== undefined
        ? { contentIds: { field: names.contentId, value: requested.contentId } }
        : {}),
    },
    'read',
  );
  const conditions: SQL[] = [];
  const pairs = [
    [scope.studentIds, columns.studentId],
    [scope.orgIds, columns.orgId],
    [scope.contentIds, columns.contentId],
  ] as const;
  for (const [allowed, column] of pairs) {
    if (allowed && column) conditions.push(inArray(column, [...allowed]));
  }
  return conditions;
}
