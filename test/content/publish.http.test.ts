import { randomUUID } from 'node:crypto';
import { describe, expect } from 'vitest';
import fc from 'fast-check';
import { eligibleVersion, graphql, http, newTenant, sameTenant, tenantRoot } from '../kit.ts';
import { platformTest } from '../platform-test.ts';
import { isServeable } from '../../subgraphs/content/eligibility/eligibility.service.ts';
import { CONTENT_KINDS, CONTENT_STATUSES, TRUST_STATUSES } from '../../subgraphs/content/vocabulary.ts';
import { blueprint, createItem, expectUnchanged } from './helpers.ts';

const it = platformTest();

describe('POST {tenant_root}/items/{contentId}/publish', () => {
  it('publishes an exact test_spec version; with QC trust it becomes release eligible; a repeat answers the first publication', async ({
    platform,
  }) => {
    const author = await newTenant(platform);
    const root = tenantRoot(author.tenantId);
    const spec = await createItem(platform, author, { content_kind: 'test_spec', ...blueprint });
    const versionId = spec.latest_version_id;
    const eligibility = `${root}/items/${spec.content_id}/versions/${versionId}/release-eligibility`;
    const published = await http(platform, 'POST', `${root}/items/${spec.content_id}/publish`, {
      token: author.token,
      body: { version_id: versionId },
    });
    expect(published.status).toBe(201);
    expect(published.body).toMatchObject({
      content_id: spec.content_id,
      version_id: versionId,
      content_kind: 'test_spec',
      publication_status: 'published',
    });
    const untrusted = await http(platform, 'GET', eligibility, { token: author.token });
    expect(untrusted.body.eligibility).toMatchObject({ trust_status: 'unknown', release_eligible: false });
    const reviewer = await sameTenant(platform, author);
    await http(platform, 'POST', `${root}/items/${spec.content_id}/versions/${versionId}/qc-decisions`, {
      token: reviewer.token,
      body: { trust_status: 'degraded', reason: 'ok' },
    });
    const eligible = await http(platform, 'GET', eligibility, { token: author.token });
    expect(eligible.body).toMatchObject({
      release_eligible: true,
      serveable: true,
      trust_status: 'degraded',
      problem_code: null,
    });
    const again = await http(platform, 'POST', `${root}/items/${spec.content_id}/publish`, {
      token: author.token,
      body: { version_id: versionId },
    });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(published.body);
  });

  it('refuses other kinds, trust in the body, unknown versions, a bank without members, and missing roles, writing nothing', async ({
    platform,
  }) => {
    const author = await newTenant(platform);
    const root = tenantRoot(author.tenantId);
    const article = await createItem(platform, author, { content_kind: 'article' });
    const eligibilityOf = (contentId: string, versionId: string) =>
      `/items/${contentId}/versions/${versionId}/release-eligibility`;
    await expectUnchanged(platform, author, eligibilityOf(article.content_id, article.latest_version_id), async () => {
      const refused = await http(platform, 'POST', `${root}/items/${article.content_id}/publish`, {
        token: author.token,
        body: { version_id: article.latest_version_id },
      });
      expect([refused.status, refused.body.code]).toEqual([409, 'content.publication_refused']);
    });
    const spec = await createItem(platform, author, { content_kind: 'test_spec', ...blueprint });
    await expectUnchanged(platform, author, `/items/${spec.content_id}/trust`, async () => {
      const withTrust = await http(platform, 'POST', `${root}/items/${spec.content_id}/publish`, {
        token: author.token,
        body: { version_id: spec.latest_version_id, trust_status: 'trusted' },
      });
      expect([withTrust.status, withTrust.body.code]).toEqual([400, 'content.validation_failed']);
    });
    const missing = await http(platform, 'POST', `${root}/items/${spec.content_id}/publish`, {
      token: author.token,
      body: {},
    });
    expect([missing.status, missing.body.code]).toEqual([400, 'content.validation_failed']);
    const otherVersion = await http(platform, 'POST', `${root}/items/${spec.content_id}/publish`, {
      token: author.token,
      body: { version_id: article.latest_version_id },
    });
    expect([otherVersion.status, otherVersion.body.code]).toEqual([404, 'content.not_found']);
    const unknownItem = await http(platform, 'POST', `${root}/items/${randomUUID()}/publish`, {
      token: author.token,
      body: { version_id: spec.latest_version_id },
    });
    expect(unknownItem.status).toBe(404);
    const bank = await createItem(platform, author, {
      content_kind: 'test_bank',
      membership_rule: 'same_blueprint_fixed_forms',
    });
    const emptyBank = await http(platform, 'POST', `${root}/items/${bank.content_id}/publish`, {
      token: author.token,
      body: { version_id: bank.latest_version_id },
    });
    expect([emptyBank.status, emptyBank.body.code]).toEqual([409, 'content.publication_refused']);
    expect(emptyBank.body.fieldErrors.map((error: { field: string }) => error.field)).toContain('bank_members');
    const authorOnly = await sameTenant(platform, author, {
      scopes: ['author:content', 'publish:content'],
      roles: ['demo'],
    });
    const noRole = await http(platform, 'POST', `${root}/items/${spec.content_id}/publish`, {
      token: authorOnly.token,
      body: { version_id: spec.latest_version_id },
    });
    expect([noRole.status, noRole.body.code]).toEqual([403, 'content.forbidden']);
    const stillDraft = await http(
      platform,
      'GET',
      `${root}/items/${spec.content_id}/versions/${spec.latest_version_id}/release-eligibility`,
      { token: author.token },
    );
    expect(stillDraft.body.code).toBe('content.version_not_serveable');
  });
});

describe('POST {tenant_root}/items/{contentId}/versions/{versionId}/qc-decisions', () => {
  it('sets trust once, then only moves trusted or degraded to failed: failed stays failed on REST and GraphQL', async ({
    platform,
  }) => {
    const author = await newTenant(platform);
    const root = tenantRoot(author.tenantId);
    const reviewer = await sameTenant(platform, author);
    const decide = (pin: { contentId: string; versionId: string }, trust_status: string) =>
      http(platform, 'POST', `${root}/items/${pin.contentId}/versions/${pin.versionId}/qc-decisions`, {
        token: reviewer.token,
        body: { trust_status, reason: `now ${trust_status}` },
      });
    const trusted = await eligibleVersion(platform, author);
    expect((await decide(trusted, 'degraded')).body.code).toBe('content.trust_transition_refused');
    expect((await decide(trusted, 'failed')).status).toBe(201);
    const eligibilityUrl = `${root}/items/${trusted.contentId}/versions/${trusted.versionId}/release-eligibility`;
    await expectUnchanged(platform, author, `/items/${trusted.contentId}/trust`, async () => {
      for (const status of ['trusted', 'degraded', 'failed']) {
        const refused = await decide(trusted, status);
        expect([refused.status, refused.body.code]).toEqual([409, 'content.trust_transition_refused']);
      }
      const overGraphql = await graphql(
        platform,
        `
          mutation ($c: ID!, $v: ID!) {
            recordQcDecision(contentId: $c, versionId: $v, input: { trustStatus: "trusted", reason: "fixed" }) {
              trustStatus
            }
          }
        `,
        { c: trusted.contentId, v: trusted.versionId },
        reviewer.token,
      );
      expect(overGraphql.body.errors?.[0]?.extensions?.code).toBe('content.trust_transition_refused');
    });
    const stillFailed = await http(platform, 'GET', eligibilityUrl, { token: author.token });
    expect([stillFailed.body.code, stillFailed.body.eligibility.trust_status]).toEqual([
      'content.version_not_serveable',
      'failed',
    ]);

    const degraded = await createItem(platform, author, { content_kind: 'article', status: 'published' });
    const degradedPin = { contentId: degraded.content_id, versionId: degraded.latest_version_id };
    expect((await decide(degradedPin, 'degraded')).status).toBe(201);
    expect((await decide(degradedPin, 'trusted')).body.code).toBe('content.trust_transition_refused');
    expect((await decide(degradedPin, 'failed')).status).toBe(201);
  });
});

describe('release eligibility truth table', () => {
  it('property: release_eligible = published and not retired/archived and trusted-or-degraded', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...CONTENT_KINDS),
        fc.constantFrom(...CONTENT_STATUSES),
        fc.boolean(),
        fc.constantFrom(...TRUST_STATUSES, null),
        (contentKind, itemStatus, versionPublished, trustStatus) => {
          const published =
            contentKind === 'test_spec' || contentKind === 'test_bank' ? versionPublished : itemStatus === 'published';
          const expected =
            published &&
            itemStatus !== 'retired' &&
            itemStatus !== 'archived' &&
            (trustStatus === 'trusted' || trustStatus === 'degraded');
          expect(isServeable({ contentKind, itemStatus, versionPublished, trustStatus })).toBe(expected);
        },
      ),
    );
  });
});
