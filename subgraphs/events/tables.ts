import { index, pgSchema, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { idempotencyTable } from '../../platform/idempotency.ts';

/** The events service's own schema; every key starts with tenant_id. */
export const eventsSchema = pgSchema('events');

/** Registry of activity sources; the natural key is tenant plus sourceIri. */
export const activitySources = eventsSchema.table(
  'activity_sources',
  {
    tenantId: text('tenant_id').notNull(),
    sourceId: uuid('source_id').notNull(),
    sourceIri: text('source_iri').notNull(),
    name: text('name').notNull(),
    status: text('status').notNull(),
    createdBy: text('created_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'string' }).notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.tenantId, table.sourceId] }),
    uniqueIndex('activity_sources_iri_idx').on(table.tenantId, table.sourceIri),
    index('activity_sources_created_idx').on(table.tenantId, table.createdAt, table.sourceId),
  ],
);

export const eventsIdempotency = idempotencyTable(eventsSchema);
