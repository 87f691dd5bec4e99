import type { BuildExtraConfigColumns } from 'drizzle-orm';
import {
  integer,
  primaryKey,
  text,
  timestamp,
  type PgColumn,
  type PgColumnBuilderBase,
  type PgSchema,
  type PgTableExtraConfigValue,
} from 'drizzle-orm/pg-core';

/** A point in time as every table stores it: with its time zone, read and written as an ISO string. */
export function instant(name: string) {
  return timestamp(name, { withTimezone: true, mode: 'string' });
}

/** Who wrote an append-only row, and when. */
export function creation() {
  return { createdBy: text('created_by').notNull(), createdAt: instant('created_at').notNull() };
}

/** When a changeable row was created and last changed. */
export function changeTimes() {
  return { createdAt: instant('created_at').notNull(), updatedAt: instant('updated_at').notNull() };
}

/**
 * A governed row that is soft-retired, never deleted: its status, a version that advances on every
 * change (reactivation included; the ETag is derived from it) and its times.
 */
export function lifecycle() {
  return {
    status: text('status').notNull(),
    version: integer('version').notNull(),
    ...changeTimes(),
    retiredAt: instant('retired_at'),
  };
}

function tenantColumn() {
  return { tenantId: text('tenant_id').notNull() };
}

type WithTenant<TColumns> = ReturnType<typeof tenantColumn> & TColumns;

/**
 * The table factory of one service's schema. Every table of the platform starts with `tenant_id`
 * and its primary key is the tenant followed by `key`, so neither can be forgotten or written
 * another way; `indexes` adds the table's other constraints.
 */
export function tenantTables<TSchema extends string>(schema: PgSchema<TSchema>) {
  return function tenantTable<TName extends string, TColumns extends Record<string, PgColumnBuilderBase>>(
    name: TName,
    key: ReadonlyArray<keyof TColumns & string>,
    columns: TColumns,
    indexes: (
      table: BuildExtraConfigColumns<TName, WithTenant<TColumns>, 'pg'>,
    ) => PgTableExtraConfigValue[] = () => [],
  ) {
    const withTenant: WithTenant<TColumns> = { ...tenantColumn(), ...columns };
    return schema.table(name, withTenant, (table) => {
      const keyColumns = key.map((column) => (table as Record<string, PgColumn>)[column]);
      return [primaryKey({ columns: [table.tenantId, ...keyColumns] }), ...indexes(table)];
    });
  };
}
