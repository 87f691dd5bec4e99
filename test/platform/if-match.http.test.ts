import { randomUUID } from 'node:crypto';
import { describe, expect } from 'vitest';
import { curriculumV1, graphql, http, newTenant, tenantRoot } from '../kit.ts';
import { platformTest } from '../platform-test.ts';
import { createItem } from '../content/helpers.ts';
import { createComponent, createKc, key } from '../curriculum/helpers.ts';
import { post, producer, viewed } from '../events/helpers.ts';

const it = platformTest();

const MALFORMED = ['abc', '"abc', 'W/abc', '"a" "b"', '*, "a"'];

describe('a malformed If-Match', () => {
  it('is 400 if_match_malformed naming its header on every route that takes one, changing nothing', async ({
    platform,
  }) => {
    const caller = await newTenant(platform);
    const item = await createItem(platform, caller, { content_kind: 'article' });
    const kc = await createKc(platform, caller);
    await createComponent(platform, caller, { component_id: 'course', kind: 'course' });
    await createComponent(platform, caller, { component_id: 'unit', kind: 'unit', parent_component_id: 'course' });
    const [edge] = (await http(platform, 'GET', `${curriculumV1}/associations?originId=unit`, { token: caller.token }))
      .body.data;
    const writes: Array<[string, string, string, Record<string, unknown> | undefined, string, string]> = [
      [
        'PATCH',
        `${tenantRoot(caller.tenantId)}/items/${item.content_id}`,
        'if-match',
        { title: 'x' },
        'content.',
        'If-Match',
      ],
      [
        'PATCH',
        `${curriculumV1}/kcs/${kc.kc_id}`,
        'if-match',
        { publication_status: 'published' },
        'curriculum:',
        'If-Match',
      ],
      ['DELETE', `${curriculumV1}/kcs/${kc.kc_id}`, 'if-match', undefined, 'curriculum:', 'If-Match'],
      [
        'PATCH',
        `${curriculumV1}/components/unit`,
        'x-curriculum-if-match',
        { name: 'N' },
        'curriculum:',
        'X-Curriculum-If-Match',
      ],
      [
        'DELETE',
        `${curriculumV1}/components/unit`,
        'x-curriculum-if-match',
        undefined,
        'curriculum:',
        'X-Curriculum-If-Match',
      ],
      [
        'PATCH',
        `${curriculumV1}/associations/${edge.association_id}`,
        'x-curriculum-if-match',
        { sequence_number: 3 },
        'curriculum:',
        'X-Curriculum-If-Match',
      ],
    ];
    for (const [method, url, header, body, prefix, field] of writes) {
      const before = await http(platform, 'GET', url, { token: caller.token });
      for (const value of MALFORMED) {
        const refused = await http(platform, method, url, {
          token: caller.token,
          headers: { ...key(), [header]: value },
          body,
        });
        expect(
          [refused.status, refused.body.code, refused.body.fieldErrors?.[0]?.field],
          `${method} ${url} ${value}`,
        ).toEqual([400, `${prefix}if_match_malformed`, field]);
      }
      expect((await http(platform, 'GET', url, { token: caller.token })).body, url).toEqual(before.body);
    }
  });

  it('is the same refusal through GraphQL ifMatch, which goes through the same rule', async ({ platform }) => {
    const caller = await newTenant(platform);
    const item = await createItem(platform, caller, { content_kind: 'article' });
    await createComponent(platform, caller, { component_id: 'l', kind: 'lesson' });
    const content = await graphql(
      platform,
      'mutation ($id: ID!) { patchContentItem(contentId: $id, ifMatch: "abc", input: { title: "x" }) { contentId } }',
      { id: item.content_id },
      caller.token,
    );
    expect(content.body.errors[0].extensions.code).toBe('content.if_match_malformed');
    const curriculum = await graphql(
      platform,
      'mutation ($k: String!) { updateComponent(componentId: "l", ifMatch: "abc", idempotencyKey: $k, input: { name: "N" }) { name } }',
      { k: randomUUID() },
      caller.token,
    );
    expect(curriculum.body.errors[0].extensions.code).toBe('curriculum:if_match_malformed');
  });

  it('stays 412 on an event write, as the events document says of any precondition there', async ({ platform }) => {
    const source = await producer(platform);
    const refused = await post(platform, source, [viewed(source.sourceId)], { 'if-match': 'abc' });
    expect([refused.status, refused.body.code]).toEqual([412, 'events:precondition_failed']);
  });
});
