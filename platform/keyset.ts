import { and, asc, desc, eq, gt, lt, or, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';

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
