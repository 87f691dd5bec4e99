import { gte, type SQL } from 'drizzle-orm';
import type { AnyPgColumn, PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import type { RequestContext } from '../../platform/context.ts';
import { requireAccess } from '../../platform/auth.ts';
import type { KeyValue, Page } from '../../platform/cursor.ts';
import { pageRequest, presentPage, sortedOrder, tablePage, uniqueOrder } from '../../platform/keyset.ts';
import { tenantRows } from '../../platform/tenant-rows.ts';
import { parseInput } from '../../platform/validation.ts';
import { ACCESS } from './access.ts';
import type { CurriculumRule, ListInput } from './rule-inputs.ts';

type TenantTable = PgTable & { tenantId: PgColumn };
type RowOf<Table extends TenantTable> = Table['$inferSelect'];
/** A property of the table's rows that is also one of its columns. */
export type ColumnKey<Table extends TenantTable> = keyof RowOf<Table> & keyof Table & string;
interface ListQuery {
  limit?: number;
  cursor?: string;
  sort?: string;
  order?: 'asc' | 'desc';
}

/** Rows changed at or after `since`, when the query asks. */
export function updatedSince(column: AnyPgColumn, since: string | undefined): SQL | undefined {
  return since ? gte(column, new Date(since).toISOString()) : undefined;
}

/**
 * A list rule of curriculum: the caller's read access first (a caller without it hears 403, never
 * which query fields it got wrong), then its query parsed, then one page of the tenant's rows that
 * `where` keeps, in id order or, where the list has sorts, by the sort asked (the first by default)
 * with the id as tie-breaker.
 */
export function listRule<Q extends z.ZodType<ListQuery>, Table extends TenantTable, T>(list: {
  /** What the caller reads, for the access refusal. */
  reads: string;
  query: Q;
  table: Table;
  id: ColumnKey<Table>;
  /** The sort names the query may ask for, each to the row property it sorts by. */
  sorts?: Record<NonNullable<z.output<Q>['sort']>, ColumnKey<Table>>;
  where: (query: z.output<Q>, ctx: RequestContext) => Array<SQL | undefined>;
  present: (row: RowOf<Table>) => T;
}): CurriculumRule<ListInput, Page<T>> {
  const column = (key: ColumnKey<Table>) => list.table[key] as AnyPgColumn;
  const keyOf = (key: ColumnKey<Table>) => (row: RowOf<Table>) => row[key] as KeyValue;
  return async (deps, ctx, { query: rawQuery }) => {
    requireAccess(ctx.principal, ACCESS.read, list.reads);
    const query = parseInput(list.query, rawQuery);
    const sorts = list.sorts as Record<string, ColumnKey<Table>> | undefined;
    const sortKey = sorts && sorts[query.sort ?? Object.keys(sorts)[0]];
    const order = sortKey
      ? sortedOrder(
          { sortColumn: column(sortKey), idColumn: column(list.id), descending: query.order === 'desc' },
          (row: RowOf<Table>) => [keyOf(sortKey)(row), keyOf(list.id)(row)],
        )
      : uniqueOrder(column(list.id), keyOf(list.id) as (row: RowOf<Table>) => string);
    const conditions = [tenantRows(list.table, ctx.tenantId), ...list.where(query, ctx)];
    const page = await tablePage(
      deps.db,
      deps.cursors,
      list.table,
      order,
      pageRequest(ctx.tenantId, query),
      conditions,
    );
    return presentPage(page, list.present);
  };
}
