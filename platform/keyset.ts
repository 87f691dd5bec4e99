import { and, asc, desc, eq, gt, lt, or, type SQL } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Database } from './db.ts';
import { DEFAULT_PAGE_SIZE, pageOf, type CursorCodec, type KeyValue, type Page } from './cursor.ts';

/**
 * Keyset paging over a sort column with the row id as tie-breaker, in either direction: the rows
 * after a cursor position, and the matching ORDER BY. Stable under concurrent inserts.
 */
export interface SortedKeyset {
  sortColumn: AnyPgColumn;
  idColumn: AnyPgColumn;
  descending: boolean;
}

function rowsAfter(keyset: SortedKeyset, [lastValue, lastId]: readonly unknown[]): SQL | undefined {
  const beyond = keyset.descending ? lt : gt;
  return or(
    beyond(keyset.sortColumn, lastValue),
    and(eq(keyset.sortColumn, lastValue), beyond(keyset.idColumn, lastId)),
  );
}

function keysetOrder(keyset: SortedKeyset): SQL[] {
  const direction = keyset.descending ? desc : asc;
  return [direction(keyset.sortColumn), direction(keyset.idColumn)];
}

interface PageQuery {
  limit?: number;
  cursor?: string;
}

/**
 * One page of a list ordered by its unique id column: the caller's filter conditions, the position
 * after the cursor (bound to the other query fields), and the page cut from limit + 1 rows.
 */
export function pageInIdOrder<Row, T>(
  db: Database,
  cursors: CursorCodec,
  source: { table: PgTable; idColumn: AnyPgColumn; idOf: (row: Row) => string },
  query: PageQuery,
  conditions: Array<SQL | undefined>,
  present: (row: Row) => T,
): Promise<Page<T>> {
  const order = {
    by: [asc(source.idColumn)],
    after: ([lastId]: readonly unknown[]) => gt(source.idColumn, String(lastId)),
    keyOf: (row: Row) => [source.idOf(row)],
  };
  return pageInOrder(db, cursors, source.table, order, query, conditions, present);
}

/** The same for a list sorted by a chosen column with the id as tie-breaker, in either direction. */
export function pageInSortOrder<Row, T>(
  db: Database,
  cursors: CursorCodec,
  source: { table: PgTable; keyset: SortedKeyset; keyOf: (row: Row) => KeyValue[] },
  query: PageQuery,
  conditions: Array<SQL | undefined>,
  present: (row: Row) => T,
): Promise<Page<T>> {
  const order = {
    by: keysetOrder(source.keyset),
    after: (position: readonly unknown[]) => rowsAfter(source.keyset, position),
    keyOf: source.keyOf,
  };
  return pageInOrder(db, cursors, source.table, order, query, conditions, present);
}

async function pageInOrder<Row, T>(
  db: Database,
  cursors: CursorCodec,
  table: PgTable,
  order: { by: SQL[]; after: (position: readonly unknown[]) => SQL | undefined; keyOf: (row: Row) => KeyValue[] },
  query: PageQuery,
  conditions: Array<SQL | undefined>,
  present: (row: Row) => T,
): Promise<Page<T>> {
  const { cursor, limit: requested, ...filters } = query;
  const limit = requested ?? DEFAULT_PAGE_SIZE;
  const after = cursor ? order.after(cursors.decode(cursor, filters).after) : undefined;
  const rows =
    limit === 0
      ? []
      : ((await db
          .select()
          .from(table)
          .where(and(...conditions, after))
          .orderBy(...order.by)
          .limit(limit + 1)) as Row[]);
  return pageOf(rows, limit, order.keyOf, present, cursors, filters);
}
