import { randomUUID } from 'node:crypto';
import { describe, expect } from 'vitest';
import { http, newTenant, sameTenant, tenantRoot, type Caller } from '../kit.ts';
import { filePlatform, platformTest } from '../platform-test.ts';
import { createItem, expectUnchanged } from './helpers.ts';

const it = platformTest();

async function define(caller: Caller, body: Record<string, unknown>) {
  return http(filePlatform(), 'POST', `${tenantRoot(caller.tenantId)}/catalog-facets`, { token: caller.token, body });
}
async function assign(
  caller: Caller,
  contentId: string,
  body: Record<string, unknown>,
  key: string | null = randomUUID(),
) {
  return http(filePlatform(), 'POST', `${tenantRoot(caller.tenantId)}/items/${contentId}/catalog-facets`, {
    token: caller.token,
    headers: key === null ? {} : { 'idempotency-key': key },
    body,
  });
}

describe('catalog facets', () => {
  it('defines each of the twelve keys once and lists them', async ({ platform }) => {
    const caller = await newTenant(platform);
    const created = await define(caller, {
      facet_key: 'modality',
      value_type: 'enum',
      allowed_values: ['visual', 'audio'],
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      facet_key: 'modality',
      value_type: 'enum',
      grain: 'content_item',
      status: 'active',
      allowed_values: ['visual', 'audio'],
    });
    await define(caller, { facet_key: 'quality_rating', value_type: 'number' });
    const again = await define(caller, { facet_key: 'modality', value_type: 'text' });
    expect([again.status, again.body.code]).toEqual([409, 'content.catalog_facet_exists']);
    for (const body of [
      { facet_key: 'colour', value_type: 'text' },
      { facet_key: 'subject', value_type: 'list' },
      { facet_key: 'subject', value_type: 'text', grain: 'course' },
      { facet_key: 'subject', value_type: 'text', allowed_values: ['a'] },
      { facet_key: 'subject', value_type: 'text', extra: 1 },
    ]) {
      const refused = await define(caller, body);
      expect([refused.status, refused.body.code], JSON.stringify(body)).toEqual([400, 'content.validation_failed']);
    }
    const listed = await http(platform, 'GET', `${tenantRoot(caller.tenantId)}/catalog-facets`, {
      token: caller.token,
    });
    expect(listed.body.data.map((facet: any) => facet.facet_key)).toEqual(['modality', 'quality_rating']);
    const reader = await sameTenant(platform, caller, { scopes: ['read:content'] });
    expect((await define(reader, { facet_key: 'subject', value_type: 'text' })).status).toBe(403);
    expect(
      (await http(platform, 'GET', `${tenantRoot(caller.tenantId)}/catalog-facets`, { token: reader.token })).status,
    ).toBe(200);
  });

  it('assigns typed values with provenance, idempotently, and GET /items filters by them', async ({ platform }) => {
    const caller = await newTenant(platform);
    const root = tenantRoot(caller.tenantId);
    for (const body of [
      { facet_key: 'subject', value_type: 'enum' },
      { facet_key: 'expected_xp_band', value_type: 'enum' },
      { facet_key: 'provenance', value_type: 'text' },
      { facet_key: 'quality_rating', value_type: 'number' },
      { facet_key: 'accessibility_profile', value_type: 'boolean' },
      { facet_key: 'kc_refs', value_type: 'reference' },
    ])
      expect((await define(caller, body)).status).toBe(201);
    const a = await createItem(platform, caller, { content_kind: 'article' });
    const b = await createItem(platform, caller, { content_kind: 'article' });
    const key = randomUUID();
    const assigned = await assign(
      caller,
      a.content_id,
      { facet_key: 'provenance', facet_value: 'legacy_import', provenance: { source_test_id: 't-9' } },
      key,
    );
    expect(assigned.status).toBe(201);
    expect(assigned.body).toMatchObject({
      facet_key: 'provenance',
      facet_value: 'legacy_import',
      provenance: { source_test_id: 't-9' },
    });
    const replay = await assign(
      caller,
      a.content_id,
      { facet_key: 'provenance', facet_value: 'legacy_import', provenance: { source_test_id: 't-9' } },
      key,
    );
    expect([replay.status, replay.headers.get('idempotency-replayed'), replay.body.assignment_id]).toEqual([
      200,
      'true',
      assigned.body.assignment_id,
    ]);
    const conflict = await assign(caller, a.content_id, { facet_key: 'provenance', facet_value: 'other' }, key);
    expect([conflict.status, conflict.body.code]).toEqual([409, 'content.idempotency_conflict']);
    expect((await assign(caller, a.content_id, { facet_key: 'subject', facet_value: 'math' })).status).toBe(201);
    const band = await assign(caller, b.content_id, { facet_key: 'expected_xp_band', facet_value: 'standard' });
    expect(band.body.facet_value).toBe('10_to_20');
    expect(
      (await assign(caller, b.content_id, { facet_key: 'quality_rating', facet_value: 4.5 })).body.facet_value,
    ).toBe(4.5);
    expect(
      (await assign(caller, b.content_id, { facet_key: 'accessibility_profile', facet_value: true })).body.facet_value,
    ).toBe(true);
    const listed = await http(platform, 'GET', `${root}/items/${b.content_id}/catalog-facets`, { token: caller.token });
    expect(listed.body.data.map((x: any) => [x.facet_key, x.facet_value])).toEqual([
      ['accessibility_profile', true],
      ['expected_xp_band', '10_to_20'],
      ['quality_rating', 4.5],
    ]);
    const ids = async (query: string) =>
      (await http(platform, 'GET', `${root}/items?${query}`, { token: caller.token })).body.data.map(
        (x: any) => x.content_id,
      );
    expect(await ids('subject=math')).toEqual([a.content_id]);
    expect(await ids('provenance=legacy_import')).toEqual([a.content_id]);
    expect(await ids('expected_xp_band=10_to_20')).toEqual([b.content_id]);
    expect(await ids('expected_xp_band=standard')).toEqual([b.content_id]);
    expect(await ids('facet=expected_xp_band:standard')).toEqual([b.content_id]);
    expect(await ids('facet=subject:math')).toEqual([a.content_id]);
    expect(await ids('quality_rating=4.5')).toEqual([b.content_id]);
    // A number facet matches the number however the query writes it; other facets match the text exactly.
    expect(await ids('quality_rating=4.50')).toEqual([b.content_id]);
    expect(await ids('facet=quality_rating:45e-1')).toEqual([b.content_id]);
    expect(await ids('quality_rating=4.6')).toEqual([]);
    expect((await assign(caller, a.content_id, { facet_key: 'kc_refs', facet_value: '4.5' })).status).toBe(201);
    expect(await ids('kc_refs=4.50')).toEqual([]);
    expect(await ids('kc_refs=4.5')).toEqual([a.content_id]);
    expect(await ids('subject=math&provenance=nothing')).toEqual([]);
    for (const facet of [
      'grade_band',
      'language',
      'accessibility_profile',
      'rights_license',
      'kc_refs',
      'standards_framework_refs',
      'modality',
    ]) {
      expect((await http(platform, 'GET', `${root}/items?${facet}=x`, { token: caller.token })).status, facet).toBe(
        200,
      );
    }
  });

  it('refuses assignments without a key, to undefined facets, of the wrong type or to unknown items, writing nothing', async ({
    platform,
  }) => {
    const caller = await newTenant(platform);
    await define(caller, { facet_key: 'modality', value_type: 'enum', allowed_values: ['visual'] });
    await define(caller, { facet_key: 'quality_rating', value_type: 'number' });
    await define(caller, { facet_key: 'language', value_type: 'text', status: 'retired' });
    const item = await createItem(platform, caller, { content_kind: 'article' });
    await expectUnchanged(platform, caller, `/items/${item.content_id}/catalog-facets`, async () => {
      const noKey = await assign(caller, item.content_id, { facet_key: 'modality', facet_value: 'visual' }, null);
      expect([noKey.status, noKey.body.code]).toEqual([400, 'content.idempotency_key_required']);
      for (const body of [
        { facet_key: 'subject', facet_value: 'math' },
        { facet_key: 'language', facet_value: 'en' },
        { facet_key: 'modality', facet_value: 'tactile' },
        { facet_key: 'quality_rating', facet_value: 'high' },
        { facet_key: 'colour', facet_value: 'x' },
        { facet_key: 'modality', facet_value: 'visual', note: 'x' },
      ]) {
        const refused = await assign(caller, item.content_id, body);
        expect([refused.status, refused.body.code], JSON.stringify(body)).toEqual([400, 'content.validation_failed']);
      }
      const author = await sameTenant(platform, caller, { scopes: ['read:content'] });
      expect((await assign(author, item.content_id, { facet_key: 'modality', facet_value: 'visual' })).status).toBe(
        403,
      );
    });
    const unknown = await assign(caller, randomUUID(), { facet_key: 'modality', facet_value: 'visual' });
    expect([unknown.status, unknown.body.code]).toEqual([404, 'content.not_found']);
  });
});
