import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { Placeholder, sql } from 'drizzle-orm';
import { openDatabase, rowsOf, type DatabaseHandle } from '../../platform/db.ts';
import { loadConfig } from '../../platform/config.ts';
import { withFreshDatabase } from '../fresh-database.ts';
import { eventListQuery, eventListShape, type EventFilters } from '../../subgraphs/events/learning/events.service.ts';
import { PLAYER_EXTENSION_NAMESPACE } from '../../subgraphs/events/vocabulary.ts';

/** The database the suite runs on, with the events service's tables only, made for this test and removed after. */
async function withEventsDatabase<Result>(use: (database: DatabaseHandle) => Promise<Result>): Promise<Result> {
  if (process.env.DATABASE_URL) return withFreshDatabase(['events'], use);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'alp-events-plan-'));
  const database = await openDatabase({ ...loadConfig({}), databaseUrl: undefined, dataDir });
  try {
    await database.migrate('events');
    return await use(database);
  } finally {
    await database.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

interface PlanNode {
  'Relation Name'?: string;
  'Actual Rows': number;
  'Actual Loops': number;
  'Rows Removed by Filter'?: number;
  Plans?: PlanNode[];
}

const scansOf = (node: PlanNode): PlanNode[] => [
  ...(node['Relation Name'] === 'learning_events' ? [node] : []),
  ...(node.Plans ?? []).flatMap(scansOf),
];

/**
 * A student's year: `count` events on the course's lessons, kinds in turn, then two attempts on the
 * gate (served, then graded), straight into the table.
 */
const history = (tenantId: string, count: number) => sql`
  insert into events.learning_events (tenant_id, event_id, seq, recorded_at, kind, student_id, activity_source_id,
    happened_at, event_type, profile, action, actor_ref, object_ref, extensions, raw_payload)
  select ${tenantId}, gen_random_uuid(), n, now(),
    case when n > ${count} then (array['assessment_started', 'assessment_graded'])[1 + n % 2]
      else (array['content_viewed', 'assessment_started', 'assessment_graded'])[1 + n % 3] end,
    'stu-1', gen_random_uuid(), now(), 'Event', 'GeneralProfile', 'Used', '{}'::jsonb, '{}'::jsonb,
    jsonb_build_object(${`${PLAYER_EXTENSION_NAMESPACE}/component_id`}::text,
      case when n > ${count} then 'gate-a' else 'lesson-' || n % 300 end),
    '{}'::jsonb
  from generate_series(1, ${count}::int + 4) as n`;

// A gate's next form reads the served forms; its status reads both kinds in one call.
it.each([
  ['assessment_started', 2],
  ['assessment_started,assessment_graded', 4],
])("a student's events on one component (kind %s) are read without walking the rest of the history", (kind, found) =>
  withEventsDatabase(async ({ db }) => {
    const tenantId = 'component-history';
    await db.execute(history(tenantId, 3000));
    await db.execute(sql`analyze events.learning_events`);
    const filters: EventFilters = { studentId: 'stu-1', componentId: 'gate-a', kind };
    // The statement GET /events prepares for these filters, with the values it is executed with.
    const shape = eventListShape(tenantId, [], filters);
    const values = { ...shape.values, limit: 201 };
    const list = eventListQuery(db, shape);
    expect(await list.execute(values)).toHaveLength(found);
    const query = list.toSQL();
    const literal = (param: unknown) => {
      const given = param instanceof Placeholder ? values[param.name as keyof typeof values] : param;
      const text = Array.isArray(given) ? `{${given.join(',')}}` : String(given);
      return `'${text.replaceAll("'", "''")}'`;
    };
    const plans = await db.transaction(async (tx) => {
      const explain = async (statement: string) =>
        rowsOf<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(
          await tx.execute(sql.raw(`explain (analyze, format json) ${statement}`)),
        )[0]['QUERY PLAN'][0].Plan;
      await tx.execute(sql.raw(`prepare component_history as ${query.sql}`));
      const custom = await explain(`execute component_history(${query.params.map(literal).join(', ')})`);
      // The plan a prepared statement keeps once the planner judges it as good as the ones made per call.
      await tx.execute(sql`set local plan_cache_mode = force_generic_plan`);
      return [custom, await explain(`execute component_history(${query.params.map(literal).join(', ')})`)];
    });
    for (const plan of plans) {
      const scans = scansOf(plan);
      expect(scans.length).toBeGreaterThan(0);
      // The gate's four events at most; the student's index alone reads all 3,004 and filters 3,002 away.
      const rowsRead = scans.reduce(
        (sum, scan) => sum + (scan['Actual Rows'] + (scan['Rows Removed by Filter'] ?? 0)) * scan['Actual Loops'],
        0,
      );
      expect(rowsRead).toBeLessThanOrEqual(4);
    }
  }),
);
