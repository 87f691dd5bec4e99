import { and, asc, desc, eq, getTableColumns, getTableUniqueName, gt, lt, or, type SQL } from 'drizzle-orm';
import type { AnyPgColumn, PgTable, SelectedFields } from 'drizzle-orm/pg-core';
import type { Database } from './db.ts';
import { DEFAULT_PAGE_SIZE, pageOf, type CursorCodec, type KeyValue, type Page } from './cursor.ts';

/**
 * The one pager: keyset pages in a stable order, cursors signed and bound to the filters they were
 * issued for, each page cut from limit + 1 rows (the extra row only proves there is a next page).
 * Services say what a row's key is and how to fetch rows after a position; they never decode a
 * cursor or cut a page themselves.
 */

/** A total order over rows: its ORDER BY, the rows after a position, and a row's position. */
export interface KeysetOrder<Row> {
  /**
   * The list a position belongs to (`keyedBy`): a cursor is bound to it as to its filters, so one of another
   * list is refused instead of read as a position of this one (wrong rows, or a 500 on a key of another type).
   */
  list: string;
  by: SQL[];
  after: (position: readonly KeyValue[]) => SQL | undefined;
  keyOf: (row: Row) => KeyValue[];
}

/** A list sorted by a chosen column with the row id as tie-breaker, in either direction. */
export interface SortedKeyset {
  sortColumn: AnyPgColumn;
  idColumn: AnyPgColumn;
  descending: boolean;
}

/** What a list's positions are positions of: its key columns (schema, table, column) and the direction. */
export function keyedBy(direction: 'asc' | 'desc', ...columns: AnyPgColumn[]): string {
  return `${direction} ${columns.map((column) => `${getTableUniqueName(column.table)}.${column.name}`).join(',')}`;
}

/** Order by one unique column (an id, or a number unique within the filtered rows). */
export function uniqueOrder<Row>(column: AnyPgColumn, keyOf: (row: Row) => string | number): KeysetOrder<Row> {
  return {
    list: keyedBy('asc', column),
    by: [asc(column)],
    after: ([last]) => gt(column, last),
    keyOf: (row) => [keyOf(row)],
  };
}

/** Order by a sort column, then the id column. */
export function sortedOrder<Row>(keyset: SortedKeyset, keyOf: (row: Row) => KeyValue[]): KeysetOrder<Row> {
  const direction = keyset.descending ? desc : asc;
  const beyond = keyset.descending ? lt : gt;
  return {
    list: keyedBy(keyset.descending ? 'desc' : 'asc', keyset.sortColumn, keyset.idColumn),
    by: [direction(keyset.sortColumn), direction(keyset.idColumn)],
    after: ([lastValue, lastId]) =>
      or(beyond(keyset.sortColumn, lastValue), and(eq(keyset.sortColumn, lastValue), beyond(keyset.idColumn, lastId))),
    keyOf,
  };
}

/**
 * What a caller asked of a list: its page size, its cursor, and the tenant and filters the cursor is bound to (a
 * position among one tenant's rows, replayed by another tenant, would silently skip that tenant's rows before it).
 */
export interface PageRequest {
  limit?: number;
  cursor?: string;
  tenantId: string;
  filters: unknown;
}

/**
 * A query's part of a page: its rows after the position, in the order, at most `limit` of them. The
 * position's key values are given too, for a statement prepared with placeholders.
 */
export type PageFetch<Row> = (window: {
  after: SQL | undefined;
  position: readonly KeyValue[] | undefined;
  orderBy: SQL[];
  limit: number;
}) => Promise<Row[]>;

export async function keysetPage<Row>(
  cursors: CursorCodec,
  request: PageRequest,
  order: KeysetOrder<Row>,
  fetch: PageFetch<Row>,
): Promise<Page<Row>> {
  const limit = request.limit ?? DEFAULT_PAGE_SIZE;
  const bound = { list: order.list, tenantId: request.tenantId, filters: request.filters };
  const position = request.cursor ? cursors.decode(request.cursor, bound).after : undefined;
  const after = position ? order.after(position) : undefined;
  const rows = limit === 0 ? [] : await fetch({ after, position, orderBy: order.by, limit: limit + 1 });
  return pageOf(rows, limit, order.keyOf, (row) => row, cursors, bound);
}

/** A page of rows of one table under the caller's conditions: whole rows, or the `columns` named. */
export function tablePage<Row>(
  db: Database,
  cursors: CursorCodec,
  table: PgTable,
  order: KeysetOrder<Row>,
  request: PageRequest,
  conditions: Array<SQL | undefined>,
  columns: SelectedFields = getTableColumns(table),
): Promise<Page<Row>> {
  return keysetPage(
    cursors,
    request,
    order,
    async ({ after, orderBy, limit }) =>
      (await db
        .select(columns)
        .from(table)
        .where(and(...conditions, after))
        .orderBy(...orderBy)
        .limit(limit)) as Row[],
  );
}

/** The same page with each row presented. */
export function presentPage<Row, T>(page: Page<Row>, present: (row: Row) => T): Page<T> {
  return { data: page.data.map(present), next_cursor: page.next_cursor };
}

interface PageQuery {
  limit?: number;
  cursor?: string;
}

/** The request of a tenant's list whose cursor is bound to every other field of its parsed query. */
export function pageRequest(tenantId: string, query: PageQuery): PageRequest {
  const { cursor, limit, ...filters } = query;
  return { cursor, limit, tenantId, filters };
}

/** One page of a list ordered by its unique id column (the request from `pageRequest`). */
export async function pageInIdOrder<Row, T>(
  db: Database,
  cursors: CursorCodec,
  source: { table: PgTable; idColumn: AnyPgColumn; idOf: (row: Row) => string },
  request: PageRequest,
  conditions: Array<SQL | undefined>,
  present: (row: Row) => T,
): Promise<Page<T>> {
  const order = uniqueOrder(source.idColumn, source.idOf);
  return presentPage(await tablePage(db, cursors, source.table, order, request, conditions), present);
}

/** The same for a list sorted by a chosen column with the id as tie-breaker, in either direction. */
export async function pageInSortOrder<Row, T>(
  db: Database,
  cursors: CursorCodec,
  source: { table: PgTable; keyset: SortedKeyset; keyOf: (row: Row) => KeyValue[] },
  request: PageRequest,
  conditions: Array<SQL | undefined>,
  present: (row: Row) => T,
): Promise<Page<T>> {
  const order = sortedOrder(source.keyset, source.keyOf);
  return presentPage(await tablePage(db, cursors, source.table, order, request, conditions), present);
}
