import { randomUUID } from 'node:crypto';
import { describe, expect } from 'vitest';
import { curriculumV1, graphql, http, newTenant, sameTenant, tenantRoot } from '../kit.ts';
import { platformTest } from '../platform-test.ts';
import { createItem, postAs } from './helpers.ts';

const it = platformTest();

/** uuids are case-insensitive (RFC 9562): a client may send any id the service answered in upper case. */
describe('uuids sent in upper case in bodies, queries and GraphQL arguments', () => {
  it('name the same items, versions and KCs as in lower case', async ({ platform }) => {
    const caller = await newTenant(platform);
    const root = tenantRoot(caller.tenantId);
    const question = await createItem(platform, caller, { content_kind: 'question' });
    const form = await createItem(platform, caller, { content_kind: 'test' });

    const embeds = await postAs(platform, caller, `/items/${form.content_id}/references`, {
      relationship_kind: 'embeds',
      referenced_content_id: question.content_id.toUpperCase(),
      parent_version_id: form.latest_version_id.toUpperCase(),
      referenced_version_id: question.latest_version_id.toUpperCase(),
      ordinal: 1,
    });
    expect([embeds.status, embeds.body.code]).toEqual([201, undefined]);
    expect(embeds.body).toMatchObject({
      referenced_content_id: question.content_id,
      referenced_version_id: question.latest_version_id,
    });

    const kc = await http(platform, 'POST', `${curriculumV1}/kcs`, {
      token: caller.token,
      headers: { 'idempotency-key': randomUUID() },
      body: {
        stored_as: 'alpha.knowledge_component',
        definition: 'Name the parts of a fraction',
        alpha: { subject_id: 'math', kc_kind: 'substantive' },
      },
    });
    expect(kc.status).toBe(201);
    const kcId = kc.body.kc_id as string;
    const tagged = await postAs(platform, caller, `/items/${question.content_id}/kc-tags`, {
      kc_id: kcId.toUpperCase(),
      weight: 0.5,
    });
    expect([tagged.status, tagged.body.code]).toEqual([201, undefined]);
    const retagged = await postAs(platform, caller, `/items/${question.content_id}/kc-tags`, {
      kc_id: kcId,
      weight: 1,
    });
    expect(retagged.status).toBe(200);
    const tags = await http(platform, 'GET', `${root}/items/${question.content_id}/kc-tags`, { token: caller.token });
    expect(tags.body.data.map((tag: any) => [tag.kc_id, tag.weight])).toEqual([[kcId, 1]]);

    const trust = await http(
      platform,
      'GET',
      `${root}/items/${question.content_id}/trust?version_id=${question.latest_version_id.toUpperCase()}`,
      { token: caller.token },
    );
    expect(trust.body.version_id).toBe(question.latest_version_id);

    const reviewer = await sameTenant(platform, caller);
    const decided = await graphql(
      platform,
      `
        mutation ($c: ID!, $v: ID!) {
          recordQcDecision(contentId: $c, versionId: $v, input: { trustStatus: "trusted", reason: "checked" }) {
            versionId
            trustStatus
          }
        }
      `,
      { c: question.content_id.toUpperCase(), v: question.latest_version_id.toUpperCase() },
      reviewer.token,
    );
    expect(decided.body.errors).toBeUndefined();
    expect(decided.body.data.recordQcDecision).toEqual({
      versionId: question.latest_version_id,
      trustStatus: 'trusted',
    });
  });
});
