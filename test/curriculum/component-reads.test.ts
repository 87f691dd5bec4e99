import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { openDatabase, type DatabaseHandle } from '../../platform/db.ts';
import { loadConfig } from '../../platform/config.ts';
import { findComponentRows } from '../../subgraphs/curriculum/queries.ts';

/** On PostgreSQL when DATABASE_URL is set, else on a fresh PGlite. */
describe('components by id: one key (the index lookup) and several (one array parameter) answer alike', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'alp-component-reads-'));
  let database: DatabaseHandle;
  const tenant = `reads-${crypto.randomUUID()}`;
  const other = `reads-${crypto.randomUUID()}`;
  const ids = Array.from({ length: 5 }, (_, index) => `lesson-${index}-${crypto.randomUUID().slice(0, 8)}`);

  beforeAll(async () => {
    database = await openDatabase({ ...loadConfig({ DATABASE_URL: process.env.DATABASE_URL }), dataDir });
    await database.migrate('curriculum');
    for (const tenantId of [tenant, other]) {
      for (const [position, componentId] of ids.entries()) {
        await database.db.execute(sql`
          insert into curriculum.components (tenant_id, component_id, kind, position, name, alpha, status, version, created_at, updated_at, publication_status)
          values (${tenantId}, ${componentId}, 'lesson', ${position}, ${`${tenantId} ${componentId}`}, '{}'::jsonb, 'active', 1, now(), now(), 'draft')`);
      }
    }
  });
  afterAll(async () => {
    await database?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const namesOf = async (tenantId: string, componentIds: string[]) =>
    (await findComponentRows(database.db, tenantId, componentIds)).map((row) => row.name).sort();

  it("answers the tenant's own row for one id, given once or repeated, and nothing for another tenant's or an unknown id", async () => {
    for (const id of ids) {
      expect(await namesOf(tenant, [id])).toEqual([`${tenant} ${id}`]);
      expect(await namesOf(tenant, [id, id, id])).toEqual([`${tenant} ${id}`]);
      expect(await namesOf(other, [id])).toEqual([`${other} ${id}`]);
    }
    expect(await namesOf(tenant, ['no-such-component'])).toEqual([]);
    expect(await namesOf(`reads-${crypto.randomUUID()}`, [ids[0]])).toEqual([]);
    expect(await namesOf(tenant, [])).toEqual([]);
  });

  it('answers several ids as the single reads of each would, in one statement', async () => {
    const singles = (await Promise.all(ids.map((id) => namesOf(tenant, [id])))).flat().sort();
    expect(await namesOf(tenant, [...ids, 'no-such-component', ids[1]])).toEqual(singles);
  });
});
