import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { http, newTenant, sameTenant, tenantRoot, type Caller } from '../kit.ts';
import { filePlatform, platformTest } from '../platform-test.ts';
import { contentReferences } from '../../subgraphs/content/tables.ts';
import { bankMember, createBank, createItem, expectUnchanged } from './helpers.ts';
import { registryKc, startFakeCurriculum, type FakeCurriculum } from './fake-curriculum.ts';

let curriculum: FakeCurriculum;
beforeAll(async () => {
  curriculum = await startFakeCurriculum();
});
afterAll(async () => {
  await curriculum?.close();
});
const it = platformTest(() => ({ config: { curriculumUrl: curriculum.url } }));

async function reference(caller: Caller, contentId: string, body: Record<string, unknown>) {
  return http(filePlatform(), 'POST', `${tenantRoot(caller.tenantId)}/items/${contentId}/references`, {
    token: caller.token,
    body,
  });
}

async function taggedQuestion(caller: Caller, tagged = true) {
  const question = await createItem(filePlatform(), caller, { content_kind: 'question' });
  if (tagged) {
    const kcId = randomUUID();
    curriculum.kcs.set(kcId, registryKc(kcId));
    const tag = await http(
      filePlatform(),
      'POST',
      `${tenantRoot(caller.tenantId)}/items/${question.content_id}/kc-tags`,
      { token: caller.token, body: { kc_id: kcId, weight: 1 } },
    );
    expect(tag.status).toBe(201);
  }
  return question;
}

/** A form whose exact version embeds the given questions in order. */
async function formEmbedding(
  caller: Caller,
  questions: Array<{ content_id: string; latest_version_id: string }>,
  extra: Record<string, unknown> = {},
) {
  const form = await createItem(filePlatform(), caller, { content_kind: 'test', ...extra });
  for (const [index, question] of questions.entries()) {
    const edge = await reference(caller, form.content_id, {
      relationship_kind: 'embeds',
      referenced_content_id: question.content_id,
      parent_version_id: form.latest_version_id,
      referenced_version_id: question.latest_version_id,
      ordinal: index + 1,
    });
    expect(edge.status).toBe(201);
  }
  return form;
}

describe('bank_member references (rule 7)', () => {
  it('creates members in exact order and multiplicity, reads them with readiness, retires with audit, then publishes', async ({
    platform,
  }) => {
    const caller = await newTenant(platform);
    const root = tenantRoot(caller.tenantId);
    const form = await formEmbedding(caller, [await taggedQuestion(caller), await taggedQuestion(caller)]);
    const canary = await formEmbedding(caller, [await taggedQuestion(caller)], { usage_scope: 'held_out_canary' });
    const bank = await createBank(platform, caller);
    const first = await reference(caller, bank.content_id, bankMember(bank, form, 1));
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ relationship_kind: 'bank_member', status: 'active', ordinal: 1 });
    expect((await reference(caller, bank.content_id, bankMember(bank, form, 2))).status).toBe(201);
    expect((await reference(caller, bank.content_id, bankMember(bank, canary, 3))).status).toBe(201);
    const members = await http(platform, 'GET', `${root}/items/${bank.content_id}/bank-members`, {
      token: caller.token,
    });
    expect(members.status).toBe(200);
    expect(members.body.members.map((m: any) => [m.ordinal, m.form_content_id, m.ready, m.practice_eligible])).toEqual([
      [1, form.content_id, true, true],
      [2, form.content_id, true, true],
      [3, canary.content_id, true, false],
    ]);
    expect(members.body.readiness).toEqual({
      member_count: 3,
      ready_count: 3,
      practice_eligible_ready_count: 2,
      question_count: 5,
    });

    const retired = await http(
      platform,
      'DELETE',
      `${root}/items/${bank.content_id}/references/${first.body.reference_id}`,
      { token: caller.token },
    );
    expect(retired.status).toBe(200);
    expect(retired.body).toMatchObject({
      status: 'retired',
      retired_by: expect.any(String),
      retired_at: expect.any(String),
    });
    const audit = await http(platform, 'GET', `${root}/items/${bank.content_id}/references?status=retired`, {
      token: caller.token,
    });
    expect(audit.body.data.map((r: any) => r.reference_id)).toEqual([first.body.reference_id]);
    const after = await http(platform, 'GET', `${root}/items/${bank.content_id}/bank-members`, { token: caller.token });
    expect(after.body.members.map((m: any) => m.ordinal)).toEqual([2, 3]);

    const published = await http(platform, 'POST', `${root}/items/${bank.content_id}/publish`, {
      token: caller.token,
      body: { version_id: bank.latest_version_id },
    });
    expect(published.status).toBe(201);
    // Published: membership is frozen, in both directions.
    await expectUnchanged(platform, caller, `/items/${bank.content_id}/references`, async () => {
      const frozen = await reference(caller, bank.content_id, bankMember(bank, form, 4));
      expect([frozen.status, frozen.body.code]).toEqual([409, 'content.bank_membership_frozen']);
      const frozenRetire = await http(
        platform,
        'DELETE',
        `${root}/items/${bank.content_id}/references/${after.body.members[0].reference_id}`,
        { token: caller.token },
      );
      expect([frozenRetire.status, frozenRetire.body.code]).toEqual([409, 'content.bank_membership_frozen']);
    });
  });

  it('refuses every breach of the contract with its typed 409 and changes nothing', async ({ platform }) => {
    const caller = await newTenant(platform);
    const root = tenantRoot(caller.tenantId);
    const question = await taggedQuestion(caller);
    const form = await formEmbedding(caller, [question]);
    const emptyForm = await createItem(platform, caller, { content_kind: 'test' });
    const untaggedForm = await formEmbedding(caller, [await taggedQuestion(caller, false)]);
    const bank = await createItem(platform, caller, {
      content_kind: 'test_bank',
      membership_rule: 'pp100_adaptive_shards',
    });
    const adaptive = await createItem(platform, caller, {
      content_kind: 'test_bank',
      membership_rule: 'qti_adaptive_selection',
    });
    const noRule = await createItem(platform, caller, { content_kind: 'test_bank' });
    const otherBank = await createItem(platform, caller, {
      content_kind: 'test_bank',
      membership_rule: 'pp100_adaptive_shards',
    });
    expect((await reference(caller, bank.content_id, bankMember(bank, form, 1))).status).toBe(201);
    const cases: Array<[string, { content_id: string }, Record<string, unknown>, string]> = [
      ['target is a question', bank, bankMember(bank, question, 2), 'content.invalid_test_bank_member_contract'],
      ['parent is a form', form, { ...bankMember(form, form, 2) }, 'content.invalid_test_bank_member_contract'],
      [
        'native QTI adaptive bank',
        adaptive,
        bankMember(adaptive, form, 1),
        'content.invalid_test_bank_member_contract',
      ],
      ['no membership rule', noRule, bankMember(noRule, form, 1), 'content.invalid_test_bank_member_contract'],
      [
        'omitted parent version',
        bank,
        { ...bankMember(bank, form, 2), parent_version_id: undefined },
        'content.invalid_test_bank_member_contract',
      ],
      [
        'null referenced version',
        bank,
        { ...bankMember(bank, form, 2), referenced_version_id: null },
        'content.invalid_test_bank_member_contract',
      ],
      [
        'wrong-owner parent version',
        bank,
        { ...bankMember(bank, form, 2), parent_version_id: otherBank.latest_version_id },
        'content.invalid_test_bank_member_contract',
      ],
      [
        'wrong-owner form version',
        bank,
        { ...bankMember(bank, form, 2), referenced_version_id: question.latest_version_id },
        'content.invalid_test_bank_member_contract',
      ],
      ['index taken', bank, bankMember(bank, form, 1), 'content.invalid_test_bank_member_contract'],
      ['index zero', bank, bankMember(bank, form, 0), 'content.invalid_test_bank_member_contract'],
      ['form embeds nothing', bank, bankMember(bank, emptyForm, 2), 'content.bank_kc_attribution_incomplete'],
      [
        'question without active tag',
        bank,
        bankMember(bank, untaggedForm, 2),
        'content.bank_kc_attribution_incomplete',
      ],
    ];
    for (const [name, parent, body, code] of cases) {
      await expectUnchanged(platform, caller, `/items/${parent.content_id}/references`, async () => {
        const refused = await reference(caller, parent.content_id, body);
        expect([refused.status, refused.body.code], name).toEqual([409, code]);
      });
    }
    // An ambiguous graph (two embeds at one position) is incomplete attribution too.
    const ambiguous = await formEmbedding(caller, [question]);
    await platform.runtime.database.db.insert(contentReferences).values({
      tenantId: caller.tenantId,
      referenceId: randomUUID(),
      contentId: ambiguous.content_id,
      relationshipKind: 'embeds',
      referencedContentId: question.content_id,
      parentVersionId: ambiguous.latest_version_id,
      referencedVersionId: question.latest_version_id,
      ordinal: 1,
      status: 'active',
      createdBy: 'import',
      createdAt: new Date().toISOString(),
    });
    const refusedAmbiguous = await reference(caller, bank.content_id, bankMember(bank, ambiguous, 3));
    expect([refusedAmbiguous.status, refusedAmbiguous.body.code]).toEqual([
      409,
      'content.bank_kc_attribution_incomplete',
    ]);
    // Trust on the bank version freezes membership.
    const reviewer = await sameTenant(platform, caller);
    await http(
      platform,
      'POST',
      `${root}/items/${otherBank.content_id}/versions/${otherBank.latest_version_id}/qc-decisions`,
      { token: reviewer.token, body: { trust_status: 'degraded', reason: 'x' } },
    );
    const frozen = await reference(caller, otherBank.content_id, bankMember(otherBank, form, 1));
    expect([frozen.status, frozen.body.code]).toEqual([409, 'content.bank_membership_frozen']);
    // A retired bank is frozen too.
    const retiredBank = await createItem(platform, caller, {
      content_kind: 'test_bank',
      membership_rule: 'pp100_adaptive_shards',
      status: 'retired',
    });
    expect((await reference(caller, retiredBank.content_id, bankMember(retiredBank, form, 1))).body.code).toBe(
      'content.bank_membership_frozen',
    );
  });

  it('asks the registry about every tagged KC when it counts attribution, and fails closed without an answer', async ({
    platform,
  }) => {
    const caller = await newTenant(platform);
    const question = await taggedQuestion(caller);
    const form = await formEmbedding(caller, [question]);
    const bank = await createBank(platform, caller);
    expect((await reference(caller, bank.content_id, bankMember(bank, form, 1))).status).toBe(201);
    const tags = await http(platform, 'GET', `${tenantRoot(caller.tenantId)}/items/${question.content_id}/kc-tags`, {
      token: caller.token,
    });
    const kcId = tags.body.data[0].kc_id as string;
    const membersUrl = `${tenantRoot(caller.tenantId)}/items/${bank.content_id}/bank-members`;
    const asked = curriculum.requests.length;
    expect((await http(platform, 'GET', membersUrl, { token: caller.token })).body.readiness.ready_count).toBe(1);
    expect(curriculum.requests.slice(asked).map((request) => request.path)).toEqual([
      expect.stringMatching(new RegExp(`/alpha/curriculum/v1/kcs/${kcId}$`)),
    ]);
    curriculum.kcs.set(kcId, 'error');
    const unanswered = await http(platform, 'GET', membersUrl, { token: caller.token });
    expect([unanswered.status, unanswered.body.code]).toEqual([503, 'content.kc_registry_unavailable']);
    await expectUnchanged(platform, caller, `/items/${bank.content_id}/references`, async () => {
      const refused = await reference(caller, bank.content_id, bankMember(bank, form, 2));
      expect([refused.status, refused.body.code]).toEqual([503, 'content.kc_registry_unavailable']);
    });
    curriculum.kcs.set(kcId, registryKc(kcId, { status: 'retired', retired_at: new Date().toISOString() }));
    const retired = await http(platform, 'GET', membersUrl, { token: caller.token });
    expect([retired.status, retired.body.readiness.ready_count]).toEqual([200, 0]);
  });

  it('fails GET /bank-members with the typed 409 when a stored row is malformed', async ({ platform }) => {
    const caller = await newTenant(platform);
    const form = await formEmbedding(caller, [await taggedQuestion(caller)]);
    const bank = await createBank(platform, caller);
    expect((await reference(caller, bank.content_id, bankMember(bank, form, 1))).status).toBe(201);
    await platform.runtime.database.db.insert(contentReferences).values({
      tenantId: caller.tenantId,
      referenceId: randomUUID(),
      contentId: bank.content_id,
      relationshipKind: 'bank_member',
      referencedContentId: form.content_id,
      parentVersionId: bank.latest_version_id,
      referencedVersionId: null,
      ordinal: 2,
      status: 'retired',
      createdBy: 'legacy',
      createdAt: new Date().toISOString(),
    });
    const read = await http(platform, 'GET', `${tenantRoot(caller.tenantId)}/items/${bank.content_id}/bank-members`, {
      token: caller.token,
    });
    expect([read.status, read.body.code]).toEqual([409, 'content.invalid_test_bank_member_contract']);
    const article = await createItem(platform, caller, { content_kind: 'article' });
    expect(
      (
        await http(platform, 'GET', `${tenantRoot(caller.tenantId)}/items/${article.content_id}/bank-members`, {
          token: caller.token,
        })
      ).status,
    ).toBe(404);
  });
});

describe('other references', () => {
  it('creates every relationship kind to existing items, validates exact versions, soft-retires with audit', async ({
    platform,
  }) => {
    const caller = await newTenant(platform);
    const root = tenantRoot(caller.tenantId);
    const video = await createItem(platform, caller, { content_kind: 'video' });
    const transcript = await createItem(platform, caller, { content_kind: 'article' });
    for (const kind of [
      'embeds',
      'depends_on',
      'transcript_for',
      'caption_for',
      'thumbnail_for',
      'source_file_for',
      'source_script_for',
      'alternative_form_of',
      'related_material',
    ]) {
      const created = await reference(caller, video.content_id, {
        relationship_kind: kind,
        referenced_content_id: transcript.content_id,
      });
      expect(created.status, kind).toBe(201);
    }
    for (const body of [
      { relationship_kind: 'mentions', referenced_content_id: transcript.content_id },
      { relationship_kind: 'embeds', referenced_content_id: randomUUID() },
      { relationship_kind: 'embeds', referenced_content_id: video.content_id },
      {
        relationship_kind: 'embeds',
        referenced_content_id: transcript.content_id,
        referenced_version_id: video.latest_version_id,
      },
      { relationship_kind: 'embeds', referenced_content_id: transcript.content_id, payload: { html: '<p/>' } },
    ]) {
      await expectUnchanged(platform, caller, `/items/${video.content_id}/references`, async () => {
        const refused = await reference(caller, video.content_id, body);
        expect([refused.status, refused.body.code], JSON.stringify(body)).toEqual([400, 'content.validation_failed']);
      });
    }
    const listed = await http(platform, 'GET', `${root}/items/${video.content_id}/references`, { token: caller.token });
    expect(listed.body.data).toHaveLength(9);
    const retired = await http(
      platform,
      'DELETE',
      `${root}/items/${video.content_id}/references/${listed.body.data[0].reference_id}`,
      { token: caller.token },
    );
    expect(retired.body.status).toBe('retired');
    const again = await http(
      platform,
      'DELETE',
      `${root}/items/${video.content_id}/references/${listed.body.data[0].reference_id}`,
      { token: caller.token },
    );
    expect(again.body).toEqual(retired.body);
    expect(
      (await http(platform, 'GET', `${root}/items/${video.content_id}/references`, { token: caller.token })).body.data,
    ).toHaveLength(9);
    expect(
      (
        await http(platform, 'DELETE', `${root}/items/${video.content_id}/references/${randomUUID()}`, {
          token: caller.token,
        })
      ).status,
    ).toBe(404);
    const reader = await sameTenant(platform, caller, { scopes: ['read:content'] });
    expect(
      (
        await reference(reader, video.content_id, {
          relationship_kind: 'embeds',
          referenced_content_id: transcript.content_id,
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await http(
          platform,
          'DELETE',
          `${root}/items/${video.content_id}/references/${listed.body.data[1].reference_id}`,
          { token: reader.token },
        )
      ).status,
    ).toBe(403);
  });
});
