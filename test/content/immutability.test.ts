import { describe, expect } from 'vitest';
import { sql } from 'drizzle-orm';
import { http, newTenant, sameTenant, tenantRoot } from '../kit.ts';
import { platformTest } from '../platform-test.ts';
import { QTI3_ITEM, appendVersion, blueprint, createItem } from './helpers.ts';

const appendOnly = (error: any) => /append-only/.test(`${error?.message} ${error?.cause?.message}`);

const it = platformTest();

describe('stored versions are immutable', () => {
  it('no write path changes a stored version, and the database refuses UPDATE and DELETE of versions and projections', async ({
    platform,
  }) => {
    const author = await newTenant(platform);
    const root = tenantRoot(author.tenantId);
    const question = await createItem(platform, author, { content_kind: 'question', status: 'published' });
    const v2 = await appendVersion(platform, author, question.content_id, { canonical_xml: QTI3_ITEM });
    const versionUrl = `${root}/items/${question.content_id}/versions/${v2.version_id}`;
    const keysUrl = `${root}/items/${question.content_id}/answer-keys?version_id=${v2.version_id}`;
    const before = [
      await http(platform, 'GET', versionUrl, { token: author.token }),
      await http(platform, 'GET', keysUrl, { token: author.token }),
    ];
    const item = await http(platform, 'GET', `${root}/items/${question.content_id}`, { token: author.token });
    await http(platform, 'PATCH', `${root}/items/${question.content_id}`, {
      token: author.token,
      headers: { 'if-match': item.headers.get('etag')! },
      body: { title: 'changed', status: 'retired' },
    });
    await appendVersion(platform, author, question.content_id, {
      canonical_xml: QTI3_ITEM.replace('<qti-value>B</qti-value>', '<qti-value>A</qti-value>'),
    });
    const reviewer = await sameTenant(platform, author);
    await http(platform, 'POST', `${versionUrl}/qc-decisions`, {
      token: reviewer.token,
      body: { trust_status: 'failed', reason: 'x' },
    });
    const after = [
      await http(platform, 'GET', versionUrl, { token: author.token }),
      await http(platform, 'GET', keysUrl, { token: author.token }),
    ];
    expect(after.map((reply) => reply.body)).toEqual(before.map((reply) => reply.body));

    const { db } = platform.runtime.database;
    for (const statement of [
      sql`update content.versions set canonical_xml = 'x' where tenant_id = ${author.tenantId}`,
      sql`delete from content.versions where tenant_id = ${author.tenantId}`,
      sql`update content.answer_slots set correct_values = '["C"]'::jsonb where tenant_id = ${author.tenantId}`,
      sql`delete from content.assessment_components where tenant_id = ${author.tenantId}`,
      sql`update content.scoring_plans set template = null where tenant_id = ${author.tenantId}`,
    ]) {
      await expect(db.execute(statement)).rejects.toSatisfy(appendOnly);
    }
    const spec = await createItem(platform, author, { content_kind: 'test_spec', ...blueprint });
    await expect(
      db.execute(sql`update content.test_spec_blueprints set min_forms = 9 where tenant_id = ${author.tenantId}`),
    ).rejects.toSatisfy(appendOnly);
    expect(
      (await http(platform, 'GET', `${root}/items/${spec.content_id}/blueprint`, { token: author.token })).body
        .min_forms,
    ).toBe(2);
    expect(after[0].status).toBe(200);
  });
});
