import { getTableColumns, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Database } from './db.ts';

/**
 * One statement for a row and what follows from it: `insert` (returning `table`'s rows, or none when
 * its key is taken) as a CTE named `created`, and `follow`, data-modifying statements that read their
 * rows from `created`, so a taken key writes nothing. Selects the inserted rows (await it, or prepare it). Saves a round trip
 * (and, alone in its transaction, the BEGIN and COMMIT) on the hottest creates.
 */
export function insertWith<Table extends PgTable>(
  db: Database,
  table: Table,
  insert: SQLWrapper & PromiseLike<Array<Table['$inferSelect']>>,
  follow: (created: SQLWrapper) => SQL | SQL[],
) {
  const columns: Record<string, AnyPgColumn> = getTableColumns(table);
  const created = db.$with('created', columns).as(insert.getSQL());
  const follows = [follow(sql`${sql.identifier('created')}`)].flat();
  const following = follows.map((statement, index) => db.$with(`following_${index}`, {}).as(statement));
  // The CTE's columns are the table's own, so its rows are the table's rows.
  return db
    .with(created, ...following)
    .select()
    .from(created) as unknown as PromiseLike<Array<Table['$inferSelect']>> & {
    prepare(name: string): Prepared<Table>;
  };
}

/**
 * The insert of one row of `table` from placeholders named like its columns (`execute` it with a row
 * object): built once and prepared, the hottest creates skip drizzle's query building.
 */
export function insertFromPlaceholders<Table extends PgTable>(db: Database, table: Table) {
  const placeholders = Object.fromEntries(
    Object.keys(getTableColumns(table)).map((name) => [name, sql.placeholder(name)]),
  );
  return db.insert(table).values(placeholders as Table['$inferInsert']);
}

interface Prepared<Table extends PgTable> {
  execute(values?: Record<string, unknown>): Promise<Array<Table['$inferSelect']>>;
}

/** Column names, unqualified and comma-separated, for an insert's column list or a select from a CTE. */
export function columnNames(...columns: Array<{ name: string }>): SQL {
  return sql.join(
    columns.map((column) => sql.identifier(column.name)),
    sql`, `,
  );
}
