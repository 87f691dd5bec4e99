import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { Principal } from '../../platform/auth.ts';
import type { RequestContext } from '../../platform/context.ts';
import { openDatabase, rowsOf, type DatabaseHandle } from '../../platform/db.ts';
import { loadConfig } from '../../platform/config.ts';
import { loadVersionsWithEligibility } from '../../subgraphs/content/eligibility/eligibility.service.ts';

/** On PostgreSQL when DATABASE_URL is set, else on a fresh PGlite. */
describe('versions with eligibility: one key (the index lookup) and several (one array parameter) answer alike', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'alp-eligibility-reads-'));
  let database: DatabaseHandle;
  const tenant = `reads-${crypto.randomUUID()}`;
  const other = `reads-${crypto.randomUUID()}`;
  const versionIds = new Map<string, string[]>();

  beforeAll(async () => {
    database = await openDatabase({ ...loadConfig({ DATABASE_URL: process.env.DATABASE_URL }), dataDir });
    await database.migrate('content');
    for (const tenantId of [tenant, other]) {
      const created = await database.db.execute(sql`
        with grown as (
          insert into content.items (tenant_id, content_id, content_kind, title, status, usage_scope, created_by, created_at, updated_at)
          select ${tenantId}, gen_random_uuid(), (array['article', 'video', 'question'])[1 + n % 3], 'Item ' || n,
            (array['draft', 'published'])[1 + n % 2], 'practice_eligible', 'user:test', now(), now()
          from generate_series(1, 6) as n
          returning tenant_id, content_id)
        insert into content.versions (tenant_id, version_id, content_id, version_number, student_view, content_hash, created_by, created_at)
        select tenant_id, gen_random_uuid(), content_id, 1, '{}'::jsonb, 'sha256:0', 'user:test', now() from grown
        returning version_id`);
      versionIds.set(
        tenantId,
        rowsOf<{ version_id: string }>(created).map((row) => row.version_id),
      );
    }
  });
  afterAll(async () => {
    await database?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const read = async (tenantId: string, ids: string[]) => {
    const principal = { subject: 'user:test', tenantId, scopes: new Set(['read:content']), roles: new Set() };
    const ctx = { tenantId, principal: principal as unknown as Principal } as RequestContext;
    const found = await loadVersionsWithEligibility({ db: database.db } as never, ctx, { versionIds: ids });
    return [...found.values()].sort((a, b) => a.version.version_id.localeCompare(b.version.version_id));
  };

  it("answers the tenant's own version for one id, given once or repeated, and nothing for another tenant's or an unknown id", async () => {
    const own = versionIds.get(tenant) as string[];
    for (const id of own) {
      const [single] = await read(tenant, [id]);
      expect(single.version.version_id).toBe(id);
      expect(await read(tenant, [id, id, id])).toEqual([single]);
      expect(await read(other, [id])).toEqual([]);
    }
    expect(await read(tenant, [crypto.randomUUID()])).toEqual([]);
    expect(await read(tenant, ['not-a-uuid'])).toEqual([]);
    expect(await read(tenant, [])).toEqual([]);
  });

  it('answers several ids as the single reads of each would, in one statement', async () => {
    const own = versionIds.get(tenant) as string[];
    const singles = (await Promise.all(own.map((id) => read(tenant, [id])))).flat();
    const together = await read(tenant, [...own, crypto.randomUUID(), own[1], ...(versionIds.get(other) as string[])]);
    expect(together).toEqual(singles.sort((a, b) => a.version.version_id.localeCompare(b.version.version_id)));
    expect(new Set(together.map((found) => found.eligibility.content_kind)).size).toBe(3);
  });
});
