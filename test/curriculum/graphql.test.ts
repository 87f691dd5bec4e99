import { randomUUID } from 'node:crypto';
import { describe, expect } from 'vitest';
import { curriculumV1, eligibleVersion, graphql, http, newTenant, type Caller } from '../kit.ts';
import { filePlatform, platformTest } from '../platform-test.ts';
import { createComponent, createKc, pinOf } from './helpers.ts';

const it = platformTest();

const codeOf = (reply: { body: { errors?: Array<{ extensions?: Record<string, unknown> }> } }) =>
  reply.body.errors?.[0]?.extensions?.code;

describe('curriculum subgraph: queries', () => {
  it('the headline query returns the pin with its live eligibility and the scope KCs', async ({ platform }) => {
    const caller = await newTenant(platform);
    const version = await eligibleVersion(platform, caller);
    const kc = await createKc(platform, caller);
    await createComponent(platform, caller, {
      component_id: 'lesson',
      kind: 'lesson',
      alpha: { target_ref: pinOf(version), scope_kc_refs: [kc.kc_id] },
    });
    const reply = await graphql(
      platform,
      `
        query ($id: ID!) {
          component(componentId: $id) {
            componentId
            kind
            alpha {
              targetRef {
                contentId
                contentVersionId
                contentKind
                version {
                  versionId
                  releaseEligibility {
                    releaseEligible
                  }
                }
              }
              scopeKcs {
                kcId
                definition
                currentVersion {
                  versionNumber
                  state
                }
              }
            }
          }
        }
      `,
      { id: 'lesson' },
      caller.token,
    );
    expect(reply.body.errors).toBeUndefined();
    expect(reply.body.data.component).toEqual({
      componentId: 'lesson',
      kind: 'lesson',
      alpha: {
        targetRef: {
          contentId: version.contentId,
          contentVersionId: version.versionId,
          contentKind: 'article',
          version: { versionId: version.versionId, releaseEligibility: { releaseEligible: true } },
        },
        scopeKcs: [{ kcId: kc.kc_id, definition: kc.definition, currentVersion: { versionNumber: 1, state: 'draft' } }],
      },
    });
  });

  it('reads a tree of any depth with one query per level, not per node', async ({ platform }) => {
    const caller = await newTenant(platform);
    await createComponent(platform, caller, { component_id: 'c', kind: 'course' });
    for (let unit = 0; unit < 3; unit += 1) {
      await createComponent(platform, caller, { component_id: `u${unit}`, kind: 'unit', parent_component_id: 'c' });
      for (let lesson = 0; lesson < 3; lesson += 1) {
        await createComponent(platform, caller, {
          component_id: `u${unit}.l${lesson}`,
          kind: 'lesson',
          parent_component_id: `u${unit}`,
        });
        await createComponent(platform, caller, {
          component_id: `u${unit}.l${lesson}.p`,
          kind: 'practice',
          parent_component_id: `u${unit}.l${lesson}`,
        });
      }
    }
    const stats = platform.runtime.database.stats;
    const before = stats.queries;
    const reply = await graphql(
      platform,
      `
        {
          component(componentId: "c") {
            componentId
            children {
              componentId
              children {
                componentId
                children {
                  componentId
                  children {
                    componentId
                  }
                }
              }
            }
          }
        }
      `,
      {},
      caller.token,
    );
    const used = stats.queries - before;
    expect(reply.body.data.component.children.map((unit: any) => unit.children.length)).toEqual([3, 3, 3]);
    expect(reply.body.data.component.children[2].children[1].children[0].componentId).toBe('u2.l1.p');
    expect(used).toBeLessThanOrEqual(6);
  });

  it('lists KCs, associations, prerequisites and the renderer registry', async ({ platform }) => {
    const caller = await newTenant(platform);
    const [a, b] = await Promise.all([createKc(platform, caller), createKc(platform, caller)]);
    await graphql(
      platform,
      `
        mutation ($a: ID!, $b: ID!, $k: String!) {
          createKcPrerequisite(prerequisiteKcId: $a, dependentKcId: $b, idempotencyKey: $k) {
            prerequisiteId
          }
        }
      `,
      { a: a.kc_id, b: b.kc_id, k: randomUUID() },
      caller.token,
    );
    await createComponent(platform, caller, { component_id: 'c', kind: 'course' });
    await createComponent(platform, caller, { component_id: 'u', kind: 'unit', parent_component_id: 'c' });
    const reply = await graphql(
      platform,
      `
        query ($kc: ID!) {
          kcs(subjectId: "math", limit: 10) {
            data {
              kcId
            }
            nextCursor
          }
          kcPrerequisites(kcId: $kc) {
            data {
              prerequisite {
                kcId
              }
              dependent {
                kcId
              }
            }
          }
          associations(destinationId: "c") {
            data {
              associationType
              originId
              destinationId
              sequenceNumber
            }
          }
          rendererRegistry(rendererKind: "qti_test") {
            rendererRef
            rendererKind
          }
        }
      `,
      { kc: b.kc_id },
      caller.token,
    );
    expect(reply.body.errors).toBeUndefined();
    expect(reply.body.data.kcs.data).toHaveLength(2);
    expect(reply.body.data.kcPrerequisites.data).toEqual([
      { prerequisite: { kcId: a.kc_id }, dependent: { kcId: b.kc_id } },
    ]);
    expect(reply.body.data.associations.data).toEqual([
      { associationType: 'isChildOf', originId: 'u', destinationId: 'c', sequenceNumber: 0 },
    ]);
    expect(reply.body.data.rendererRegistry).toEqual([{ rendererRef: 'renderer:qti-test', rendererKind: 'qti_test' }]);
  });
});

describe('curriculum subgraph: authoring mutations keep the REST rules and codes', () => {
  async function kcViaGraphql(caller: Caller) {
    const reply = await graphql(
      filePlatform(),
      `
        mutation ($input: KnowledgeComponentInput!) {
          createKc(input: $input) {
            kcId
            etag
            storedAs
            publicationStatus
            alpha {
              instructionalClassification {
                knowledgeType
              }
              provenance
            }
            currentVersion {
              versionId
              versionNumber
            }
          }
        }
      `,
      {
        input: {
          storedAs: 'alpha.knowledge_component',
          definition: 'Compare fractions with a common denominator',
          sourceKcId: `src-${randomUUID()}`,
          alpha: {
            subjectId: 'math',
            instructionalClassification: { knowledgeType: 'procedural' },
            provenance: { source_system: 'vendor', rowId: 7 },
          },
        },
      },
      caller.token,
    );
    expect(reply.body.errors).toBeUndefined();
    return reply.body.data.createKc;
  }

  it('creates, publishes, versions and retires a KC', async ({ platform }) => {
    const caller = await newTenant(platform);
    const kc = await kcViaGraphql(caller);
    expect(kc).toMatchObject({
      storedAs: 'alpha.knowledge_component',
      publicationStatus: 'draft',
      alpha: {
        instructionalClassification: { knowledgeType: 'procedural' },
        provenance: { source_system: 'vendor', rowId: 7 },
      },
    });
    const refused = await graphql(
      platform,
      `
        mutation ($input: KnowledgeComponentInput!) {
          createKc(input: $input) {
            kcId
          }
        }
      `,
      { input: { storedAs: 'case.item', definition: 'x' } },
      caller.token,
    );
    expect(codeOf(refused)).toBe('curriculum:validation_failed');
    const stale = await graphql(
      platform,
      `
        mutation ($id: ID!, $k: String!) {
          publishKc(kcId: $id, ifMatch: "\\"stale\\"", idempotencyKey: $k) {
            kcId
          }
        }
      `,
      { id: kc.kcId, k: randomUUID() },
      caller.token,
    );
    expect(codeOf(stale)).toBe('curriculum:precondition_failed');
    const published = await graphql(
      platform,
      `
        mutation ($id: ID!, $tag: String!, $k: String!) {
          publishKc(kcId: $id, ifMatch: $tag, idempotencyKey: $k) {
            publicationStatus
            etag
            currentVersion {
              state
            }
          }
        }
      `,
      { id: kc.kcId, tag: kc.etag, k: randomUUID() },
      caller.token,
    );
    expect(published.body.data.publishKc).toMatchObject({
      publicationStatus: 'published',
      currentVersion: { state: 'draft' },
    });
    const appended = await graphql(
      platform,
      `
        mutation ($id: ID!, $k: String!) {
          appendKcVersion(kcId: $id, idempotencyKey: $k, input: { definition: "Sharper" }) {
            versionNumber
            state
          }
        }
      `,
      { id: kc.kcId, k: randomUUID() },
      caller.token,
    );
    expect(appended.body.data.appendKcVersion).toEqual({ versionNumber: 2, state: 'draft' });
    const read = await graphql(
      platform,
      `
        query ($id: ID!) {
          kc(kcId: $id) {
            etag
            definition
            versions {
              data {
                versionNumber
              }
            }
          }
        }
      `,
      { id: kc.kcId },
      caller.token,
    );
    expect(read.body.data.kc).toMatchObject({
      definition: 'Sharper',
      versions: { data: [{ versionNumber: 1 }, { versionNumber: 2 }] },
    });
    await createComponent(platform, caller, { component_id: 'u', kind: 'unit', alpha: { scope_kc_refs: [kc.kcId] } });
    const blocked = await graphql(
      platform,
      `
        mutation ($id: ID!, $tag: String!, $k: String!) {
          retireKc(kcId: $id, ifMatch: $tag, idempotencyKey: $k) {
            status
          }
        }
      `,
      { id: kc.kcId, tag: read.body.data.kc.etag, k: randomUUID() },
      caller.token,
    );
    expect(codeOf(blocked)).toBe('curriculum:kc_in_use');
  });

  it('reads and writes the instructional classification whole, every field beside knowledgeType as REST keeps it', async ({
    platform,
  }) => {
    const caller = await newTenant(platform);
    const classification = { knowledgeType: 'conceptual', taxonomy: 'bloom', level: 2 };
    const kc = await createKc(platform, caller, {
      alpha: { subject_id: 'math', instructional_classification: classification },
    });
    const read = await graphql(
      platform,
      'query ($id: ID!) { kc(kcId: $id) { alpha { instructionalClassification { knowledgeType otherFields } } } }',
      { id: kc.kc_id },
      caller.token,
    );
    expect(read.body).toEqual({
      data: {
        kc: {
          alpha: {
            instructionalClassification: { knowledgeType: 'conceptual', otherFields: { taxonomy: 'bloom', level: 2 } },
          },
        },
      },
    });
    const appended = await graphql(
      platform,
      `
        mutation ($id: ID!, $k: String!, $input: KnowledgeComponentVersionInput) {
          appendKcVersion(kcId: $id, idempotencyKey: $k, input: $input) {
            versionId
          }
        }
      `,
      {
        id: kc.kc_id,
        k: randomUUID(),
        input: {
          alpha: {
            subjectId: 'math',
            instructionalClassification: { knowledgeType: 'procedural', otherFields: { taxonomy: 'bloom', level: 3 } },
          },
        },
      },
      caller.token,
    );
    expect(appended.body.errors).toBeUndefined();
    const stored = await http(platform, 'GET', `${curriculumV1}/kcs/${kc.kc_id}`, { token: caller.token });
    expect(stored.body.alpha.instructional_classification).toEqual({
      knowledgeType: 'procedural',
      taxonomy: 'bloom',
      level: 3,
    });
  });

  it('reads and writes remediation entries whole, every field beside kc_ref as REST keeps it', async ({ platform }) => {
    const caller = await newTenant(platform);
    const kc = await createKc(platform, caller);
    await createComponent(platform, caller, {
      component_id: 'lesson',
      kind: 'lesson',
      alpha: { remediation_entries: [{ kc_ref: kc.kc_id, kind: 'never_learned', note_id: 'n-1' }] },
    });
    const read = await graphql(
      platform,
      '{ component(componentId: "lesson") { etag alpha { remediationEntries { kcRef otherFields } } } }',
      {},
      caller.token,
    );
    expect(read.body.data.component.alpha.remediationEntries).toEqual([
      { kcRef: kc.kc_id, otherFields: { kind: 'never_learned', note_id: 'n-1' } },
    ]);
    const entries = [{ kcRef: kc.kc_id, otherFields: { kind: 'forgot', reviewAfterDays: 3 } }, { kcRef: kc.kc_id }];
    const patched = await graphql(
      platform,
      `
        mutation ($tag: String!, $k: String!, $entries: [RemediationEntryInput!]) {
          updateComponent(
            componentId: "lesson"
            ifMatch: $tag
            idempotencyKey: $k
            input: { alpha: { remediationEntries: $entries } }
          ) {
            alpha {
              remediationEntries {
                kcRef
                otherFields
              }
            }
          }
        }
      `,
      { tag: read.body.data.component.etag, k: randomUUID(), entries },
      caller.token,
    );
    expect(patched.body.data.updateComponent.alpha.remediationEntries).toEqual([
      { kcRef: kc.kc_id, otherFields: { kind: 'forgot', reviewAfterDays: 3 } },
      { kcRef: kc.kc_id, otherFields: null },
    ]);
    const created = await graphql(
      platform,
      `
        mutation ($entries: [RemediationEntryInput!]) {
          createComponent(input: { componentId: "review", kind: "review", alpha: { remediationEntries: $entries } }) {
            componentId
          }
        }
      `,
      { entries },
      caller.token,
    );
    expect(created.body.errors).toBeUndefined();
    for (const componentId of ['lesson', 'review']) {
      const stored = await http(platform, 'GET', `${curriculumV1}/components/${componentId}`, { token: caller.token });
      expect(stored.body.alpha.remediation_entries).toEqual([
        { kc_ref: kc.kc_id, kind: 'forgot', reviewAfterDays: 3 },
        { kc_ref: kc.kc_id },
      ]);
    }
  });

  it('edits, reparents, repoints and retires components; associations; prerequisites and evidence', async ({
    platform,
  }) => {
    const caller = await newTenant(platform);
    await createComponent(platform, caller, { component_id: 'c', kind: 'course' });
    await createComponent(platform, caller, { component_id: 'u1', kind: 'unit', parent_component_id: 'c' });
    await createComponent(platform, caller, { component_id: 'u2', kind: 'unit', parent_component_id: 'c' });
    const lesson = await createComponent(platform, caller, {
      component_id: 'l',
      kind: 'lesson',
      parent_component_id: 'u1',
    });
    const stale = await graphql(
      platform,
      `
        mutation ($k: String!) {
          updateComponent(componentId: "l", ifMatch: "\\"x\\"", idempotencyKey: $k, input: { name: "N" }) {
            name
          }
        }
      `,
      { k: randomUUID() },
      caller.token,
    );
    expect(codeOf(stale)).toBe('curriculum:precondition_failed');
    const moved = await graphql(
      platform,
      `
        mutation ($tag: String!, $k: String!) {
          updateComponent(componentId: "l", ifMatch: $tag, idempotencyKey: $k, input: { parentComponentId: "u2" }) {
            parentComponentId
            etag
            parent {
              componentId
            }
          }
        }
      `,
      { tag: lesson.etag, k: randomUUID() },
      caller.token,
    );
    expect(moved.body.data.updateComponent).toMatchObject({ parentComponentId: 'u2', parent: { componentId: 'u2' } });
    const second = await graphql(
      platform,
      `
        mutation {
          createAssociation(input: { associationType: "isChildOf", originId: "l", destinationId: "u1" }) {
            associationId
          }
        }
      `,
      {},
      caller.token,
    );
    expect(codeOf(second)).toBe('curriculum:second_parent');
    const edges = await graphql(
      platform,
      `
        {
          associations(originId: "l") {
            data {
              associationId
              etag
              sequenceNumber
            }
          }
        }
      `,
      {},
      caller.token,
    );
    const [edge] = edges.body.data.associations.data;
    const reordered = await graphql(
      platform,
      `
        mutation ($id: ID!, $tag: String!, $k: String!) {
          reorderAssociation(associationId: $id, ifMatch: $tag, idempotencyKey: $k, sequenceNumber: 7) {
            sequenceNumber
          }
        }
      `,
      { id: edge.associationId, tag: edge.etag, k: randomUUID() },
      caller.token,
    );
    expect(reordered.body.data.reorderAssociation.sequenceNumber).toBe(7);
    const version = await eligibleVersion(platform, caller);
    const attach = await graphql(
      platform,
      `
        mutation ($k: String!, $input: RepointInput!) {
          repointComponent(componentId: "l", idempotencyKey: $k, input: $input) {
            operation
            targetRef {
              contentVersionId
              version {
                versionId
              }
            }
            component {
              version
            }
          }
        }
      `,
      {
        k: randomUUID(),
        input: {
          operation: 'attach',
          targetRef: { contentKind: 'article', contentId: version.contentId, contentVersionId: version.versionId },
        },
      },
      caller.token,
    );
    expect(attach.body.errors).toBeUndefined();
    expect(attach.body.data.repointComponent).toMatchObject({
      operation: 'attach',
      targetRef: { contentVersionId: version.versionId },
    });
    const stalePin = await graphql(
      platform,
      `
        mutation ($k: String!, $input: RepointInput!) {
          repointComponent(componentId: "l", idempotencyKey: $k, input: $input) {
            operation
          }
        }
      `,
      {
        k: randomUUID(),
        input: {
          operation: 'attach',
          targetRef: { contentKind: 'article', contentId: version.contentId, contentVersionId: version.versionId },
        },
      },
      caller.token,
    );
    expect(codeOf(stalePin)).toBe('curriculum:repoint_pin_stale');
    const current = await graphql(
      platform,
      `
        {
          component(componentId: "u1") {
            etag
          }
        }
      `,
      {},
      caller.token,
    );
    const retired = await graphql(
      platform,
      `
        mutation ($tag: String!, $k: String!) {
          retireComponent(componentId: "u1", ifMatch: $tag, idempotencyKey: $k) {
            status
          }
        }
      `,
      { tag: current.body.data.component.etag, k: randomUUID() },
      caller.token,
    );
    expect(retired.body.data.retireComponent.status).toBe('retired');

    const [a, b] = await Promise.all([createKc(platform, caller), createKc(platform, caller)]);
    const edgeMutation = `mutation($a: ID!, $b: ID!, $k: String!) { createKcPrerequisite(prerequisiteKcId: $a, dependentKcId: $b, idempotencyKey: $k) { prerequisiteKcId } }`;
    expect(
      (await graphql(platform, edgeMutation, { a: a.kc_id, b: b.kc_id, k: randomUUID() }, caller.token)).body.errors,
    ).toBeUndefined();
    expect(
      codeOf(await graphql(platform, edgeMutation, { a: b.kc_id, b: a.kc_id, k: randomUUID() }, caller.token)),
    ).toBe('curriculum:prerequisite_cycle');
    const review = await graphql(
      platform,
      `
        mutation ($v: ID!, $k: String!) {
          recordKcReviewDecision(kcVersionId: $v, decision: "approved", idempotencyKey: $k) {
            decision
            kcId
          }
        }
      `,
      { v: a.current_version_id, k: randomUUID() },
      caller.token,
    );
    expect(review.body.data.recordKcReviewDecision).toEqual({ decision: 'approved', kcId: a.kc_id });
    const firmingMutation = `mutation($v: ID!, $s: String!, $k: String!) { recordKcFirmingEvent(kcVersionId: $v, source: $s, evidence: { responseId: "r-1" }, idempotencyKey: $k) { source evidence } }`;
    expect(
      codeOf(
        await graphql(
          platform,
          firmingMutation,
          { v: a.current_version_id, s: 'course_approval', k: randomUUID() },
          caller.token,
        ),
      ),
    ).toBe('curriculum:firming_source_refused');
    const firmed = await graphql(
      platform,
      firmingMutation,
      { v: a.current_version_id, s: 'first_genuine_response', k: randomUUID() },
      caller.token,
    );
    expect(firmed.body.data.recordKcFirmingEvent).toEqual({
      source: 'first_genuine_response',
      evidence: { responseId: 'r-1' },
    });
    const history = await graphql(
      platform,
      `
        query ($v: ID) {
          kcReviewDecisions(kcVersionId: $v) {
            data {
              decisionId
              kcId
              kcVersionId
              decision
              reviewerRef
              createdAt
            }
            nextCursor
          }
          kcFirmingEvents(kcVersionId: $v) {
            data {
              firmingEventId
              kcVersionId
              source
              evidence
              recordedBy
            }
            nextCursor
          }
          others: kcReviewDecisions(kcVersionId: "00000000-0000-4000-8000-000000000000") {
            data {
              decisionId
            }
          }
        }
      `,
      { v: a.current_version_id },
      caller.token,
    );
    expect(history.body.errors).toBeUndefined();
    const rest = (path: string) =>
      http(platform, 'GET', `${curriculumV1}/${path}?kc_version_id=${a.current_version_id}`, { token: caller.token });
    const [decisions, firmings] = [(await rest('kc-review-decisions')).body, (await rest('kc-firming-events')).body];
    expect(history.body.data.kcReviewDecisions.data).toEqual(
      decisions.data.map((row: Record<string, string>) => ({
        decisionId: row.decision_id,
        kcId: row.kc_id,
        kcVersionId: row.kc_version_id,
        decision: row.decision,
        reviewerRef: row.reviewer_ref,
        createdAt: row.created_at,
      })),
    );
    expect(history.body.data.kcReviewDecisions.data).toHaveLength(1);
    expect(history.body.data.kcFirmingEvents.data).toEqual([
      {
        firmingEventId: firmings.data[0].firming_event_id,
        kcVersionId: a.current_version_id,
        source: 'first_genuine_response',
        evidence: { responseId: 'r-1' },
        recordedBy: firmings.data[0].recorded_by,
      },
    ]);
    expect(history.body.data.others.data).toEqual([]);
    const refused = await graphql(
      platform,
      '{ kcFirmingEvents(kcVersionId: "not-a-uuid") { nextCursor } }',
      {},
      caller.token,
    );
    expect(codeOf(refused)).toBe('curriculum:validation_failed');
  });

  it("an unquoted ifMatch is refused naming ifMatch and the etag's quotes, not only the REST header (a GraphQL client sent none)", async ({
    platform,
  }) => {
    const caller = await newTenant(platform);
    const lesson = await createComponent(platform, caller, { component_id: 'l', kind: 'lesson' });
    const unquoted = await graphql(
      platform,
      `
        mutation ($tag: String!, $k: String!) {
          updateComponent(componentId: "l", ifMatch: $tag, idempotencyKey: $k, input: { name: "N" }) {
            name
          }
        }
      `,
      { tag: (lesson.etag as string).replaceAll('"', ''), k: randomUUID() },
      caller.token,
    );
    expect(codeOf(unquoted)).toBe('curriculum:if_match_malformed');
    expect(unquoted.body.errors[0].message).toContain('ifMatch');
    expect(unquoted.body.errors[0].message).toContain('quotes included');
  });

  it('creates a component once under an idempotencyKey, and refuses another input under it', async ({ platform }) => {
    const caller = await newTenant(platform);
    const create = (componentId: string, idempotencyKey: string) =>
      graphql(
        platform,
        `
          mutation ($input: ComponentInput!, $key: String) {
            createComponent(input: $input, idempotencyKey: $key) {
              componentId
              version
              etag
            }
          }
        `,
        { input: { componentId, kind: 'course' }, key: idempotencyKey },
        caller.token,
      );
    const idempotencyKey = randomUUID();
    const first = await create('course-a', idempotencyKey);
    expect(first.body.errors).toBeUndefined();
    const replay = await create('course-a', idempotencyKey);
    expect(replay.body).toEqual(first.body);
    expect(codeOf(await create('course-b', idempotencyKey))).toBe('curriculum:idempotency_conflict');
    const missing = await graphql(platform, '{ component(componentId: "course-b") { componentId } }', {}, caller.token);
    expect(missing.body.data.component).toBeNull();
  });

  it('needs a token with the write scope', async ({ platform }) => {
    const caller = await newTenant(platform, { scopes: ['curriculum:read'] });
    const reply = await graphql(
      platform,
      `
        mutation {
          createKc(input: { storedAs: "alpha.knowledge_component", definition: "d" }) {
            kcId
          }
        }
      `,
      {},
      caller.token,
    );
    expect(codeOf(reply)).toBe('curriculum:forbidden');
    const anonymous = await graphql(
      platform,
      `
        {
          kcs {
            data {
              kcId
            }
          }
        }
      `,
    );
    expect(codeOf(anonymous)).toBe('curriculum:unauthenticated');
  });
});
