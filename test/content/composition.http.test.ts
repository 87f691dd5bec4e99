import { randomUUID } from 'node:crypto';
import { describe, expect } from 'vitest';
import { http, newTenant, sameTenant, tenantRoot } from '../kit.ts';
import { platformTest } from '../platform-test.ts';
import { QTI3_ITEM, appendVersion, createItem, expectUnchanged } from './helpers.ts';

const it = platformTest();

describe('interactive composition (rule 9)', () => {
  it('replaces ordered video cues and article segments that resolve to questions and components', async ({
    platform,
  }) => {
    const caller = await newTenant(platform);
    const root = tenantRoot(caller.tenantId);
    const question = await createItem(platform, caller, { content_kind: 'question' });
    const version = await appendVersion(platform, caller, question.content_id, { canonical_xml: QTI3_ITEM });
    const components = await http(
      platform,
      'GET',
      `${root}/items/${question.content_id}/assessment-components?component_role=question`,
      { token: caller.token },
    );
    const componentId = components.body.data[0].component_id;
    const interactive = await createItem(platform, caller, { content_kind: 'interactive' });
    const url = `${root}/items/${interactive.content_id}/interactive-composition`;
    expect((await http(platform, 'GET', url, { token: caller.token })).status).toBe(404);
    const video = {
      type: 'interactive_video',
      duration_seconds: 120,
      bindings: [
        { at_seconds: 10.5, question_ref: { content_id: question.content_id }, tests_prior_content: true },
        {
          at_seconds: 60,
          question_ref: {
            content_id: question.content_id,
            version_id: version.version_id,
            assessment_component_id: componentId,
          },
          tests_prior_content: true,
        },
      ],
    };
    const put = await http(platform, 'PUT', url, { token: caller.token, body: video });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ ...video, revision: 1 });
    const article = {
      type: 'interactive_article',
      bindings: [
        { segment: 1, question_ref: { content_id: question.content_id }, tests_prior_content: true },
        { segment: 3, question_ref: { content_id: question.content_id }, tests_prior_content: true },
        // Two questions may share one segment: segments are ordered, not strictly increasing like cues.
        { segment: 3, question_ref: { content_id: question.content_id }, tests_prior_content: true },
      ],
    };
    const replaced = await http(platform, 'PUT', url, { token: caller.token, body: article });
    expect(replaced.body).toMatchObject({ ...article, revision: 2 });
    expect((await http(platform, 'GET', url, { token: caller.token })).body).toEqual(replaced.body);
  });

  it('refuses every breach with field errors and keeps the previous composition', async ({ platform }) => {
    const caller = await newTenant(platform);
    const root = tenantRoot(caller.tenantId);
    const question = await createItem(platform, caller, { content_kind: 'question' });
    const other = await createItem(platform, caller, { content_kind: 'question' });
    await appendVersion(platform, caller, other.content_id, { canonical_xml: QTI3_ITEM });
    const otherComponent = (
      await http(platform, 'GET', `${root}/items/${other.content_id}/assessment-components`, { token: caller.token })
    ).body.data[0].component_id;
    const article = await createItem(platform, caller, { content_kind: 'article' });
    const interactive = await createItem(platform, caller, { content_kind: 'interactive' });
    const url = `${root}/items/${interactive.content_id}/interactive-composition`;
    const ref = { content_id: question.content_id };
    expect(
      (
        await http(platform, 'PUT', url, {
          token: caller.token,
          body: {
            type: 'interactive_article',
            bindings: [{ segment: 1, question_ref: ref, tests_prior_content: true }],
          },
        })
      ).status,
    ).toBe(200);
    const cue = (at: number, extra: Record<string, unknown> = {}) => ({
      at_seconds: at,
      question_ref: ref,
      tests_prior_content: true,
      ...extra,
    });
    const seg = (segment: number, extra: Record<string, unknown> = {}) => ({
      segment,
      question_ref: ref,
      tests_prior_content: true,
      ...extra,
    });
    const bad: Array<[string, unknown]> = [
      ['cue at 0', { type: 'interactive_video', duration_seconds: 60, bindings: [cue(0)] }],
      ['cue at duration', { type: 'interactive_video', duration_seconds: 60, bindings: [cue(60)] }],
      ['cues not increasing', { type: 'interactive_video', duration_seconds: 60, bindings: [cue(10), cue(10)] }],
      ['video without duration', { type: 'interactive_video', bindings: [cue(10)] }],
      ['segment zero', { type: 'interactive_article', bindings: [seg(0)] }],
      ['segments out of order', { type: 'interactive_article', bindings: [seg(2), seg(1)] }],
      ['a segment after a shared one goes back', { type: 'interactive_article', bindings: [seg(2), seg(2), seg(1)] }],
      ['fractional segment', { type: 'interactive_article', bindings: [seg(1.5)] }],
      ['not prior content', { type: 'interactive_article', bindings: [seg(1, { tests_prior_content: false })] }],
      [
        'ref to an article',
        { type: 'interactive_article', bindings: [seg(1, { question_ref: { content_id: article.content_id } })] },
      ],
      [
        'ref to nothing',
        { type: 'interactive_article', bindings: [seg(1, { question_ref: { content_id: randomUUID() } })] },
      ],
      [
        'component of another question',
        {
          type: 'interactive_article',
          bindings: [
            seg(1, { question_ref: { content_id: question.content_id, assessment_component_id: otherComponent } }),
          ],
        },
      ],
      [
        'version of another item',
        {
          type: 'interactive_article',
          bindings: [
            seg(1, { question_ref: { content_id: question.content_id, version_id: other.latest_version_id } }),
          ],
        },
      ],
      ['unknown type', { type: 'interactive_game', bindings: [] }],
    ];
    for (const [name, body] of bad) {
      await expectUnchanged(platform, caller, `/items/${interactive.content_id}/interactive-composition`, async () => {
        const refused = await http(platform, 'PUT', url, { token: caller.token, body });
        expect([refused.status, refused.body.code], name).toEqual([400, 'content.validation_failed']);
      });
    }
    const onArticle = await http(platform, 'PUT', `${root}/items/${article.content_id}/interactive-composition`, {
      token: caller.token,
      body: { type: 'interactive_article', bindings: [] },
    });
    expect(onArticle.status).toBe(400);
    const reader = await sameTenant(platform, caller, { scopes: ['read:content'] });
    expect(
      (await http(platform, 'PUT', url, { token: reader.token, body: { type: 'interactive_article', bindings: [] } }))
        .status,
    ).toBe(403);
    expect(
      (
        await http(platform, 'PUT', `${root}/items/${randomUUID()}/interactive-composition`, {
          token: caller.token,
          body: { type: 'interactive_article', bindings: [] },
        })
      ).status,
    ).toBe(404);
  });
});
