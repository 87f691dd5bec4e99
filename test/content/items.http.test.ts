import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { IDEMPOTENCY_RETENTION_DAYS } from '../../platform/idempotency.ts';
import fc from 'fast-check';
import { http, newTenant, sameTenant, tenantRoot } from '../kit.ts';
import { platformTest } from '../platform-test.ts';
import { Blueprint } from '../../subgraphs/content/blueprints/blueprint.service.ts';
import { blueprint, createItem, expectUnchanged } from './helpers.ts';

const it = platformTest();

describe('POST {tenant_root}/items under an Idempotency-Key', () => {
  it('compares the request as sent: another JSON layout replays, an untrimmed title or an explicit default is 409', async ({
    platform,
  }) => {
    const author = await newTenant(platform);
    const url = `${tenantRoot(author.tenantId)}/items`;
    const headers = { 'idempotency-key': randomUUID(), 'content-type': 'application/json' };
    const title = `Fractions ${randomUUID()}`;
    const first = await http(platform, 'POST', url, {
      token: author.token,
      headers,
      body: { content_kind: 'article', title },
    });
    expect(first.status).toBe(201);
    const relaid = await http(platform, 'POST', url, {
      token: author.token,
      headers,
      rawBody: `{\n  "title" : ${JSON.stringify(title)},\n  "content_kind" : "article"\n}`,
    });
    expect([relaid.status, relaid.headers.get('idempotency-replayed'), relaid.body]).toEqual([200, 'true', first.body]);
    for (const changed of [
      { content_kind: 'article', title: ` ${title} ` },
      { content_kind: 'article', title, usage_scope: 'practice_eligible' },
    ]) {
      const refused = await http(platform, 'POST', url, { token: author.token, headers, body: changed });
      expect([refused.status, refused.body.code]).toEqual([409, 'content.idempotency_conflict']);
    }
  });

  it('creates the item, its first version and the key record in one statement; a replay answers the same, storing nothing new', async ({
    platform,
  }) => {
    const author = await newTenant(platform);
    const url = `${tenantRoot(author.tenantId)}/items`;
    const headers = { 'idempotency-key': randomUUID(), 'content-type': 'application/json' };
    const body = { content_kind: 'article', title: `Ratios ${randomUUID()}` };
    const { stats } = platform.runtime.database;
    const sent = async () => {
      const before = stats.queries;
      const reply = await http(platform, 'POST', url, { token: author.token, headers, body });
      return { reply, statements: stats.queries - before };
    };
    const first = await sent();
    // The item, its first version and the key's record with its answer: one self-committing statement.
    expect([first.reply.status, first.statements]).toEqual([201, 1]);
    const versions = await http(platform, 'GET', `${url}/${first.reply.body.content_id}/versions`, {
      token: author.token,
    });
    expect(versions.body.data.map((version: { version_number: number }) => version.version_number)).toEqual([1]);
    const replayed = await sent();
    expect([replayed.reply.status, replayed.reply.body]).toEqual([200, first.reply.body]);
    const after = await http(platform, 'GET', `${url}/${first.reply.body.content_id}/versions`, {
      token: author.token,
    });
    expect(after.body).toEqual(versions.body);
    const item = await http(platform, 'GET', `${url}/${first.reply.body.content_id}`, { token: author.token });
    expect(item.body).toEqual(first.reply.body);
  });

  it('answers concurrent identical requests under one key with one 201 and replays of it, creating one item', async ({
    platform,
  }) => {
    const author = await newTenant(platform);
    const url = `${tenantRoot(author.tenantId)}/items`;
    const headers = { 'idempotency-key': randomUUID() };
    for (const body of [
      { content_kind: 'article', title: `Racer ${randomUUID()}` },
      { content_kind: 'article', title: `Racer ${randomUUID()}`, content_id: randomUUID() },
    ]) {
      const keyed = { ...headers, 'idempotency-key': randomUUID() };
      const replies = await Promise.all(
        Array.from({ length: 6 }, () => http(platform, 'POST', url, { token: author.token, headers: keyed, body })),
      );
      expect(replies.map((reply) => reply.status).sort()).toEqual([200, 200, 200, 200, 200, 201]);
      const created = replies.find((reply) => reply.status === 201);
      for (const reply of replies) expect(reply.body).toEqual(created?.body);
      const listed = await http(platform, 'GET', `${url}?limit=100`, { token: author.token });
      expect(listed.body.data.filter((item: { title: string }) => item.title === body.title)).toHaveLength(1);
    }
  });

  it('answers 409 item_exists for a taken content_id under a new key, storing neither a version nor the key', async ({
    platform,
  }) => {
    const author = await newTenant(platform);
    const url = `${tenantRoot(author.tenantId)}/items`;
    const contentId = randomUUID();
    const taken = { content_kind: 'article', title: `Taken ${randomUUID()}`, content_id: contentId };
    expect(
      (
        await http(platform, 'POST', url, {
          token: author.token,
          headers: { 'idempotency-key': randomUUID() },
          body: taken,
        })
      ).status,
    ).toBe(201);
    const key = randomUUID();
    const { stats } = platform.runtime.database;
    const before = stats.queries;
    const refused = await http(platform, 'POST', url, {
      token: author.token,
      headers: { 'idempotency-key': key },
      body: { ...taken, title: 'Another' },
    });
    expect([refused.status, refused.body.code]).toEqual([409, 'content.item_exists']);
    // The one statement wrote nothing; the locked way then claims the key and finds the id taken.
    expect(stats.queries - before).toBeGreaterThan(1);
    const versions = await http(platform, 'GET', `${url}/${contentId}/versions`, { token: author.token });
    expect(versions.body.data).toHaveLength(1);
    // The refusal was not stored under the key: another request under it runs.
    const other = await http(platform, 'POST', url, {
      token: author.token,
      headers: { 'idempotency-key': key },
      body: { content_kind: 'article', title: `Fresh ${randomUUID()}` },
    });
    expect(other.status).toBe(201);
  });

  it('runs a request under a key past retention as new, and replays that one after', async ({ platform }) => {
    const author = await newTenant(platform);
    const url = `${tenantRoot(author.tenantId)}/items`;
    const headers = { 'idempotency-key': randomUUID() };
    const first = await http(platform, 'POST', url, {
      token: author.token,
      headers,
      body: { content_kind: 'article', title: `Old ${randomUUID()}` },
    });
    await platform.runtime.database.db.execute(
      sql`update content.idempotency_records set created_at = now() - make_interval(days => ${IDEMPOTENCY_RETENTION_DAYS + 1}) where tenant_id = ${author.tenantId}`,
    );
    const body = { content_kind: 'article', title: `New ${randomUUID()}` };
    const second = await http(platform, 'POST', url, { token: author.token, headers, body });
    expect(second.status).toBe(201);
    expect(second.body.content_id).not.toBe(first.body.content_id);
    const replay = await http(platform, 'POST', url, { token: author.token, headers, body });
    expect([replay.status, replay.body]).toEqual([200, second.body]);
  });

  it('refuses an empty or overlong key, creating nothing', async ({ platform }) => {
    const author = await newTenant(platform);
    const url = `${tenantRoot(author.tenantId)}/items`;
    const title = `Keyless ${randomUUID()}`;
    for (const key of ['', 'k'.repeat(256)]) {
      const refused = await http(platform, 'POST', url, {
        token: author.token,
        headers: { 'idempotency-key': key },
        body: { content_kind: 'article', title },
      });
      expect([refused.status, refused.body.code]).toEqual([400, 'content.validation_failed']);
    }
    const listed = await http(platform, 'GET', `${url}?limit=100`, { token: author.token });
    expect(listed.body.data).toEqual([]);
  });
});

describe('PATCH {tenant_root}/items/{contentId}', () => {
  it('changes metadata under If-Match, advances the ETag and accepts the subject alias', async ({ platform }) => {
    const caller = await newTenant(platform);
    const item = await createItem(platform, caller, { content_kind: 'article', subject_id: 'math' });
    const url = `${tenantRoot(caller.tenantId)}/items/${item.content_id}`;
    const read = await http(platform, 'GET', url, { token: caller.token });
    const patched = await http(platform, 'PATCH', url, {
      token: caller.token,
      headers: { 'if-match': read.headers.get('etag')! },
      body: {
        title: 'Renamed',
        alpha_subject_id: 'reading',
        dok: 'dok2',
        language: null,
        source_system: 'alpha_content',
      },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      title: 'Renamed',
      subject_id: 'reading',
      dok: 'dok2',
      language: null,
      source_system: 'alpha_content',
    });
    expect(patched.headers.get('etag')).not.toBe(read.headers.get('etag'));
    const again = await http(platform, 'GET', url, { token: caller.token });
    expect(again.body).toEqual(patched.body);
  });

  it('answers 428 without If-Match and 412 on a stale one, changing nothing', async ({ platform }) => {
    const caller = await newTenant(platform);
    const item = await createItem(platform, caller, { content_kind: 'article' });
    const url = `${tenantRoot(caller.tenantId)}/items/${item.content_id}`;
    await expectUnchanged(platform, caller, `/items/${item.content_id}`, async () => {
      const missing = await http(platform, 'PATCH', url, { token: caller.token, body: { title: 'x' } });
      expect([missing.status, missing.body.code]).toEqual([428, 'content.precondition_required']);
    });
    const first = await http(platform, 'PATCH', url, {
      token: caller.token,
      headers: { 'if-match': item.etag },
      body: { title: 'one' },
    });
    expect(first.status).toBe(200);
    await expectUnchanged(platform, caller, `/items/${item.content_id}`, async () => {
      const stale = await http(platform, 'PATCH', url, {
        token: caller.token,
        headers: { 'if-match': item.etag },
        body: { title: 'two' },
      });
      expect([stale.status, stale.body.code]).toEqual([412, 'content.precondition_failed']);
    });
  });

  it('refuses unknown metadata, body, blocks, composition, kind changes and bad enumerations, changing nothing', async ({
    platform,
  }) => {
    const caller = await newTenant(platform);
    const item = await createItem(platform, caller, { content_kind: 'article' });
    const url = `${tenantRoot(caller.tenantId)}/items/${item.content_id}`;
    for (const body of [
      { provenance_bag: { a: 1 } },
      { body: '<p>x</p>' },
      { blocks: [] },
      { composition: {} },
      { interactive_composition: {} },
      { content_kind: 'video' },
      { dok: 'dok5' },
      { target_grade_id: '13' },
      { subject_id: 'math', alpha_subject_id: 'reading' },
      { title: null },
      { expected_xp: -1 },
      {},
    ]) {
      await expectUnchanged(platform, caller, `/items/${item.content_id}`, async () => {
        const refused = await http(platform, 'PATCH', url, {
          token: caller.token,
          headers: { 'if-match': item.etag },
          body,
        });
        expect([refused.status, refused.body.code], JSON.stringify(body)).toEqual([400, 'content.validation_failed']);
      });
    }
  });

  it('refuses status=published on a test_spec (publish goes through POST /publish)', async ({ platform }) => {
    const caller = await newTenant(platform);
    const spec = await createItem(platform, caller, { content_kind: 'test_spec', ...blueprint });
    await expectUnchanged(platform, caller, `/items/${spec.content_id}`, async () => {
      const refused = await http(platform, 'PATCH', `${tenantRoot(caller.tenantId)}/items/${spec.content_id}`, {
        token: caller.token,
        headers: { 'if-match': spec.etag },
        body: { status: 'published' },
      });
      expect([refused.status, refused.body.code]).toEqual([400, 'content.validation_failed']);
    });
  });

  it('needs author:content, the path tenant and an existing item', async ({ platform }) => {
    const caller = await newTenant(platform);
    const item = await createItem(platform, caller, { content_kind: 'article' });
    const url = `${tenantRoot(caller.tenantId)}/items/${item.content_id}`;
    const reader = await sameTenant(platform, caller, { scopes: ['read:content'], roles: ['demo'] });
    const forbidden = await http(platform, 'PATCH', url, {
      token: reader.token,
      headers: { 'if-match': item.etag },
      body: { title: 'x' },
    });
    expect([forbidden.status, forbidden.body.code]).toEqual([403, 'content.forbidden']);
    const stranger = await newTenant(platform);
    const mismatch = await http(platform, 'PATCH', url, {
      token: stranger.token,
      headers: { 'if-match': item.etag },
      body: { title: 'x' },
    });
    expect([mismatch.status, mismatch.body.code]).toEqual([403, 'content.tenant_mismatch']);
    const unknown = await http(platform, 'PATCH', `${tenantRoot(caller.tenantId)}/items/${randomUUID()}`, {
      token: caller.token,
      headers: { 'if-match': item.etag },
      body: { title: 'x' },
    });
    expect([unknown.status, unknown.body.code]).toEqual([404, 'content.not_found']);
    const anonymous = await http(platform, 'PATCH', url, { headers: { 'if-match': item.etag }, body: { title: 'x' } });
    expect(anonymous.status).toBe(401);
  });
});

describe('GET {tenant_root}/items', () => {
  const ids = (reply: { body: { data: Array<{ content_id: string }> } }) =>
    reply.body.data.map((item) => item.content_id).sort();

  it('filters by every typed field, the alias and expected_xp_band with legacy aliases', async ({ platform }) => {
    const caller = await newTenant(platform);
    const root = tenantRoot(caller.tenantId);
    const a = await createItem(platform, caller, {
      content_kind: 'question',
      subject_id: 'math',
      dok: 'dok2',
      target_grade_id: '3',
      usage_scope: 'held_out_canary',
      expected_xp: 5,
      subtype: 'diagram',
      source_system: 'alpha_content',
      source_record_id: 'r-1',
      source_activity_ref: 'act-1',
      is_mastery_gate: true,
    });
    const b = await createItem(platform, caller, {
      content_kind: 'test',
      subject_id: 'reading',
      test_type: 'placement',
      expected_xp: 30,
    });
    const c = await createItem(platform, caller, { content_kind: 'article', expected_xp: 50 });
    const cases: Array<[string, string[]]> = [
      ['content_kind=question', [a.content_id]],
      ['subject_id=math', [a.content_id]],
      ['alpha_subject_id=reading', [b.content_id]],
      ['dok=dok2', [a.content_id]],
      ['subtype=diagram', [a.content_id]],
      ['assessment_role=form', [b.content_id]],
      ['target_grade_id=3', [a.content_id]],
      ['usage_scope=held_out_canary', [a.content_id]],
      ['usage_scope=practice_eligible', [b.content_id, c.content_id]],
      ['test_type=placement', [b.content_id]],
      ['is_mastery_gate=true', [a.content_id]],
      ['is_mastery_gate=false', [b.content_id, c.content_id]],
      ['source_system=alpha_content', [a.content_id]],
      ['source_record_id=r-1', [a.content_id]],
      ['source_activity_ref=act-1', [a.content_id]],
      ['expected_xp_band=0_to_10', [a.content_id]],
      ['expected_xp_band=quick', [a.content_id]],
      ['expected_xp_band=extended', [b.content_id]],
      ['expected_xp_band=intensive', [c.content_id]],
      ['facet=expected_xp_band:quick', [a.content_id]],
    ];
    for (const [query, expected] of cases) {
      const listed = await http(platform, 'GET', `${root}/items?${query}`, { token: caller.token });
      expect(listed.status, query).toBe(200);
      expect(ids(listed), query).toEqual([...expected].sort());
    }
  });

  it("filters language by the item's own language as well as by a language facet assignment", async ({ platform }) => {
    const caller = await newTenant(platform);
    const root = tenantRoot(caller.tenantId);
    const spanish = await createItem(platform, caller, { content_kind: 'article', language: 'es' });
    await createItem(platform, caller, { content_kind: 'article', language: 'en' });
    const assigned = await createItem(platform, caller, { content_kind: 'article' });
    const facet = await http(platform, 'POST', `${root}/catalog-facets`, {
      token: caller.token,
      body: { facet_key: 'language', value_type: 'text' },
    });
    expect(facet.status).toBe(201);
    const assignment = await http(platform, 'POST', `${root}/items/${assigned.content_id}/catalog-facets`, {
      token: caller.token,
      headers: { 'idempotency-key': randomUUID() },
      body: { facet_key: 'language', facet_value: 'es' },
    });
    expect(assignment.status).toBe(201);
    for (const query of ['language=es', 'facet=language:es']) {
      const listed = await http(platform, 'GET', `${root}/items?${query}`, { token: caller.token });
      expect(ids(listed), query).toEqual([spanish.content_id, assigned.content_id].sort());
    }
  });

  it('refuses unknown filters and values outside the enumerations', async ({ platform }) => {
    const caller = await newTenant(platform);
    for (const query of [
      'content_kind=podcast',
      'dok=dok9',
      'target_grade_id=grade_3',
      'expected_xp_band=huge',
      'usage_scope=x',
      'subject_id=math&alpha_subject_id=reading',
      'is_mastery_gate=yes',
      'modifiedSince=yesterday',
      'modifiedSince=0000-01-01T00:00:00Z',
      'facet=nope:1',
      'facet=expected_xp_band:huge',
      'color=red',
      'limit=-1',
    ]) {
      const refused = await http(platform, 'GET', `${tenantRoot(caller.tenantId)}/items?${query}`, {
        token: caller.token,
      });
      expect([refused.status, refused.body.code], query).toEqual([400, 'content.validation_failed']);
    }
  });

  it('pages with signed cursors, honours modifiedSince and sees only its own tenant', async ({ platform }) => {
    const caller = await newTenant(platform);
    const root = tenantRoot(caller.tenantId);
    const created = [];
    for (let i = 0; i < 5; i += 1)
      created.push(await createItem(platform, caller, { content_kind: 'article', title: `A${i}` }));
    await createItem(platform, await newTenant(platform), { content_kind: 'article' });
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: any = await http(platform, 'GET', `${root}/items?limit=2${cursor ? `&cursor=${cursor}` : ''}`, {
        token: caller.token,
      });
      expect(page.status).toBe(200);
      expect(page.body.data.length).toBeLessThanOrEqual(2);
      seen.push(...page.body.data.map((item: { content_id: string }) => item.content_id));
      cursor = page.body.next_cursor;
    } while (cursor);
    expect(seen.sort()).toEqual(created.map((item) => item.content_id).sort());
    const future = await http(
      platform,
      'GET',
      `${root}/items?modifiedSince=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`,
      { token: caller.token },
    );
    expect(future.body.data).toEqual([]);
    const past = await http(platform, 'GET', `${root}/items?modifiedSince=2000-01-01T00:00:00Z`, {
      token: caller.token,
    });
    expect(past.body.data).toHaveLength(5);
    const first = await http(platform, 'GET', `${root}/items?limit=2`, { token: caller.token });
    const otherFilters = await http(
      platform,
      'GET',
      `${root}/items?limit=2&content_kind=article&cursor=${first.body.next_cursor}`,
      { token: caller.token },
    );
    expect(otherFilters.status).toBe(400);
  });

  it('answers limit=0 with an empty page on every paged list of the service, as the paging convention says', async ({
    platform,
  }) => {
    const caller = await newTenant(platform);
    const item = await createItem(platform, caller, { content_kind: 'article' });
    for (const path of [
      '/items',
      `/items/${item.content_id}/versions`,
      `/items/${item.content_id}/kc-tags`,
      '/trust-status',
    ]) {
      const empty = await http(platform, 'GET', `${tenantRoot(caller.tenantId)}${path}?limit=0`, {
        token: caller.token,
      });
      expect([empty.status, empty.body.data], path).toEqual([200, []]);
    }
  });

  it('needs the service, demo or operator role', async ({ platform }) => {
    const caller = await newTenant(platform);
    const author = await sameTenant(platform, caller, { roles: ['reviewer'] });
    const refused = await http(platform, 'GET', `${tenantRoot(caller.tenantId)}/items`, { token: author.token });
    expect([refused.status, refused.body.code]).toEqual([403, 'content.forbidden']);
    const operator = await sameTenant(platform, caller, { scopes: [], roles: ['operator'] });
    expect(
      (await http(platform, 'GET', `${tenantRoot(caller.tenantId)}/items`, { token: operator.token })).status,
    ).toBe(200);
  });
});

describe('test_spec blueprint', () => {
  it('creates a test_spec with the seven fields and reads them back with spec_id', async ({ platform }) => {
    const caller = await newTenant(platform);
    const spec = await createItem(platform, caller, { content_kind: 'test_spec', ...blueprint });
    expect(spec.assessment_role).toBe('spec');
    const read = await http(platform, 'GET', `${tenantRoot(caller.tenantId)}/items/${spec.content_id}/blueprint`, {
      token: caller.token,
    });
    expect(read.status).toBe(200);
    expect(read.body).toEqual({ spec_id: spec.content_id, content_id: spec.content_id, ...blueprint });
  });

  it('refuses a missing field, a non-positive count, unequal totals, keys padded with white space and blueprint fields on other kinds, creating nothing', async ({
    platform,
  }) => {
    const caller = await newTenant(platform);
    const root = tenantRoot(caller.tenantId);
    const { min_forms: _omitted, ...missing } = blueprint;
    for (const body of [
      { content_kind: 'test_spec', ...missing },
      { content_kind: 'test_spec', ...blueprint, kc_coverage: { k: { dok1: 0 } }, item_type_mix: { choice: 0 } },
      { content_kind: 'test_spec', ...blueprint, item_type_mix: { choice: 3 } },
      { content_kind: 'test_spec', ...blueprint, kc_coverage: { k: { dok7: 4 } } },
      { content_kind: 'test_spec', ...blueprint, item_type_mix: { choice: 3.5, text_entry: 0.5 } },
      // Keys that were trimmed into one: a KC's counts, or an item type's, would silently be lost.
      { content_kind: 'test_spec', ...blueprint, kc_coverage: { k: { dok1: 4 }, ' k': { dok2: 4 } } },
      { content_kind: 'test_spec', ...blueprint, item_type_mix: { choice: 4, 'choice ': 4 } },
      { content_kind: 'test_spec', ...blueprint, kc_coverage: { ' ': { dok1: 4 } } },
      { content_kind: 'test', ...blueprint },
    ]) {
      const contentId = randomUUID();
      const refused = await http(platform, 'POST', `${root}/items`, {
        token: caller.token,
        headers: { 'idempotency-key': randomUUID() },
        body: { title: 'Spec', content_id: contentId, ...body },
      });
      expect([refused.status, refused.body.code], JSON.stringify(body)).toEqual([400, 'content.validation_failed']);
      expect((await http(platform, 'GET', `${root}/items/${contentId}`, { token: caller.token })).status).toBe(404);
      expect(
        (await http(platform, 'GET', `${root}/items/${contentId}/blueprint`, { token: caller.token })).status,
      ).toBe(404);
    }
    const listed = await http(platform, 'GET', `${root}/items`, { token: caller.token });
    expect(listed.body.data).toEqual([]);
  });

  it('answers 404 for an item that is not a test_spec, and needs read:content', async ({ platform }) => {
    const caller = await newTenant(platform);
    const article = await createItem(platform, caller, { content_kind: 'article' });
    const notSpec = await http(
      platform,
      'GET',
      `${tenantRoot(caller.tenantId)}/items/${article.content_id}/blueprint`,
      { token: caller.token },
    );
    expect([notSpec.status, notSpec.body.code]).toEqual([404, 'content.not_found']);
    const noScope = await sameTenant(platform, caller, { scopes: [], roles: ['demo'] });
    const refused = await http(
      platform,
      'GET',
      `${tenantRoot(caller.tenantId)}/items/${article.content_id}/blueprint`,
      { token: noScope.token },
    );
    expect(refused.status).toBe(403);
  });

  it('property: a blueprint is accepted exactly when counts are positive integers and the totals agree', () => {
    const counts = fc.integer({ min: -2, max: 6 });
    fc.assert(
      fc.property(
        fc.dictionary(
          fc.constantFrom('kc-a', 'kc-b', 'kc-c'),
          fc.dictionary(fc.constantFrom('dok1', 'dok2', 'dok3', 'dok4'), counts, { minKeys: 1 }),
          { minKeys: 1 },
        ),
        fc.dictionary(fc.constantFrom('choice', 'text_entry', 'match'), counts, { minKeys: 1 }),
        (kcCoverage, itemTypeMix) => {
          const all = [
            ...Object.values(kcCoverage).flatMap((dok) => Object.values(dok)),
            ...Object.values(itemTypeMix),
          ];
          const total = (values: number[]) => values.reduce((sum, value) => sum + value, 0);
          const expected =
            all.every((value) => value > 0) &&
            total(Object.values(kcCoverage).flatMap((dok) => Object.values(dok))) === total(Object.values(itemTypeMix));
          const parsed = Blueprint.safeParse({ ...blueprint, kc_coverage: kcCoverage, item_type_mix: itemTypeMix });
          expect(parsed.success).toBe(expected);
        },
      ),
    );
  });
});

describe('status of separately published kinds', () => {
  it('refuses status=published at create for test_spec and test_bank, creating nothing', async ({ platform }) => {
    const caller = await newTenant(platform);
    for (const body of [
      { content_kind: 'test_spec', ...blueprint },
      { content_kind: 'test_bank', membership_rule: 'same_blueprint_fixed_forms' },
    ]) {
      const contentId = randomUUID();
      const refused = await http(platform, 'POST', `${tenantRoot(caller.tenantId)}/items`, {
        token: caller.token,
        headers: { 'idempotency-key': randomUUID() },
        body: { title: 'x', status: 'published', content_id: contentId, ...body },
      });
      expect([refused.status, refused.body.code]).toEqual([400, 'content.validation_failed']);
      expect(
        (await http(platform, 'GET', `${tenantRoot(caller.tenantId)}/items/${contentId}`, { token: caller.token }))
          .status,
      ).toBe(404);
    }
  });
});

describe('GET {tenant_root}/items?content_ids=', () => {
  it('lists only the named items of the tenant: a batch existence read', async ({ platform }) => {
    const caller = await newTenant(platform);
    const [first, second] = [
      await createItem(platform, caller, { content_kind: 'article' }),
      await createItem(platform, caller, { content_kind: 'video' }),
    ];
    const stranger = await newTenant(platform);
    const foreign = await createItem(platform, stranger, { content_kind: 'article' });
    const list = (ids: string) =>
      http(platform, 'GET', `${tenantRoot(caller.tenantId)}/items?content_ids=${ids}`, { token: caller.token });
    const named = await list([first.content_id, randomUUID(), foreign.content_id].join(','));
    expect(named.body.data.map((item: { content_id: string }) => item.content_id)).toEqual([first.content_id]);
    const both = await list(`${second.content_id},${first.content_id}`);
    expect(both.body.data).toHaveLength(2);
    for (const bad of ['', 'not-a-uuid', `${first.content_id},`, Array.from({ length: 201 }, randomUUID).join(',')]) {
      expect((await list(bad)).status).toBe(400);
    }
  });
});

describe('POST {tenant_root}/items with a chosen content_id', () => {
  it('creates it once when creates of one id race under different keys; the others are 409 item_exists', async ({
    platform,
  }) => {
    const author = await newTenant(platform);
    const contentId = randomUUID();
    const replies = await Promise.all(
      Array.from({ length: 4 }, (_, index) =>
        http(platform, 'POST', `${tenantRoot(author.tenantId)}/items`, {
          token: author.token,
          headers: { 'idempotency-key': randomUUID() },
          body: { content_kind: 'article', title: `Racer ${index}`, content_id: contentId },
        }),
      ),
    );
    expect(replies.map((reply) => reply.status).sort()).toEqual([201, 409, 409, 409]);
    expect(replies.filter((reply) => reply.status === 409).map((reply) => reply.body.code)).toEqual(
      Array(3).fill('content.item_exists'),
    );
    const versions = await http(platform, 'GET', `${tenantRoot(author.tenantId)}/items/${contentId}/versions`, {
      token: author.token,
    });
    expect(versions.body.data).toHaveLength(1);
  });
});

describe('integers beyond 32 bits', () => {
  it('are refused with 400 where they are stored as integers or read as GraphQL Int, writing nothing', async ({
    platform,
  }) => {
    const caller = await newTenant(platform);
    const root = tenantRoot(caller.tenantId);
    const tooBig = 2 ** 31;
    const post = (path: string, body: unknown) =>
      http(platform, 'POST', `${root}${path}`, {
        token: caller.token,
        headers: { 'idempotency-key': randomUUID() },
        body,
      });
    const refused = (reply: { status: number; body: any }) => [
      reply.status,
      reply.body.code,
      reply.body.fieldErrors?.[0]?.field,
    ];
    await expectUnchanged(platform, caller, '/items', async () => {
      const article = await post('/items', { content_kind: 'article', title: 'XP', expected_xp: tooBig });
      expect(refused(article)).toEqual([400, 'content.validation_failed', 'expected_xp']);
      const spec = await post('/items', { content_kind: 'test_spec', title: 'Spec', ...blueprint, min_forms: tooBig });
      expect(refused(spec)).toEqual([400, 'content.validation_failed', 'min_forms']);
    });
    const item = await createItem(platform, caller, { content_kind: 'article', expected_xp: 2 ** 31 - 1 });
    const other = await createItem(platform, caller, { content_kind: 'article' });
    const patched = await http(platform, 'PATCH', `${root}/items/${item.content_id}`, {
      token: caller.token,
      headers: { 'if-match': item.etag },
      body: { expected_xp: tooBig },
    });
    expect(refused(patched)).toEqual([400, 'content.validation_failed', 'expected_xp']);
    await expectUnchanged(platform, caller, `/items/${item.content_id}/versions`, async () => {
      const version = await post(`/items/${item.content_id}/versions`, {
        student_view: { blocks: [{ type: 'text', text: 'Far away', order: tooBig }] },
      });
      expect(refused(version)).toEqual([400, 'content.validation_failed', 'student_view.blocks.0.order']);
    });
    await expectUnchanged(platform, caller, `/items/${item.content_id}/references`, async () => {
      const reference = await post(`/items/${item.content_id}/references`, {
        relationship_kind: 'related_material',
        referenced_content_id: other.content_id,
        ordinal: tooBig,
      });
      expect(refused(reference)).toEqual([400, 'content.validation_failed', 'ordinal']);
    });
  });
});

describe('uuids in paths', () => {
  it('name the same item and exact version in upper case as in lower case, eligibility included', async ({
    platform,
  }) => {
    const author = await newTenant(platform);
    const reviewer = await sameTenant(platform, author);
    const root = tenantRoot(author.tenantId);
    const item = await createItem(platform, author, { content_kind: 'article', status: 'published' });
    const trusted = await http(
      platform,
      'POST',
      `${root}/items/${item.content_id}/versions/${item.latest_version_id}/qc-decisions`,
      { token: reviewer.token, body: { trust_status: 'trusted', reason: 'checked' } },
    );
    expect(trusted.status).toBe(201);
    const read = (contentId: string, versionId: string, path: string) =>
      http(platform, 'GET', `${root}/items/${contentId}/versions/${versionId}${path}`, { token: author.token });
    const [contentId, versionId] = [item.content_id, item.latest_version_id];
    for (const path of ['', '/release-eligibility']) {
      const lower = await read(contentId, versionId, path);
      expect(lower.status, path).toBe(200);
      for (const [content, version] of [
        [contentId.toUpperCase(), versionId],
        [contentId, versionId.toUpperCase()],
      ]) {
        const upper = await read(content, version, path);
        expect([upper.status, upper.body], `${content}/${version}${path}`).toEqual([200, lower.body]);
      }
    }
  });
});
