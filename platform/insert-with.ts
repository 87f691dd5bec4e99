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
 * Rows of `table` sent as one JSON array (the placeholder `rows`), read as a record set named `given`
 * with the table's columns under their SQL names and `extra` columns (`name type, ...`): one statement
 * text for any number of rows, so it stays prepared.
 */
export function givenRows(table: PgTable, extra: SQL): SQL {
  const columns = Object.values(getTableColumns(table));
  return sql`jsonb_to_recordset(${sql.placeholder('rows')}::jsonb) as given(${sql.join(
    columns.map((column) => sql`${sql.identifier(column.name)} ${sql.raw(column.getSQLType())}`),
    sql`, `,
  )}, ${extra})`;
}

/** The insert into `table` of every row of `given` (a `givenRows` record set), column for column. */
export function insertGiven<Table extends PgTable>(db: Database, table: Table, given: SQL) {
  return db.insert(table).select(sql`select ${columnNames(...Object.values(getTableColumns(table)))} from ${given}`);
}

/** A row of `table` (its field names) as `givenRows` reads it: keyed by SQL column names, absent as null, with `extra`. */
export function givenRow<Table extends PgTable>(
  table: Table,
  row: Table['$inferInsert'],
  extra: Record<string, unknown>,
): Record<string, unknown> {
  const given: Record<string, unknown> = {};
  for (const [key, column] of Object.entries(getTableColumns(table)))
    given[column.name] = row[key as keyof typeof row] ?? null;
  return { ...given, ...extra };
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
