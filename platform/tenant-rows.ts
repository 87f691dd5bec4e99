import { and, eq, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';

/** A table of the platform: every one carries `tenant_id`. */
type TenantTable = PgTable & { tenantId: PgColumn };

/** Column values to match, by the table's property names, typed by each column's data. */
export type ColumnMatch<T extends TenantTable> = {
  [K in keyof T as T[K] extends PgColumn ? K : never]?: T[K] extends PgColumn ? T[K]['_']['data'] : never;
};

/**
 * The condition for rows of one tenant whose columns equal `match`, and any further conditions: the
 * one place the tenant filter is written, so no query of a command or a read can forget it.
 */
export function tenantRows<T extends TenantTable>(
  table: T,
  tenantId: string,
  match: ColumnMatch<T> = {},
  ...conditions: Array<SQL | undefined>
): SQL {
  const equalities = Object.entries(match).map(([property, value]) =>
    eq((table as unknown as Record<string, PgColumn>)[property], value),
  );
  return and(eq(table.tenantId, tenantId), ...equalities, ...conditions) as SQL;
}
