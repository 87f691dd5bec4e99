import { and, asc, desc, eq, gt, lt, or, type SQL } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Database } from './db.ts';
import { DEFAULT_PAGE_SIZE, pageOf, type CursorCodec, type Page } from './cursor.ts';

/**
 * Keyset paging over a sort column with the row id as tie-breaker, in either direction: the rows
 * after a cursor position, and the matching ORDER BY. Stable under concurrent inserts.
 */
export interface SortedKeyset {
  sortColumn: AnyPgColumn;
  idColumn: AnyPgColumn;
  descending: boolean;
}

export function rowsAfter(keyset: SortedKeyset, [lastValue, lastId]: readonly unknown[]): SQL | undefined {
  const beyond = keyset.descending ? lt : gt;
  return or(beyond(keyset.sortColumn, lastValue), and(eq(keyset.sortColumn, lastValue), beyond(keyset.idColumn, lastId)));
}

export function keysetOrder(keyset: SortedKeyset): SQL[] {
  const direction = keyset.descending ? desc : asc;
  return [direction(keyset.sortColumn), direction(keyset.idColumn)];
}

/**
 * One page of a list ordered by its unique id column: the caller's filter conditions, the position
 * after the cursor (bound to the other query fields), and the page cut from limit + 1 rows.
 */
export async function pageInIdOrder<Row, T>(
  db: Database,
  cursors: CursorCodec,
  source: { table: PgTable; idColumn: AnyPgColumn; idOf: (row: Row) => string },
  query: { limit?: number; cursor?: string },
  conditions: Array<SQL | undefined>,
  present: (row: Row) => T,
): Promise<Page<T>> {
  const { cursor, limit: requested, ...filters } = query;
  const limit = requested ?? DEFAULT_PAGE_SIZE;
  const after = cursor ? gt(source.idColumn, String(cursors.decode(cursor, filters).after[0])) : undefined;
  const rows =
    limit === 0
      ? []
      : ((await db
          .select()
          .from(source.table)
          .where(and(...conditions, after))
          .orderBy(asc(source.idColumn))
          .limit(limit + 1)) as Row[]);
  return pageOf(rows, limit, (row) => [source.idOf(row)], present, cursors, filters);
}
