import { randomUUID } from 'node:crypto';
import { describe, expect } from 'vitest';
import { curriculumV1, http, newTenant, tenantRoot } from '../kit.ts';
import { platformTest } from '../platform-test.ts';
import { createKc } from '../curriculum/helpers.ts';
import { bankMember, createBank, formTaggedWith, postAs } from './helpers.ts';

/** The embedded curriculum answers content's registry questions: the whole path is real. */
const it = platformTest();

describe('a KC tag counts for bank attribution only while its KC is active in the registry', () => {
  it('stops counting a tag once the KC is retired through curriculum: readiness drops and new members are refused', async ({
    platform,
  }) => {
    const caller = await newTenant(platform);
    const kc = await createKc(platform, caller);
    const { question, form } = await formTaggedWith(platform, caller, kc.kc_id);
    const bank = await createBank(platform, caller);
    const addMember = (ordinal: number) =>
      postAs(platform, caller, `/items/${bank.content_id}/references`, bankMember(bank, form, ordinal));
    expect((await addMember(1)).status).toBe(201);
    const membersUrl = `${tenantRoot(caller.tenantId)}/items/${bank.content_id}/bank-members`;
    const before = await http(platform, 'GET', membersUrl, { token: caller.token });
    expect(before.body.readiness).toMatchObject({ member_count: 1, ready_count: 1 });

    const retired = await http(platform, 'DELETE', `${curriculumV1}/kcs/${kc.kc_id}`, {
      token: caller.token,
      headers: { 'idempotency-key': randomUUID(), 'if-match': kc.etag },
    });
    expect(retired.status, JSON.stringify(retired.body)).toBe(200);

    const after = await http(platform, 'GET', membersUrl, { token: caller.token });
    expect(after.body.readiness).toMatchObject({ member_count: 1, ready_count: 0 });
    expect(after.body.members[0]).toMatchObject({ ready: false });
    expect(after.body.members[0].not_ready_reason).toContain(question.content_id);
    const refused = await addMember(2);
    expect([refused.status, refused.body.code]).toEqual([409, 'content.bank_kc_attribution_incomplete']);
    // The tag row itself is content's record and stays; it only stops counting.
    const tags = await http(platform, 'GET', `${tenantRoot(caller.tenantId)}/items/${question.content_id}/kc-tags`, {
      token: caller.token,
    });
    expect(tags.body.data.map((tag: { kc_id: string }) => tag.kc_id)).toEqual([kc.kc_id]);
  });
});
