import { describe, expect, it } from 'vitest';
import { Placeholder, sql } from 'drizzle-orm';
import { rowsOf, type Database } from '../../platform/db.ts';
import { withFreshDatabase } from '../fresh-database.ts';
import { eligibilityQuery } from '../../subgraphs/content/eligibility/eligibility.service.ts';

interface PlanNode {
  'Relation Name'?: string;
  'Actual Rows': number;
  'Actual Loops': number;
  Plans?: PlanNode[];
}

function scansOf(node: PlanNode, relation: string): PlanNode[] {
  const own = node['Relation Name'] === relation ? [node] : [];
  return [...own, ...(node.Plans ?? []).flatMap((child) => scansOf(child, relation))];
}

const literal = (value: string) => `'${value.replaceAll("'", "''")}'`;

/** `count` new items of the tenant, each with one version, straight into the tables. */
async function grow(db: Database, tenantId: string, count: number): Promise<string[]> {
  const created = await db.execute(sql`
    with grown as (
      insert into content.items (tenant_id, content_id, content_kind, title, status, usage_scope, created_by, created_at, updated_at)
      select ${tenantId}, gen_random_uuid(), 'article', 'Grown ' || n, 'draft', 'practice_eligible', 'user:test', now(), now()
      from generate_series(1, ${count}::int) as n
      returning tenant_id, content_id)
    insert into content.versions (tenant_id, version_id, content_id, version_number, student_view, content_hash, created_by, created_at)
    select tenant_id, gen_random_uuid(), content_id, 1, '{}'::jsonb, 'sha256:0', 'user:test', now() from grown
    returning version_id`);
  return rowsOf<{ version_id: string }>(created).map((row) => row.version_id);
}

describe('the release-eligibility statement on PostgreSQL', () => {
  it.skipIf(!process.env.DATABASE_URL)(
    'its cached generic plan starts from the versions asked for, however many items a tenant gained since (PostgreSQL only: PGlite plans each call)',
    () =>
      withFreshDatabase(['content'], async ({ db }) => {
        const tenantId = 'plan-test';
        const [asked] = await grow(db, tenantId, 1);
        const query = eligibilityQuery(db).toSQL();
        const values: Record<string, string> = { tenantId: literal(tenantId), versionIds: literal(`{${asked}}`) };
        const args = query.params.map((param) => (param instanceof Placeholder ? values[param.name] : String(param)));
        const explain = async (tx: Database) =>
          rowsOf<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(
            await tx.execute(
              sql.raw(`explain (analyze, format json) execute eligibility_plan_test(${args.join(', ')})`),
            ),
          )[0]['QUERY PLAN'][0].Plan;
        const plan = await db.transaction(async (tx) => {
          // The plan is made while the tenant is small, as on a new installation, and kept: growth alone
          // never makes PostgreSQL plan a prepared statement again (only an ANALYZE does).
          await tx.execute(sql`set local plan_cache_mode = force_generic_plan`);
          await tx.execute(sql.raw(`prepare eligibility_plan_test as ${query.sql}`));
          await explain(tx);
          await grow(tx, tenantId, 3000);
          return explain(tx);
        });
        // One version asked: one lookup of it and one of its item, never a walk over the tenant's items.
        for (const relation of ['versions', 'items']) {
          const scans = scansOf(plan, relation);
          expect(scans.length, relation).toBeGreaterThan(0);
          for (const scan of scans) {
            expect(scan['Actual Loops'], `${relation} loops`).toBeLessThanOrEqual(1);
            expect(scan['Actual Rows'], `${relation} rows`).toBeLessThanOrEqual(1);
          }
        }
      }),
  );
});
