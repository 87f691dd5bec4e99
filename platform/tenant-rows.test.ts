import { describe, expect, it } from 'vitest';
import { gt } from 'drizzle-orm';
import { PgDialect, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { tenantRows } from './tenant-rows.ts';

const widgets = pgTable('widgets', {
  tenantId: text('tenant_id').notNull(),
  widgetId: text('widget_id').notNull(),
  size: integer('size').notNull(),
});
const dialect = new PgDialect();

describe('tenantRows', () => {
  it('always filters by the tenant, then by each matched column and extra condition', () => {
    const query = dialect.sqlToQuery(tenantRows(widgets, 't1', { widgetId: 'w1' }, gt(widgets.size, 3)));
    expect(query.sql).toBe('("widgets"."tenant_id" = $1 and "widgets"."widget_id" = $2 and "widgets"."size" > $3)');
    expect(query.params).toEqual(['t1', 'w1', 3]);
  });

  it('is the tenant filter alone when nothing else is asked', () => {
    const query = dialect.sqlToQuery(tenantRows(widgets, 't2'));
    expect(query.sql).toBe('"widgets"."tenant_id" = $1');
    expect(query.params).toEqual(['t2']);
  });

  it("takes only the table's own columns, with their data types", () => {
    // @ts-expect-error a column the table does not have
    tenantRows(widgets, 't3', { colour: 'red' });
    // @ts-expect-error a size is a number
    tenantRows(widgets, 't3', { size: 'large' });
    expect(true).toBe(true);
  });
});
