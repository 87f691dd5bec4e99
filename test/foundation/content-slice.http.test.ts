import { randomUUID } from 'node:crypto';
import { describe, expect } from 'vitest';
import { eligibleVersion, http, newTenant, roots, sameTenant, tenantRoot } from '../kit.ts';
import { filePlatform, platformTest } from '../platform-test.ts';

const it = platformTest();

const item = { content_kind: 'article', title: 'Fractions', status: 'published', subject_id: 'math' };

describe('demo mint', () => {
  it.each([roots.curriculum, roots.content, roots.events])(
    'mints a demo token under %s and refuses other tenants',
    async (root) => {
      const minted = await http(filePlatform(), 'POST', `${root}/dev/mint?tenantId=demo`);
      expect(minted.status).toBe(200);
      expect(typeof minted.body.token).toBe('string');
      const refused = await http(filePlatform(), 'POST', `${root}/dev/mint?tenantId=acme`);
      expect(refused.status).toBe(400);
      expect(refused.headers.get('content-type')).toContain('application/problem+json');
      expect(refused.body.code).toMatch(/demo_mint_refused$/);
      expect(refused.body).toMatchObject({ status: 400, requestId: expect.any(String), traceId: expect.any(String) });
    },
  );

  it('events mint returns the default activity source and the boundary contract', async ({ platform }) => {
    const minted = await http(platform, 'POST', `${roots.events}/dev/mint?tenantId=demo`);
    expect(minted.body).toMatchObject({
      tenantId: 'demo',
      defaultActivitySourceId: expect.any(String),
      identityBoundary: expect.any(Object),
    });
  });

  it('answers each service descriptor and its OpenAPI 3.1 description', async ({ platform }) => {
    for (const root of [roots.curriculum, roots.content, roots.events]) {
      const descriptor = await http(platform, 'GET', `${root}/`);
      expect(descriptor.status).toBe(200);
      expect(descriptor.body.basePath).toBe(root);
      const openapi = await http(platform, 'GET', `${root}/openapi.json`);
      expect(openapi.body.openapi).toBe('3.1.0');
      expect(Object.keys(openapi.body.paths).length).toBeGreaterThan(2);
      const docs = await http(platform, 'GET', `${root}/docs/`);
      expect(docs.status).toBe(200);
    }
  });
});

describe('POST {tenant_root}/items', () => {
  it('creates once per Idempotency-Key, replays identically and refuses a changed body', async ({ platform }) => {
    const caller = await newTenant(platform);
    const key = randomUUID();
    const first = await http(platform, 'POST', `${tenantRoot(caller.tenantId)}/items`, {
      token: caller.token,
      headers: { 'idempotency-key': key },
      body: item,
    });
    expect(first.status).toBe(201);
    expect(first.headers.get('etag')).toBeTruthy();
    const replay = await http(platform, 'POST', `${tenantRoot(caller.tenantId)}/items`, {
      token: caller.token,
      headers: { 'idempotency-key': key },
      body: item,
    });
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotency-replayed')).toBe('true');
    expect(replay.body.content_id).toBe(first.body.content_id);
    const changed = await http(platform, 'POST', `${tenantRoot(caller.tenantId)}/items`, {
      token: caller.token,
      headers: { 'idempotency-key': key },
      body: { ...item, title: 'Other' },
    });
    expect(changed.status).toBe(409);
    expect(changed.body.code).toBe('content.idempotency_conflict');
  });

  it('creates once when identical requests with one Idempotency-Key race', async ({ platform }) => {
    const caller = await newTenant(platform);
    const key = randomUUID();
    const replies = await Promise.all(
      Array.from({ length: 8 }, () =>
        http(platform, 'POST', `${tenantRoot(caller.tenantId)}/items`, {
          token: caller.token,
          headers: { 'idempotency-key': key },
          body: item,
        }),
      ),
    );
    expect(new Set(replies.map((reply) => reply.body.content_id)).size).toBe(1);
    expect(replies.map((reply) => reply.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 201]);
  });

  it('requires an Idempotency-Key, a token, the path tenant and the author scope', async ({ platform }) => {
    const caller = await newTenant(platform);
    const url = `${tenantRoot(caller.tenantId)}/items`;
    expect((await http(platform, 'POST', url, { token: caller.token, body: item })).body.code).toBe(
      'content.idempotency_key_required',
    );
    const anonymous = await http(platform, 'POST', url, { headers: { 'idempotency-key': 'k' }, body: item });
    expect([anonymous.status, anonymous.body.code]).toEqual([401, 'content.unauthenticated']);
    const stranger = await newTenant(platform);
    const wrongTenant = await http(platform, 'POST', url, {
      token: stranger.token,
      headers: { 'idempotency-key': 'k' },
      body: item,
    });
    expect([wrongTenant.status, wrongTenant.body.code]).toEqual([403, 'content.tenant_mismatch']);
    const reader = await sameTenant(platform, caller, { scopes: ['read:content'] });
    const noScope = await http(platform, 'POST', url, {
      token: reader.token,
      headers: { 'idempotency-key': 'k' },
      body: item,
    });
    expect([noScope.status, noScope.body.code]).toEqual([403, 'content.forbidden']);
    const forged = await http(platform, 'POST', url, {
      token: `${caller.token.slice(0, -4)}AAAA`,
      headers: { 'idempotency-key': 'k' },
      body: item,
    });
    expect(forged.status).toBe(401);
  });

  it('rejects unknown fields, body fields and bad enumerations with field errors, writing nothing', async ({
    platform,
  }) => {
    const caller = await newTenant(platform);
    for (const body of [
      { ...item, provenance_bag: { a: 1 } },
      { ...item, blocks: [] },
      { ...item, content_kind: 'podcast' },
      { ...item, target_grade_id: 'grade_3' },
      { ...item, content_kind: 'test_bank', assessment_role: 'form' },
    ]) {
      const refused = await http(platform, 'POST', `${tenantRoot(caller.tenantId)}/items`, {
        token: caller.token,
        headers: { 'idempotency-key': randomUUID() },
        body,
      });
      expect(refused.status).toBe(400);
      expect(refused.body.code).toBe('content.validation_failed');
      expect(refused.body.fieldErrors.length).toBeGreaterThan(0);
    }
    const malformed = await http(platform, 'POST', `${tenantRoot(caller.tenantId)}/items`, {
      token: caller.token,
      headers: { 'idempotency-key': randomUUID(), 'content-type': 'application/json' },
      rawBody: '{"content_kind": ',
    });
    expect([malformed.status, malformed.body.code]).toEqual([400, 'content.validation_failed']);
    const notJson = await http(platform, 'POST', `${tenantRoot(caller.tenantId)}/items`, {
      token: caller.token,
      headers: { 'idempotency-key': randomUUID(), 'content-type': 'text/plain' },
      rawBody: 'hello',
    });
    expect(notJson.status).toBe(415);
  });
});

describe('versions and release eligibility', () => {
  it('appends numbered versions and answers eligibility only once a QC reviewer trusts the version', async ({
    platform,
  }) => {
    const author = await newTenant(platform);
    const root = tenantRoot(author.tenantId);
    const created = await http(platform, 'POST', `${root}/items`, {
      token: author.token,
      headers: { 'idempotency-key': randomUUID() },
      body: item,
    });
    const contentId = created.body.content_id;
    const version = await http(platform, 'POST', `${root}/items/${contentId}/versions`, {
      token: author.token,
      body: { student_view: { blocks: [{ type: 'text', text: 'One half', order: 0 }] } },
    });
    expect(version.status).toBe(201);
    expect(version.body.version_number).toBe(2);
    const eligibilityUrl = `${root}/items/${contentId}/versions/${version.body.version_id}/release-eligibility`;
    const untrusted = await http(platform, 'GET', eligibilityUrl, { token: author.token });
    expect(untrusted.status).toBe(409);
    expect(untrusted.body.code).toBe('content.version_not_serveable');
    expect(untrusted.body.eligibility).toMatchObject({
      trust_status: 'unknown',
      release_eligible: false,
      serveable: false,
    });

    const selfReview = await http(
      platform,
      'POST',
      `${root}/items/${contentId}/versions/${version.body.version_id}/qc-decisions`,
      {
        token: author.token,
        body: { trust_status: 'trusted', reason: 'mine' },
      },
    );
    expect([selfReview.status, selfReview.body.code]).toEqual([403, 'content.qc_self_review']);

    const reviewer = await sameTenant(platform, author);
    const qc = await http(
      platform,
      'POST',
      `${root}/items/${contentId}/versions/${version.body.version_id}/qc-decisions`,
      {
        token: reviewer.token,
        body: { trust_status: 'trusted', reason: 'checked' },
      },
    );
    expect(qc.status).toBe(201);
    const eligible = await http(platform, 'GET', eligibilityUrl, { token: author.token });
    expect(eligible.status).toBe(200);
    expect(eligible.body).toEqual({
      content_id: contentId,
      content_version_id: version.body.version_id,
      content_kind: 'article',
      usage_scope: 'practice_eligible',
      trust_status: 'trusted',
      serveable: true,
      release_eligible: true,
      problem_code: null,
    });

    await http(platform, 'POST', `${root}/items/${contentId}/versions/${version.body.version_id}/qc-decisions`, {
      token: reviewer.token,
      body: { trust_status: 'failed', reason: 'revoked' },
    });
    const revoked = await http(platform, 'GET', eligibilityUrl, { token: author.token });
    expect(revoked.body.code).toBe('content.version_not_serveable');
    expect(revoked.body.eligibility.trust_status).toBe('failed');
  });

  it('answers 404 for unknown or other-tenant versions and validates producer_surface', async ({ platform }) => {
    const author = await newTenant(platform);
    const pin = await eligibleVersion(platform, author);
    const root = tenantRoot(author.tenantId);
    const unknown = await http(
      platform,
      'GET',
      `${root}/items/${pin.contentId}/versions/${randomUUID()}/release-eligibility`,
      { token: author.token },
    );
    expect([unknown.status, unknown.body.code]).toEqual([404, 'content.not_found']);
    const notUuid = await http(platform, 'GET', `${root}/items/${pin.contentId}/versions/nope/release-eligibility`, {
      token: author.token,
    });
    expect(notUuid.status).toBe(404);
    const stranger = await newTenant(platform);
    const crossTenant = await http(
      platform,
      'GET',
      `${tenantRoot(stranger.tenantId)}/items/${pin.contentId}/versions/${pin.versionId}/release-eligibility`,
      {
        token: stranger.token,
      },
    );
    expect(crossTenant.status).toBe(404);
    const badSurface = await http(
      platform,
      'GET',
      `${root}/items/${pin.contentId}/versions/${pin.versionId}/release-eligibility?producer_surface=Not%20Valid`,
      {
        token: author.token,
      },
    );
    expect(badSurface.status).toBe(400);
    const surface = await http(
      platform,
      'GET',
      `${root}/items/${pin.contentId}/versions/${pin.versionId}/release-eligibility?producer_surface=authoring_ui`,
      {
        token: author.token,
      },
    );
    expect(surface.status).toBe(200);
    expect(surface.body).not.toHaveProperty('producer_surface');
  });

  it('lists versions in order with opaque cursors and refuses forged ones', async ({ platform }) => {
    const author = await newTenant(platform);
    const pin = await eligibleVersion(platform, author);
    const root = tenantRoot(author.tenantId);
    const first = await http(platform, 'GET', `${root}/items/${pin.contentId}/versions?limit=1`, {
      token: author.token,
    });
    expect(first.body.data.map((v: { version_number: number }) => v.version_number)).toEqual([1]);
    const second = await http(
      platform,
      'GET',
      `${root}/items/${pin.contentId}/versions?limit=1&cursor=${first.body.next_cursor}`,
      { token: author.token },
    );
    expect(second.body.data.map((v: { version_number: number }) => v.version_number)).toEqual([2]);
    const forged = await http(platform, 'GET', `${root}/items/${pin.contentId}/versions?cursor=abc.def`, {
      token: author.token,
    });
    expect([forged.status, forged.body.code]).toEqual([400, 'content.validation_failed']);
  });
});
