import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { graphql, http, newTenant, sameTenant, tenantRoot } from '../kit.ts';
import { platformTest } from '../platform-test.ts';
import { QTI3_ITEM, appendVersion, blueprint, createItem } from './helpers.ts';
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

/** A REST answer in GraphQL's names, to compare the two transports' answers field for field. */
function camelKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(camelKeys);
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [
        key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase()),
        camelKeys(item),
      ]),
    );
  return value;
}

describe("content subgraph: an item's references, media, link, composition and QTI projections", () => {
  const REFERENCE = 'referenceId relationshipKind referencedContentId status';
  const MEDIA = 'mediaId contentId mediaKind mimeType fileName byteSize sha256 deliveryUrl createdAt';
  const LINK = 'contentId url externalOpenPolicy provider title updatedBy updatedAt';
  const COMPOSITION =
    'contentId type durationSeconds revision updatedBy updatedAt bindings { atSeconds segment testsPriorContent questionRef { contentId versionId assessmentComponentId } }';

  it('writes and reads each through GraphQL as REST answers it', async ({ platform }) => {
    const caller = await newTenant(platform);
    const root = tenantRoot(caller.tenantId);
    const rest = async (path: string) => (await http(platform, 'GET', `${root}${path}`, { token: caller.token })).body;
    const create = async (contentKind: string) =>
      (await createItem(platform, caller, { content_kind: contentKind })).content_id as string;
    const question = await create('question');
    const version = await appendVersion(platform, caller, question, { canonical_xml: QTI3_ITEM });
    const link = await create('external_link');
    const interactive = await create('interactive');
    const read = async (contentId: string, fields: string, variables: Record<string, unknown> = {}) => {
      const answer = await graphql(
        platform,
        `query($id: ID!${fields.includes('$v') ? ', $v: ID' : ''}) { contentItem(contentId: $id) { ${fields} } }`,
        { id: contentId, ...variables },
        caller.token,
      );
      expect(answer.body.errors).toBeUndefined();
      return answer.body.data.contentItem;
    };

    expect(await read(link, `externalLink { ${LINK} } interactiveComposition { revision } media { mediaId }`)).toEqual({
      externalLink: null,
      interactiveComposition: null,
      media: [],
    });

    const setLink = await graphql(
      platform,
      `mutation($id: ID!) { setContentExternalLink(contentId: $id, input: { url: "https://example.org/a", externalOpenPolicy: "new_tab", title: "A" }) { ${LINK} } }`,
      { id: link },
      caller.token,
    );
    expect(setLink.body.data.setContentExternalLink).toEqual(camelKeys(await rest(`/items/${link}/external-link`)));
    expect((await read(link, `externalLink { ${LINK} }`)).externalLink).toEqual(
      setLink.body.data.setContentExternalLink,
    );
    const secret = await graphql(
      platform,
      `
        mutation ($id: ID!) {
          setContentExternalLink(
            contentId: $id
            input: { url: "https://example.org/a?token=x", externalOpenPolicy: "new_tab" }
          ) {
            url
          }
        }
      `,
      { id: link },
      caller.token,
    );
    expect(secret.body.errors?.[0].extensions?.code).toBe('content.validation_failed');

    const upload = await graphql(
      platform,
      `mutation($id: ID!, $key: String) { uploadContentMedia(contentId: $id, idempotencyKey: $key, input: { mediaKind: "primary", mimeType: "image/png", fileName: "a.png", dataBase64: "iVBORw0KGgo=" }) { ${MEDIA} } }`,
      { id: question, key: randomUUID() },
      caller.token,
    );
    expect(upload.body.errors).toBeUndefined();
    expect(upload.body.data.uploadContentMedia).toMatchObject({ byteSize: 8, mimeType: 'image/png' });
    const media = (await read(question, `media { ${MEDIA} }`)).media;
    expect(media).toEqual(camelKeys((await rest(`/items/${question}/media`)).data));
    expect(media).toEqual([upload.body.data.uploadContentMedia]);

    const components = await read(
      question,
      'assessmentComponents(versionId: $v) { componentId contentId versionId ordinal componentRole identifier parentIdentifier text } scoringPlan(versionId: $v) { contentId versionId ordinal scoringRuleScope identifier qtiCardinality qtiBaseType template }',
      { v: version.version_id },
    );
    expect(components.assessmentComponents).toEqual(
      camelKeys((await rest(`/items/${question}/assessment-components`)).data),
    );
    expect(components.scoringPlan).toEqual(camelKeys((await rest(`/items/${question}/scoring-plan`)).data));
    expect(components.assessmentComponents.length).toBeGreaterThan(0);
    expect(components.scoringPlan.length).toBeGreaterThan(0);
    const questionOnly = await read(question, 'assessmentComponents(componentRole: "question") { componentRole }');
    expect(questionOnly.assessmentComponents).toEqual([{ componentRole: 'question' }]);

    const composed = await graphql(
      platform,
      `mutation($id: ID!, $input: InteractiveCompositionInput!) { setInteractiveComposition(contentId: $id, input: $input) { ${COMPOSITION} } }`,
      {
        id: interactive,
        input: {
          type: 'interactive_video',
          durationSeconds: 90,
          bindings: [{ atSeconds: 12.5, questionRef: { contentId: question }, testsPriorContent: true }],
        },
      },
      caller.token,
    );
    expect(composed.body.errors).toBeUndefined();
    expect(composed.body.data.setInteractiveComposition).toMatchObject({ revision: 1, durationSeconds: 90 });
    const composition = (await read(interactive, `interactiveComposition { ${COMPOSITION} }`)).interactiveComposition;
    expect(composition).toEqual(composed.body.data.setInteractiveComposition);
    const restComposition = camelKeys(await rest(`/items/${interactive}/interactive-composition`)) as Record<
      string,
      unknown
    >;
    expect(composition).toMatchObject(restComposition);

    const referenced = await graphql(
      platform,
      `
        mutation ($id: ID!, $to: ID!) {
          createContentReference(contentId: $id, input: { relationshipKind: "depends_on", referencedContentId: $to }) {
            referenceId
          }
        }
      `,
      { id: question, to: link },
      caller.token,
    );
    expect(referenced.body.errors).toBeUndefined();
    const referenceId = referenced.body.data.createContentReference.referenceId;
    await graphql(
      platform,
      `
        mutation ($id: ID!, $ref: ID!) {
          retireContentReference(contentId: $id, referenceId: $ref) {
            status
          }
        }
      `,
      { id: question, ref: referenceId },
      caller.token,
    );
    const references = await read(
      question,
      `all: references { ${REFERENCE} } active: references(status: "active") { referenceId } retired: references(status: "retired") { referenceId }`,
    );
    expect(references.all).toEqual([
      { referenceId, relationshipKind: 'depends_on', referencedContentId: link, status: 'retired' },
    ]);
    expect([references.active, references.retired]).toEqual([[], [{ referenceId }]]);
    const badFilter = await graphql(
      platform,
      `
        query ($id: ID!) {
          contentItem(contentId: $id) {
            references(status: "gone") {
              referenceId
            }
          }
        }
      `,
      { id: question },
      caller.token,
    );
    expect(badFilter.body.errors?.[0].extensions?.code).toBe('content.validation_failed');
  });
});

describe('content subgraph: the QC queue', () => {
  it('lists versions by trust status, each with its version, as GET /trust-status does', async ({ platform }) => {
    const caller = await newTenant(platform);
    const question = await createItem(platform, caller, { content_kind: 'question' });
    const version = await appendVersion(platform, caller, question.content_id, { canonical_xml: QTI3_ITEM });
    const queue = await graphql(
      platform,
      `
        {
          unknown: trustStatuses(trustStatus: unknown, limit: 50) {
            data {
              contentId
              versionId
              versionNumber
              trustStatus
              version {
                versionId
                releaseEligibility {
                  trustStatus
                  releaseEligible
                }
              }
            }
            nextCursor
          }
          trusted: trustStatuses(trustStatus: trusted) {
            data {
              versionId
            }
          }
        }
      `,
      {},
      caller.token,
    );
    expect(queue.body.errors).toBeUndefined();
    const rest = await http(
      platform,
      'GET',
      `${tenantRoot(caller.tenantId)}/trust-status?trust_status=unknown&limit=50`,
      {
        token: caller.token,
      },
    );
    expect(queue.body.data.unknown.data.map(({ version: _version, ...row }: Record<string, unknown>) => row)).toEqual(
      rest.body.data.map((row: Record<string, unknown>) => ({
        contentId: row.content_id,
        versionId: row.version_id,
        versionNumber: row.version_number,
        trustStatus: row.trust_status,
      })),
    );
    expect(queue.body.data.unknown.data).toContainEqual(
      expect.objectContaining({
        versionId: version.version_id,
        version: {
          versionId: version.version_id,
          releaseEligibility: { trustStatus: 'unknown', releaseEligible: false },
        },
      }),
    );
    expect(queue.body.data.trusted.data).not.toContainEqual({ versionId: version.version_id });
    const refused = await graphql(platform, '{ trustStatuses(limit: -1) { nextCursor } }', {}, caller.token);
    expect(refused.body.errors?.[0].extensions?.code).toBe('content.validation_failed');
  });
});

describe('content subgraph: ids', () => {
  it('finds an item and an exact version by their uuids in upper case, as REST paths do', async ({ platform }) => {
    const caller = await newTenant(platform);
    const item = await createItem(platform, caller, { content_kind: 'question' });
    const version = await appendVersion(platform, caller, item.content_id, { canonical_xml: QTI3_ITEM });
    const found = await graphql(
      platform,
      `
        query ($item: ID!, $version: ID!) {
          contentItem(contentId: $item) {
            contentId
          }
          contentVersion(versionId: $version) {
            versionId
            releaseEligibility {
              contentVersionId
            }
          }
        }
      `,
      { item: item.content_id.toUpperCase(), version: version.version_id.toUpperCase() },
      caller.token,
    );
    expect(found.body.errors).toBeUndefined();
    expect(found.body.data).toEqual({
      contentItem: { contentId: item.content_id },
      contentVersion: { versionId: version.version_id, releaseEligibility: { contentVersionId: version.version_id } },
    });
  });
});
