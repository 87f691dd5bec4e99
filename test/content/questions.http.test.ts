import { randomUUID } from 'node:crypto';
import { describe, expect } from 'vitest';
import { graphql, http, newTenant, sameTenant, tenantRoot } from '../kit.ts';
import { platformTest } from '../platform-test.ts';
import { QTI3_ITEM, appendVersion, createItem, expectUnchanged } from './helpers.ts';

const it = platformTest();

const QTI2_ITEM = `<assessmentItem identifier="q2" title="Two"><responseDeclaration identifier="RESPONSE" cardinality="multiple" baseType="identifier">
<correctResponse><value>X</value><value>Y</value></correctResponse></responseDeclaration>
<itemBody><choiceInteraction responseIdentifier="RESPONSE" maxChoices="2"><simpleChoice identifier="X">x</simpleChoice><simpleChoice identifier="Y">y</simpleChoice><simpleChoice identifier="Z">z</simpleChoice></choiceInteraction></itemBody>
<responseProcessing template="http://www.imsglobal.org/question/qti_v2p1/rptemplates/match_correct"/></assessmentItem>`;

describe('canonical_xml on question versions', () => {
  it('projects answer slots, keys, components and the scoring plan of that exact version', async ({ platform }) => {
    const caller = await newTenant(platform);
    const root = tenantRoot(caller.tenantId);
    const question = await createItem(platform, caller, { content_kind: 'question' });
    const v2 = await appendVersion(platform, caller, question.content_id, {
      canonical_xml: QTI3_ITEM,
      student_view: { blocks: [{ type: 'probe', text: 'Which is one half?', order: 0 }] },
    });
    const slots = await http(platform, 'GET', `${root}/items/${question.content_id}/answer-slots`, {
      token: caller.token,
    });
    expect(slots.status).toBe(200);
    expect(slots.body.data).toMatchObject([
      {
        response_identifier: 'RESPONSE',
        interaction_type: 'choice',
        qti_cardinality: 'single',
        qti_base_type: 'identifier',
        choices: [
          { identifier: 'A', text: '1/3' },
          { identifier: 'B', text: '1/2' },
          { identifier: 'C', text: '2/3' },
        ],
      },
      { response_identifier: 'R2', interaction_type: 'text_entry', qti_base_type: 'string', choices: [] },
    ]);
    expect(slots.body.data[0]).not.toHaveProperty('correct_response');
    const keys = await http(platform, 'GET', `${root}/items/${question.content_id}/answer-keys`, {
      token: caller.token,
    });
    expect(keys.body.data.map((key: any) => [key.response_identifier, key.correct_response])).toEqual([
      ['RESPONSE', { values: ['B'] }],
      ['R2', { values: ['0.5'] }],
    ]);
    const components = await http(platform, 'GET', `${root}/items/${question.content_id}/assessment-components`, {
      token: caller.token,
    });
    expect(components.body.data.map((c: any) => [c.component_role, c.identifier])).toEqual([
      ['question', 'q-fractions'],
      ['distractor', 'A'],
      ['distractor', 'C'],
      ['rubric', 'rb1'],
      ['preauthored_feedback', 'fb1'],
    ]);
    const distractors = await http(
      platform,
      'GET',
      `${root}/items/${question.content_id}/assessment-components?component_role=distractor`,
      { token: caller.token },
    );
    expect(distractors.body.data.map((c: any) => c.identifier)).toEqual(['A', 'C']);
    const scoring = await http(platform, 'GET', `${root}/items/${question.content_id}/scoring-plan`, {
      token: caller.token,
    });
    expect(
      scoring.body.data.map((p: any) => [p.scoring_rule_scope, p.identifier, p.qti_cardinality, p.qti_base_type]),
    ).toEqual([
      ['response', 'RESPONSE', 'single', 'identifier'],
      ['response', 'R2', 'single', 'string'],
      ['outcome', 'SCORE', 'single', 'float'],
      ['template', 'response_processing', null, null],
    ]);
    // A newer version regenerates its own projections; the exact older one keeps its own.
    const v3 = await appendVersion(platform, caller, question.content_id, { canonical_xml: QTI2_ITEM });
    const newest = await http(platform, 'GET', `${root}/items/${question.content_id}/answer-keys`, {
      token: caller.token,
    });
    expect(newest.body.data).toMatchObject([
      {
        version_id: v3.version_id,
        response_identifier: 'RESPONSE',
        correct_response: { values: ['X', 'Y'] },
        qti_cardinality: 'multiple',
      },
    ]);
    const older = await http(
      platform,
      'GET',
      `${root}/items/${question.content_id}/answer-keys?version_id=${v2.version_id}`,
      { token: caller.token },
    );
    expect(older.body.data).toHaveLength(2);
  });

  it('refuses malformed XML, unknown roots, undeclared interactions, bad cardinalities and XML on other kinds, leaving nothing', async ({
    platform,
  }) => {
    const caller = await newTenant(platform);
    const root = tenantRoot(caller.tenantId);
    const question = await createItem(platform, caller, { content_kind: 'question' });
    const article = await createItem(platform, caller, { content_kind: 'article' });
    const bad = [
      '<qti-assessment-item identifier="x"><qti-item-body>',
      '<html><body/></html>',
      QTI3_ITEM.replace('response-identifier="R2"', 'response-identifier="R9"'),
      QTI3_ITEM.replace('cardinality="single" base-type="identifier"', 'cardinality="several" base-type="identifier"'),
      QTI3_ITEM.replace('<qti-value>B</qti-value>', '<qti-value>Q</qti-value>'),
      '<!DOCTYPE x [<!ENTITY a "b">]><qti-assessment-item identifier="x"/>',
    ];
    for (const xml of bad) {
      await expectUnchanged(platform, caller, `/items/${question.content_id}/versions`, async () => {
        const refused = await http(platform, 'POST', `${root}/items/${question.content_id}/versions`, {
          token: caller.token,
          body: { canonical_xml: xml },
        });
        expect([refused.status, refused.body.code], xml.slice(0, 60)).toEqual([400, 'content.validation_failed']);
      });
    }
    await expectUnchanged(platform, caller, `/items/${article.content_id}/versions`, async () => {
      const refused = await http(platform, 'POST', `${root}/items/${article.content_id}/versions`, {
        token: caller.token,
        body: { canonical_xml: QTI3_ITEM },
      });
      expect(refused.status).toBe(400);
    });
    const slots = await http(platform, 'GET', `${root}/items/${question.content_id}/answer-slots`, {
      token: caller.token,
    });
    expect(slots.body.data).toEqual([]);
  });
});

describe('GET {tenant_root}/items/{contentId}/student-view', () => {
  it('serves the newest version by default, an exact version_id on request, and keys only with both the flag and the scope', async ({
    platform,
  }) => {
    const caller = await newTenant(platform);
    const root = tenantRoot(caller.tenantId);
    const question = await createItem(platform, caller, { content_kind: 'question' });
    const v2 = await appendVersion(platform, caller, question.content_id, {
      canonical_xml: QTI3_ITEM,
      student_view: {
        blocks: [
          { type: 'text', text: 'second', order: 1 },
          { type: 'heading', text: 'first', order: 0 },
        ],
      },
    });
    const v3 = await appendVersion(platform, caller, question.content_id, {
      canonical_xml: QTI2_ITEM,
      student_view: { blocks: [{ type: 'text', text: 'newest', order: 0 }] },
    });
    const newest = await http(platform, 'GET', `${root}/items/${question.content_id}/student-view`, {
      token: caller.token,
    });
    expect(newest.status).toBe(200);
    expect(newest.body).toMatchObject({
      version_id: v3.version_id,
      version_number: 3,
      blocks: [{ text: 'newest' }],
      answer_keys_included: false,
    });
    expect(newest.body.answer_slots[0]).not.toHaveProperty('correct_response');
    const exact = await http(
      platform,
      'GET',
      `${root}/items/${question.content_id}/student-view?version_id=${v2.version_id}`,
      { token: caller.token },
    );
    expect(exact.body.blocks.map((b: any) => b.text)).toEqual(['first', 'second']);
    const withKeys = await http(
      platform,
      'GET',
      `${root}/items/${question.content_id}/student-view?includeAnswerKeys=true`,
      { token: caller.token },
    );
    expect(withKeys.body.answer_slots[0].correct_response).toEqual({ values: ['X', 'Y'] });
    const reader = await sameTenant(platform, caller, { scopes: ['read:content'] });
    const noKeyScope = await http(
      platform,
      'GET',
      `${root}/items/${question.content_id}/student-view?includeAnswerKeys=true`,
      { token: reader.token },
    );
    expect([noKeyScope.status, noKeyScope.body.code]).toEqual([403, 'content.forbidden']);
    const readerView = await http(platform, 'GET', `${root}/items/${question.content_id}/student-view`, {
      token: reader.token,
    });
    expect(readerView.status).toBe(200);
    expect(JSON.stringify(readerView.body)).not.toContain('correct_response');
    const readerKeys = await http(platform, 'GET', `${root}/items/${question.content_id}/answer-keys`, {
      token: reader.token,
    });
    expect([readerKeys.status, readerKeys.body.code]).toEqual([403, 'content.forbidden']);
    const readerSlots = await http(
      platform,
      'GET',
      `${root}/items/${question.content_id}/answer-slots?includeAnswerKeys=true`,
      { token: reader.token },
    );
    expect(readerSlots.status).toBe(403);
    const readerComponents = await http(
      platform,
      'GET',
      `${root}/items/${question.content_id}/assessment-components?component_role=distractor`,
      { token: reader.token },
    );
    expect(readerComponents.body.data.every((c: any) => c.text === null)).toBe(true);
  });

  it('answers 404 for unknown items, foreign versions and other tenants, 400 for bad queries and 403 without read:content', async ({
    platform,
  }) => {
    const caller = await newTenant(platform);
    const root = tenantRoot(caller.tenantId);
    const a = await createItem(platform, caller, { content_kind: 'article' });
    const b = await createItem(platform, caller, { content_kind: 'article' });
    for (const path of ['student-view', 'answer-slots', 'answer-keys', 'assessment-components', 'scoring-plan']) {
      const unknown = await http(platform, 'GET', `${root}/items/${randomUUID()}/${path}`, { token: caller.token });
      expect([unknown.status, unknown.body.code], path).toEqual([404, 'content.not_found']);
      const foreign = await http(
        platform,
        'GET',
        `${root}/items/${a.content_id}/${path}?version_id=${b.latest_version_id}`,
        { token: caller.token },
      );
      expect(foreign.status, path).toBe(404);
      const badVersion = await http(platform, 'GET', `${root}/items/${a.content_id}/${path}?version_id=nope`, {
        token: caller.token,
      });
      expect(badVersion.status, path).toBe(400);
      const stranger = await newTenant(platform);
      expect(
        (
          await http(platform, 'GET', `${tenantRoot(stranger.tenantId)}/items/${a.content_id}/${path}`, {
            token: stranger.token,
          })
        ).status,
      ).toBe(404);
      const noScope = await sameTenant(platform, caller, { scopes: [] });
      expect(
        (await http(platform, 'GET', `${root}/items/${a.content_id}/${path}`, { token: noScope.token })).status,
        path,
      ).toBe(403);
    }
    const badRole = await http(
      platform,
      'GET',
      `${root}/items/${a.content_id}/assessment-components?component_role=chapter`,
      { token: caller.token },
    );
    expect(badRole.status).toBe(400);
  });
});

describe('canonical_xml and answer-key access', () => {
  it('serves the stored bytes to answer-key readers and authors, and the item without its answer elements to other readers, on REST and GraphQL', async ({
    platform,
  }) => {
    const author = await newTenant(platform);
    const root = tenantRoot(author.tenantId);
    const question = await createItem(platform, author, { content_kind: 'question' });
    const version = await appendVersion(platform, author, question.content_id, { canonical_xml: QTI2_ITEM });
    const path = `${root}/items/${question.content_id}/versions`;
    const byVersion = `query($id: ID!) { contentVersion(versionId: $id) { canonicalXml } }`;
    const readsOf = async (token: string) => {
      const one = await http(platform, 'GET', `${path}/${version.version_id}`, { token });
      const page = await http(platform, 'GET', path, { token });
      const graph = await graphql(platform, byVersion, { id: version.version_id }, token);
      expect([one.status, page.status, graph.body.errors]).toEqual([200, 200, undefined]);
      return [
        one.body.canonical_xml,
        page.body.data.find((row: any) => row.version_id === version.version_id).canonical_xml,
        graph.body.data.contentVersion.canonicalXml,
      ];
    };
    const keyReader = await sameTenant(platform, author, { scopes: ['read:content', 'read:answer_key'] });
    const writer = await sameTenant(platform, author, { scopes: ['read:content', 'author:content'] });
    for (const caller of [author, keyReader, writer])
      expect(await readsOf(caller.token)).toEqual(Array(3).fill(QTI2_ITEM));

    const reader = await sameTenant(platform, author, { scopes: ['read:content'] });
    const withoutKeys = QTI2_ITEM.replace(
      '<correctResponse><value>X</value><value>Y</value></correctResponse>',
      '',
    ).replace(
      '<responseProcessing template="http://www.imsglobal.org/question/qti_v2p1/rptemplates/match_correct"/>',
      '',
    );
    expect(withoutKeys).not.toMatch(/correctResponse|responseProcessing/);
    expect(await readsOf(reader.token)).toEqual(Array(3).fill(withoutKeys));
  });
});

const RUBRIC_READS = `query($id: ID!, $v: ID!) { contentVersion(versionId: $v) { canonicalXml }
  contentItem(contentId: $id) { assessmentComponents(componentRole: "rubric") { identifier text } } }`;

describe('rubric blocks and answer-key access', () => {
  it("serves a scorer's rubric only to answer-key readers and authors: cut from canonical_xml, its component text null; a candidate's stays", async ({
    platform,
  }) => {
    const author = await newTenant(platform);
    const root = tenantRoot(author.tenantId);
    const question = await createItem(platform, author, { content_kind: 'question' });
    const scorers =
      '<qti:qti-rubric-block identifier="rb-s" view="scorer tutor"><p>Full credit for B.</p></qti:qti-rubric-block>';
    const xml = QTI3_ITEM.replace(/<(\/?)qti-/g, '<$1qti:qti-')
      .replace('xmlns=', 'xmlns:qti=')
      .replace(
        /<qti:qti-rubric-block[\s\S]*<\/qti:qti-rubric-block>/,
        `${scorers}
    <qti:qti-rubric-block identifier="rb-c" view="candidate"><p>Show your work.</p></qti:qti-rubric-block>`,
      );
    const version = await appendVersion(platform, author, question.content_id, { canonical_xml: xml });
    const reads = async (token: string) => {
      const one = await http(platform, 'GET', `${root}/items/${question.content_id}/versions/${version.version_id}`, {
        token,
      });
      const components = await http(platform, 'GET', `${root}/items/${question.content_id}/assessment-components`, {
        token,
      });
      const graph = await graphql(platform, RUBRIC_READS, { id: question.content_id, v: version.version_id }, token);
      expect([one.status, components.status, graph.body.errors]).toEqual([200, 200, undefined]);
      const rubrics = components.body.data
        .filter((component: any) => component.component_role === 'rubric')
        .map((component: any) => ({ identifier: component.identifier, text: component.text }));
      expect(graph.body.data.contentItem.assessmentComponents).toEqual(rubrics);
      expect(graph.body.data.contentVersion.canonicalXml).toBe(one.body.canonical_xml);
      return { xml: one.body.canonical_xml, rubrics };
    };
    const keyReader = await sameTenant(platform, author, { scopes: ['read:content', 'read:answer_key'] });
    for (const caller of [author, keyReader])
      expect(await reads(caller.token)).toEqual({
        xml,
        rubrics: [
          { identifier: 'rb-s', text: 'Full credit for B.' },
          { identifier: 'rb-c', text: 'Show your work.' },
        ],
      });
    const reader = await sameTenant(platform, author, { scopes: ['read:content'] });
    const { xml: served, rubrics } = await reads(reader.token);
    expect(served).not.toMatch(/Full credit|correct-response|response-processing/);
    expect(served).toBe(
      xml
        .replace(scorers, '')
        .replace(/<qti:qti-correct-response>.*?<\/qti:qti-correct-response>/g, '')
        .replace(/<qti:qti-response-processing [^>]*\/>/, ''),
    );
    expect(rubrics).toEqual([
      { identifier: 'rb-s', text: null },
      { identifier: 'rb-c', text: 'Show your work.' },
    ]);
  });
});

describe('hostile canonical_xml', () => {
  it('answers 400, never 5xx, for pathological nesting', async ({ platform }) => {
    const caller = await newTenant(platform);
    const question = await createItem(platform, caller, { content_kind: 'question' });
    const deep = `<qti-assessment-item identifier="x"><qti-item-body>${'<div>'.repeat(20000)}${'</div>'.repeat(20000)}</qti-item-body></qti-assessment-item>`;
    const refused = await http(
      platform,
      'POST',
      `${tenantRoot(caller.tenantId)}/items/${question.content_id}/versions`,
      { token: caller.token, body: { canonical_xml: deep } },
    );
    expect([refused.status, refused.body.code]).toEqual([400, 'content.validation_failed']);
  });
});
