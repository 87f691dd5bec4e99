import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { graphql, http, newTenant, sameTenant, tenantRoot } from '../kit.ts';
import { platformTest } from '../platform-test.ts';
import { QTI3_ITEM, appendVersion, blueprint } from './helpers.ts';
import { registryKc, startFakeCurriculum, type FakeCurriculum } from './fake-curriculum.ts';

let curriculum: FakeCurriculum;
beforeAll(async () => {
  curriculum = await startFakeCurriculum();
});
afterAll(async () => {
  await curriculum?.close();
});
const it = platformTest(() => ({ config: { curriculumUrl: curriculum.url } }));

const ITEM_FIELDS =
  'contentId contentKind title subjectId dok etag status latestVersionId kcTags { kcId weight knowledgeComponent { kcId } } facets { facetKey facetValue provenance }';

describe('content subgraph: what an authoring UI reads and writes', () => {
  it('creates a test_spec with its blueprint, patches metadata under the ETag, publishes, and reads it back', async ({
    platform,
  }) => {
    const caller = await newTenant(platform);
    const created = await graphql(
      platform,
      `mutation($key: String!, $input: CreateContentItemInput!) { createContentItem(idempotencyKey: $key, input: $input) { ${ITEM_FIELDS} blueprint { specId minForms kcCoverage itemTypeMix } } }`,
      {
        key: randomUUID(),
        input: { contentKind: 'test_spec', title: 'Spec', subjectId: 'math', blueprint },
      },
      caller.token,
    );
    expect(created.body.errors).toBeUndefined();
    const spec = created.body.data.createContentItem;
    expect(spec.blueprint).toEqual({
      specId: spec.contentId,
      minForms: 2,
      kcCoverage: blueprint.kc_coverage,
      itemTypeMix: blueprint.item_type_mix,
    });
    const patch = `mutation($id: ID!, $etag: String!, $input: PatchContentItemInput!) { patchContentItem(contentId: $id, ifMatch: $etag, input: $input) { title dok etag } }`;
    const patched = await graphql(
      platform,
      patch,
      { id: spec.contentId, etag: spec.etag, input: { title: 'Renamed', dok: 'dok3' } },
      caller.token,
    );
    expect(patched.body.data.patchContentItem).toMatchObject({ title: 'Renamed', dok: 'dok3' });
    const stale = await graphql(
      platform,
      patch,
      { id: spec.contentId, etag: spec.etag, input: { title: 'Again' } },
      caller.token,
    );
    expect(stale.body.errors?.[0].extensions?.code).toBe('content.precondition_failed');
    const invalid = await graphql(
      platform,
      patch,
      { id: spec.contentId, etag: patched.body.data.patchContentItem.etag, input: { dok: 'dok9' } },
      caller.token,
    );
    expect(invalid.body.errors?.[0].extensions?.code).toBe('content.validation_failed');
    const rest = await http(platform, 'GET', `${tenantRoot(caller.tenantId)}/items/${spec.contentId}`, {
      token: caller.token,
    });
    expect(rest.body).toMatchObject({ title: 'Renamed', dok: 'dok3', etag: patched.body.data.patchContentItem.etag });

    const publish = `mutation($id: ID!, $v: ID!) { publishContentVersion(contentId: $id, versionId: $v) { contentId versionId publicationStatus } }`;
    const published = await graphql(platform, publish, { id: spec.contentId, v: spec.latestVersionId }, caller.token);
    expect(published.body.data.publishContentVersion).toEqual({
      contentId: spec.contentId,
      versionId: spec.latestVersionId,
      publicationStatus: 'published',
    });
    const article = await graphql(
      platform,
      `
        mutation ($key: String!) {
          createContentItem(idempotencyKey: $key, input: { contentKind: "article", title: "A" }) {
            contentId
            latestVersionId
          }
        }
      `,
      { key: randomUUID() },
      caller.token,
    );
    const refused = await graphql(
      platform,
      publish,
      { id: article.body.data.createContentItem.contentId, v: article.body.data.createContentItem.latestVersionId },
      caller.token,
    );
    expect(refused.body.errors?.[0].extensions?.code).toBe('content.publication_refused');
    const badSpec = await graphql(
      platform,
      `
        mutation ($key: String!, $input: CreateContentItemInput!) {
          createContentItem(idempotencyKey: $key, input: $input) {
            contentId
          }
        }
      `,
      {
        key: randomUUID(),
        input: { contentKind: 'test_spec', title: 'Bad', blueprint: { ...blueprint, item_type_mix: { choice: 1 } } },
      },
      caller.token,
    );
    expect(badSpec.body.errors?.[0].extensions?.code).toBe('content.validation_failed');
    // A blueprint carries the seven fields only; other keys must not set the metadata sent beside it.
    const key = randomUUID();
    const smuggled = await graphql(
      platform,
      `
        mutation ($key: String!, $input: CreateContentItemInput!) {
          createContentItem(idempotencyKey: $key, input: $input) {
            contentId
          }
        }
      `,
      {
        key,
        input: {
          contentKind: 'article',
          title: 'Sent',
          blueprint: { title: 'Smuggled', status: 'published', content_kind: 'video' },
        },
      },
      caller.token,
    );
    expect(smuggled.body.errors?.[0].extensions?.code).toBe('content.validation_failed');
    expect(
      smuggled.body.errors?.[0].extensions?.fieldErrors.map((error: { field: string }) => error.field).sort(),
    ).toEqual(['blueprint.content_kind', 'blueprint.status', 'blueprint.title']);
  });

  it('tags KCs as KnowledgeComponent references, assigns facets and lists items with filters', async ({ platform }) => {
    const caller = await newTenant(platform);
    const kcId = randomUUID();
    curriculum.kcs.set(kcId, registryKc(kcId));
    const q = await graphql(
      platform,
      `
        mutation ($key: String!) {
          createContentItem(idempotencyKey: $key, input: { contentKind: "question", title: "Q", subjectId: "math" }) {
            contentId
          }
        }
      `,
      { key: randomUUID() },
      caller.token,
    );
    const contentId = q.body.data.createContentItem.contentId;
    const tagged = await graphql(
      platform,
      `
        mutation ($id: ID!, $kc: ID!) {
          tagContentKc(contentId: $id, input: { kcId: $kc, weight: 0.7 }) {
            kcId
            weight
            knowledgeComponent {
              kcId
            }
          }
        }
      `,
      { id: contentId, kc: kcId },
      caller.token,
    );
    expect(tagged.body.data.tagContentKc).toEqual({ kcId, weight: 0.7, knowledgeComponent: { kcId } });
    const unknownKc = await graphql(
      platform,
      `
        mutation ($id: ID!, $kc: ID!) {
          tagContentKc(contentId: $id, input: { kcId: $kc, weight: 0.7 }) {
            kcId
          }
        }
      `,
      { id: contentId, kc: randomUUID() },
      caller.token,
    );
    expect(unknownKc.body.errors?.[0].extensions?.code).toBe('content.kc_not_active');
    const defined = await graphql(
      platform,
      `
        mutation {
          defineCatalogFacet(input: { facetKey: "provenance", valueType: "text" }) {
            facetKey
            valueType
            grain
            status
          }
        }
      `,
      {},
      caller.token,
    );
    expect(defined.body.data.defineCatalogFacet).toEqual({
      facetKey: 'provenance',
      valueType: 'text',
      grain: 'content_item',
      status: 'active',
    });
    const again = await graphql(
      platform,
      `
        mutation {
          defineCatalogFacet(input: { facetKey: "provenance", valueType: "text" }) {
            facetKey
          }
        }
      `,
      {},
      caller.token,
    );
    expect(again.body.errors?.[0].extensions?.code).toBe('content.catalog_facet_exists');
    const assigned = await graphql(
      platform,
      `
        mutation ($id: ID!, $key: String!) {
          assignCatalogFacet(
            contentId: $id
            idempotencyKey: $key
            input: { facetKey: "provenance", facetValue: "vendor", provenance: { source_test_id: "t-1" } }
          ) {
            facetKey
            facetValue
            provenance
          }
        }
      `,
      { id: contentId, key: randomUUID() },
      caller.token,
    );
    expect(assigned.body.data.assignCatalogFacet).toEqual({
      facetKey: 'provenance',
      facetValue: 'vendor',
      provenance: { source_test_id: 't-1' },
    });
    await graphql(
      platform,
      `
        mutation ($key: String!) {
          createContentItem(idempotencyKey: $key, input: { contentKind: "article", title: "Other" }) {
            contentId
          }
        }
      `,
      { key: randomUUID() },
      caller.token,
    );
    const listed = await graphql(
      platform,
      `query { contentItems(filter: { provenance: "vendor", isMasteryGate: false }, limit: 10) { data { ${ITEM_FIELDS} } nextCursor } }`,
      {},
      caller.token,
    );
    expect(listed.body.errors).toBeUndefined();
    expect(listed.body.data.contentItems.data).toHaveLength(1);
    expect(listed.body.data.contentItems.data[0]).toMatchObject({
      contentId,
      kcTags: [{ kcId, weight: 0.7 }],
      facets: [{ facetKey: 'provenance', facetValue: 'vendor' }],
    });
    const all = await graphql(
      platform,
      `
        query {
          contentItems(limit: 1) {
            data {
              contentId
            }
            nextCursor
          }
        }
      `,
      {},
      caller.token,
    );
    expect(all.body.data.contentItems.nextCursor).toEqual(expect.any(String));
    const badFilter = await graphql(
      platform,
      `
        query {
          contentItems(filter: { dok: "dok9" }) {
            data {
              contentId
            }
          }
        }
      `,
      {},
      caller.token,
    );
    expect(badFilter.body.errors?.[0].extensions?.code).toBe('content.validation_failed');
    const facets = await graphql(
      platform,
      `
        query {
          catalogFacets {
            facetKey
          }
        }
      `,
      {},
      caller.token,
    );
    expect(facets.body.data.catalogFacets).toEqual([{ facetKey: 'provenance' }]);
    const reader = await sameTenant(platform, caller, { scopes: ['read:content'], roles: ['reviewer'] });
    const forbidden = await graphql(
      platform,
      `
        mutation ($id: ID!, $kc: ID!) {
          tagContentKc(contentId: $id, input: { kcId: $kc, weight: 0.7 }) {
            kcId
          }
        }
      `,
      { id: contentId, kc: kcId },
      reader.token,
    );
    expect(forbidden.body.errors?.[0].extensions?.code).toBe('content.forbidden');
  });

  it('builds a bank with references and reads its members with the forms they point at', async ({ platform }) => {
    const caller = await newTenant(platform);
    const create = async (input: Record<string, unknown>) =>
      (
        await graphql(
          platform,
          `
            mutation ($key: String!, $input: CreateContentItemInput!) {
              createContentItem(idempotencyKey: $key, input: $input) {
                contentId
                latestVersionId
              }
            }
          `,
          { key: randomUUID(), input },
          caller.token,
        )
      ).body.data.createContentItem;
    const question = await create({ contentKind: 'question', title: 'Q' });
    const kcId = randomUUID();
    curriculum.kcs.set(kcId, registryKc(kcId));
    await graphql(
      platform,
      `
        mutation ($id: ID!, $kc: ID!) {
          tagContentKc(contentId: $id, input: { kcId: $kc, weight: 1 }) {
            kcId
          }
        }
      `,
      { id: question.contentId, kc: kcId },
      caller.token,
    );
    const form = await create({ contentKind: 'test', title: 'Form' });
    const reference = `mutation($id: ID!, $input: ContentReferenceInput!) { createContentReference(contentId: $id, input: $input) { referenceId status ordinal } }`;
    const embed = await graphql(
      platform,
      reference,
      {
        id: form.contentId,
        input: {
          relationshipKind: 'embeds',
          referencedContentId: question.contentId,
          parentVersionId: form.latestVersionId,
          referencedVersionId: question.latestVersionId,
          ordinal: 1,
        },
      },
      caller.token,
    );
    expect(embed.body.errors).toBeUndefined();
    const bank = await create({
      contentKind: 'test_bank',
      title: 'Bank',
      membershipRule: 'same_blueprint_fixed_forms',
    });
    const memberInput = {
      relationshipKind: 'bank_member',
      referencedContentId: form.contentId,
      parentVersionId: bank.latestVersionId,
      referencedVersionId: form.latestVersionId,
      ordinal: 1,
    };
    const created = await graphql(platform, reference, { id: bank.contentId, input: memberInput }, caller.token);
    expect(created.body.data.createContentReference).toMatchObject({ status: 'active', ordinal: 1 });
    const duplicate = await graphql(platform, reference, { id: bank.contentId, input: memberInput }, caller.token);
    expect(duplicate.body.errors?.[0].extensions?.code).toBe('content.invalid_test_bank_member_contract');
    const members = await graphql(
      platform,
      `
        query ($id: ID!) {
          bankMembers(contentId: $id) {
            membershipRule
            members {
              ordinal
              ready
              practiceEligible
              form {
                title
              }
            }
            readiness {
              memberCount
              readyCount
              questionCount
            }
          }
        }
      `,
      { id: bank.contentId },
      caller.token,
    );
    expect(members.body.data.bankMembers).toEqual({
      membershipRule: 'same_blueprint_fixed_forms',
      members: [{ ordinal: 1, ready: true, practiceEligible: true, form: { title: 'Form' } }],
      readiness: { memberCount: 1, readyCount: 1, questionCount: 1 },
    });
    const retired = await graphql(
      platform,
      `
        mutation ($id: ID!, $ref: ID!) {
          retireContentReference(contentId: $id, referenceId: $ref) {
            status
            retiredBy
          }
        }
      `,
      { id: bank.contentId, ref: created.body.data.createContentReference.referenceId },
      caller.token,
    );
    expect(retired.body.data.retireContentReference.status).toBe('retired');
  });
});

describe('batching', () => {
  it('reads items with their tags, facets and latest versions in the same number of statements for 1 or 6 items', async ({
    platform,
  }) => {
    const caller = await newTenant(platform);
    await graphql(
      platform,
      `
        mutation {
          defineCatalogFacet(input: { facetKey: "modality", valueType: "text" }) {
            facetKey
          }
        }
      `,
      {},
      caller.token,
    );
    for (let i = 0; i < 6; i += 1) {
      const created = await graphql(
        platform,
        `
          mutation ($key: String!) {
            createContentItem(idempotencyKey: $key, input: { contentKind: "article", title: "A" }) {
              contentId
            }
          }
        `,
        { key: randomUUID() },
        caller.token,
      );
      await graphql(
        platform,
        `
          mutation ($id: ID!, $key: String!) {
            assignCatalogFacet(
              contentId: $id
              idempotencyKey: $key
              input: { facetKey: "modality", facetValue: "visual" }
            ) {
              facetKey
            }
          }
        `,
        { id: created.body.data.createContentItem.contentId, key: randomUUID() },
        caller.token,
      );
    }
    const query = `query($limit: Int) { contentItems(limit: $limit) { data { contentId kcTags { kcId } facets { facetKey } latestVersion { versionId releaseEligibility { releaseEligible } } } } }`;
    const { stats } = platform.runtime.database;
    const count = async (limit: number) => {
      const before = stats.queries;
      const reply = await graphql(platform, query, { limit }, caller.token);
      expect(reply.body.errors).toBeUndefined();
      expect(reply.body.data.contentItems.data).toHaveLength(limit);
      return stats.queries - before;
    };
    const one = await count(1);
    const six = await count(6);
    expect(six).toBe(one);
    expect(six).toBeLessThanOrEqual(4);
  });
});

describe('versions, student view and trust through the item', () => {
  it('reads versions with eligibility, the student view with keys only when allowed, and trust evidence', async ({
    platform,
  }) => {
    const caller = await newTenant(platform);
    const created = await graphql(
      platform,
      `
        mutation ($key: String!) {
          createContentItem(idempotencyKey: $key, input: { contentKind: "question", title: "Q", status: "published" }) {
            contentId
          }
        }
      `,
      { key: randomUUID() },
      caller.token,
    );
    const contentId = created.body.data.createContentItem.contentId;
    const v2 = await appendVersion(platform, caller, contentId, {
      canonical_xml: QTI3_ITEM,
      student_view: { blocks: [{ type: 'probe', text: 'Which is one half?', order: 0 }] },
    });
    const reviewer = await sameTenant(platform, caller);
    await http(
      platform,
      'POST',
      `${tenantRoot(caller.tenantId)}/items/${contentId}/versions/${v2.version_id}/qc-decisions`,
      { token: reviewer.token, body: { trust_status: 'trusted', reason: 'ok' } },
    );
    const query = `query($id: ID!, $keys: Boolean) { contentItem(contentId: $id) {
      versions { data { versionNumber releaseEligibility { releaseEligible trustStatus } } nextCursor }
      studentView(includeAnswerKeys: $keys) { versionId blocks { text } answerKeysIncluded answerSlots { responseIdentifier choices { identifier } correctResponse { values } } }
      trust { versionId trustStatus evidence { trustStatus source } }
    } }`;
    const read = await graphql(platform, query, { id: contentId, keys: true }, caller.token);
    expect(read.body.errors).toBeUndefined();
    const item = read.body.data.contentItem;
    expect(item.versions.data).toEqual([
      { versionNumber: 1, releaseEligibility: { releaseEligible: false, trustStatus: 'unknown' } },
      { versionNumber: 2, releaseEligibility: { releaseEligible: true, trustStatus: 'trusted' } },
    ]);
    expect(item.studentView).toMatchObject({
      versionId: v2.version_id,
      blocks: [{ text: 'Which is one half?' }],
      answerKeysIncluded: true,
    });
    expect(item.studentView.answerSlots[0].correctResponse).toEqual({ values: ['B'] });
    expect(item.trust).toEqual({
      versionId: v2.version_id,
      trustStatus: 'trusted',
      evidence: [{ trustStatus: 'trusted', source: 'qc_decision' }],
    });
    const reader = await sameTenant(platform, caller, { scopes: ['read:content'], roles: ['demo'] });
    const noKeys = await graphql(platform, query, { id: contentId, keys: false }, reader.token);
    expect(noKeys.body.data.contentItem.studentView.answerSlots[0].correctResponse).toBeNull();
    const refused = await graphql(platform, query, { id: contentId, keys: true }, reader.token);
    expect(refused.body.errors?.[0].extensions?.code).toBe('content.forbidden');
  });
});
