import { inArray, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { organizationsOf, type AccessRule, type Principal } from '../../platform/auth.ts';
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

const DIMENSIONS = ['studentIds', 'orgIds', 'contentIds'] as const satisfies readonly BoundaryDimension[];

/**
 * The boundary dimensions each kind of row holds a field for. A bounded token is refused on a kind
 * of row that lacks one of its dimensions: vendor learning rows carry no organization, moments no
 * content, activity sources (the tenant's producer registry) none of the three.
 */
export const CHECKABLE = {
  events: DIMENSIONS,
  vendorLearningRows: ['studentIds', 'contentIds'],
  moments: ['studentIds', 'orgIds'],
  activitySources: [],
} as const satisfies Record<string, readonly BoundaryDimension[]>;

export function boundaryOf(principal: Principal): BoundaryScope {
  const { studentIds, contentIds } = principal.boundary;
  const orgs = organizationsOf(principal.boundary);
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

/**
 * A bounded dimension the row (or request) holds no field for: it cannot be checked, so it is
 * refused, never served (attendance rows carry no content id, activity sources none of the three).
 */
function uncheckable(dimension: BoundaryDimension, what: string): DomainError {
  return new DomainError(
    BOUNDARY_REJECTED,
    `The token's ${CLAIM[dimension]} boundary cannot be checked against ${what}; it is refused.`,
    { fieldErrors: [{ field: CLAIM[dimension], message: `cannot be checked against ${what}` }] },
  );
}

/** Refuses a bounded token on a kind of row that holds no field for one of its bounded dimensions. */
export function requireCheckable(scope: BoundaryScope, checkable: readonly BoundaryDimension[], what: string): void {
  const unchecked = DIMENSIONS.find((dimension) => scope[dimension] && !checkable.includes(dimension));
  if (unchecked) throw uncheckable(unchecked, what);
}

type BoundaryValues = Partial<Record<BoundaryDimension, { field: string; value: string | null | undefined }>>;

/**
 * A record (or a requested write) against the boundary: every bounded dimension must hold a value
 * inside it. `values` maps each dimension the record can be checked on to the client's field name
 * and its value; a bounded dimension missing from `values` cannot be checked and is refused.
 */
export function outsideBoundary(scope: BoundaryScope, values: BoundaryValues, what: string): DomainError | undefined {
  for (const dimension of DIMENSIONS) {
    const allowed = scope[dimension];
    const given = values[dimension];
    if (!allowed) continue;
    if (!given) return uncheckable(dimension, `${what} this record`);
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

/** A list's column (and the client's filter on it) for one boundary dimension. */
export interface BoundedColumn {
  column: PgColumn;
  field: string;
  requested: string | undefined;
}

/** A bounded dimension of a list: its column and the values the token allows. */
export interface BoundedValues {
  dimension: BoundaryDimension;
  column: PgColumn;
  allowed: string[];
}

/**
 * The dimensions a bounded token narrows a list by: a requested value outside the boundary is 403, an
 * omitted one is narrowed to the boundary, and a bounded dimension the rows hold no column for is 403.
 */
export function boundedValues(
  scope: BoundaryScope,
  columns: Partial<Record<BoundaryDimension, BoundedColumn>>,
  what: string,
): BoundedValues[] {
  requireCheckable(scope, Object.keys(columns) as BoundaryDimension[], what);
  const bounded: BoundedValues[] = [];
  for (const dimension of DIMENSIONS) {
    const allowed = scope[dimension];
    const column = columns[dimension];
    if (!allowed || !column) continue;
    if (column.requested !== undefined && !allowed.has(column.requested)) {
      throw boundaryRejected(dimension, column.field, `The token may not read ${column.field} ${column.requested}.`);
    }
    bounded.push({ dimension, column: column.column, allowed: [...allowed] });
  }
  return bounded;
}

/** The filter a bounded token adds to every list (`boundedValues` as conditions). */
export function boundaryConditions(
  scope: BoundaryScope,
  columns: Partial<Record<BoundaryDimension, BoundedColumn>>,
  what: string,
): SQL[] {
  return boundedValues(scope, columns, what).map(({ column, allowed }) => inArray(column, allowed));
}
