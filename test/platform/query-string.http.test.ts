import { describe, expect } from 'vitest';
import { curriculumV1, http, newTenant, tenantRoot } from '../kit.ts';
import { platformTest } from '../platform-test.ts';
import { createItem } from '../content/helpers.ts';

const it = platformTest();

describe('query strings', () => {
  it('refuses a query parameter on a path that takes none, naming it, instead of ignoring it', async ({ platform }) => {
    const caller = await newTenant(platform);
    const item = await createItem(platform, caller, { content_kind: 'article' });
    const root = tenantRoot(caller.tenantId);
    for (const path of [
      `${root}/items/${item.content_id}?version_id=${item.latest_version_id}`,
      `${root}/items/${item.content_id}/media?limit=1`,
      `${root}/policies?limit=1`,
      `${root}/catalog-facets?status=retired`,
      `${root}/items/${item.content_id}/curriculum-links?cursor=x`,
    ]) {
      const refused = await http(platform, 'GET', path, { token: caller.token });
      expect([refused.status, refused.body.code, refused.body.fieldErrors], path).toEqual([
        400,
        'content.validation_failed',
        [{ field: new URL(path, platform.url).searchParams.keys().next().value, message: 'unknown field' }],
      ]);
    }
    const curriculum = await http(platform, 'GET', `${curriculumV1}/kcs/x?limit=1`, { token: caller.token });
    expect([curriculum.status, curriculum.body.code]).toEqual([400, 'curriculum:validation_failed']);
    // Without a token it is 401 whatever the query says; without a query the path answers as before.
    expect((await http(platform, 'GET', `${root}/items/${item.content_id}?x=1`)).status).toBe(401);
    expect((await http(platform, 'GET', `${root}/items/${item.content_id}`, { token: caller.token })).status).toBe(200);
  });

  it('refuses a query value or name that is not valid percent-encoded UTF-8 instead of reading it as written', async ({
    platform,
  }) => {
    const caller = await newTenant(platform);
    const item = await createItem(platform, caller, { content_kind: 'article', source_record_id: '%E0%A4%A' });
    const root = tenantRoot(caller.tenantId);
    for (const [query, field] of [
      ['source_record_id=%E0%A4%A', 'source_record_id'],
      ['source_record_id=%ED%A0%80', 'source_record_id'],
      ['source_record_id=%C0%AF', 'source_record_id'],
      ['source_record_id=100%', 'source_record_id'],
      ['source_%ZZ=1', 'source_%ZZ'],
    ]) {
      const refused = await http(platform, 'GET', `${root}/items?${query}`, { token: caller.token });
      expect([refused.status, refused.body.code, refused.body.fieldErrors], query).toEqual([
        400,
        'content.validation_failed',
        [{ field, message: 'is not valid percent-encoded UTF-8' }],
      ]);
    }
    // The value written with its percent sign encoded finds the item.
    const found = await http(platform, 'GET', `${root}/items?source_record_id=${encodeURIComponent('%E0%A4%A')}`, {
      token: caller.token,
    });
    expect(found.body.data.map((row: { content_id: string }) => row.content_id)).toEqual([item.content_id]);
    const plus = await http(platform, 'GET', `${root}/items?source_record_id=a+b%20c`, { token: caller.token });
    expect([plus.status, plus.body.data]).toEqual([200, []]);
  });

  it('refuses a query parameter given more than once, saying so, instead of naming its values invalid', async ({
    platform,
  }) => {
    const caller = await newTenant(platform);
    const root = tenantRoot(caller.tenantId);
    for (const [path, field] of [
      [`${root}/items?content_kind=article&content_kind=video`, 'content_kind'],
      [`${root}/items?limit=1&content_kind=article&limit=2`, 'limit'],
      [`${root}/trust-status?trust_status=trusted&trust_status=trusted`, 'trust_status'],
      [`${curriculumV1}/components?limit=1&limit=2`, 'limit'],
    ]) {
      const refused = await http(platform, 'GET', path, { token: caller.token });
      expect([refused.status, refused.body.fieldErrors], path).toEqual([
        400,
        [{ field, message: 'is given more than once; send it once' }],
      ]);
    }
  });
});
