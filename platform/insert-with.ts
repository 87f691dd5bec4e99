import { getTableColumns, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Database } from './db.ts';

/**
 * One statement for a row and what follows from it: `insert` (returning `table`'s rows, or none when
 * its key is taken) as a CTE named `created`, and `follow`, a data-modifying statement that reads its
 * rows from `created`, so a taken key writes nothing. Answers the inserted rows. Saves a round trip
 * (and, alone in its transaction, the BEGIN and COMMIT) on the hottest creates.
 */
export async function insertWith<Table extends PgTable>(
  db: Database,
  table: Table,
  insert: SQLWrapper & PromiseLike<Array<Table['$inferSelect']>>,
  follow: (created: SQLWrapper) => SQL,
): Promise<Array<Table['$inferSelect']>> {
  const columns: Record<string, AnyPgColumn> = getTableColumns(table);
  const created = db.$with('created', columns).as(insert.getSQL());
  const following = db.$with('following', {}).as(follow(sql`${sql.identifier('created')}`));
  return (await db.with(created, following).select().from(created)) as Array<Table['$inferSelect']>;
}

/** Column names, unqualified and comma-separated, for an insert's column list or a select from a CTE. */
export function columnNames(...columns: Array<{ name: string }>): SQL {
  return sql.join(
    columns.map((column) => sql.identifier(column.name)),
    sql`, `,
  );
}
