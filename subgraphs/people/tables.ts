import { pgSchema, text } from 'drizzle-orm/pg-core';
import { instant, tenantTables } from '../../platform/columns.ts';

/**
 * The people service is outside this platform. This schema belongs to its small stand-in, which the
 * embedded default runs so that person lookups (test-serve reality, event student names) work
 * without setup; production points PEOPLE_URL at the real service and never creates it.
 */
export const peopleSchema = pgSchema('people_standin');
const peopleTable = tenantTables(peopleSchema);

export const persons = peopleTable('persons', ['personId'], {
  personId: text('person_id').notNull(),
  givenName: text('given_name').notNull(),
  familyName: text('family_name').notNull(),
  /** real, test or synthetic: only test and synthetic persons may be served test forms. */
  reality: text('reality').notNull(),
  status: text('status').notNull(),
  createdAt: instant('created_at').notNull(),
});
