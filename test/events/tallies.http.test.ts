import { describe, expect } from 'vitest';
import { http, newTenant } from '../kit.ts';
import { platformTest } from '../platform-test.ts';
import { post, producer, root, viewed } from './helpers.ts';
import { PLAYER_EXTENSION_NAMESPACE } from '../../subgraphs/events/vocabulary.ts';

const it = platformTest();

const rendered = (versionId: string) => ({ [`${PLAYER_EXTENSION_NAMESPACE}/rendered_content_id`]: versionId });

describe('GET /event-tallies', () => {
  it('counts the events of one content item or one exact version per kind, within the boundary', async ({
    platform,
  }) => {
    const caller = await producer(platform);
    const at = (day: number) => `2026-09-0${day}T10:00:00Z`;
    const accepted = await post(platform, caller, [
      viewed(caller.sourceId, { contentId: 'c-1', studentId: 'a', happenedAt: at(1), extensions: rendered('v-1') }),
      viewed(caller.sourceId, { contentId: 'c-1', studentId: 'b', happenedAt: at(3), extensions: rendered('v-1') }),
      viewed(caller.sourceId, { contentId: 'c-1', studentId: 'a', happenedAt: at(4), extensions: rendered('v-2') }),
      viewed(caller.sourceId, { contentId: 'c-1', studentId: 'a', kind: 'question_answered', happenedAt: at(2) }),
      viewed(caller.sourceId, { contentId: 'c-2', studentId: 'a', happenedAt: at(5), extensions: rendered('v-1') }),
    ]);
    expect(accepted.status).toBe(202);
    const tally = (query: string, token = caller.token) =>
      http(platform, 'GET', `${root}/event-tallies?${query}`, { token });
    const version = await tally('contentId=c-1&renderedContentId=v-1');
    expect(version.body).toEqual({
      contentId: 'c-1',
      renderedContentId: 'v-1',
      data: [
        {
          kind: 'content_viewed',
          eventCount: 2,
          firstHappenedAt: '2026-09-01T10:00:00.000Z',
          lastHappenedAt: '2026-09-03T10:00:00.000Z',
          lastModifiedAt: accepted.body.data[0].modifiedAt,
        },
      ],
    });
    const item = await tally('contentId=c-1');
    expect(item.body.data.map((row: { kind: string; eventCount: number }) => [row.kind, row.eventCount])).toEqual([
      ['content_viewed', 3],
      ['question_answered', 1],
    ]);
    expect((await tally('contentId=c-1&kind=question_answered')).body.data).toHaveLength(1);
    // Several kinds as GET /events takes them (the list was read as one kind named with a comma: no rows).
    const kinds = await tally('contentId=c-1&kind=question_answered,content_viewed');
    expect(kinds.body.data.map((row: { kind: string }) => row.kind)).toEqual(['content_viewed', 'question_answered']);
    expect((await tally('contentId=c-1&kind=content_viewed,')).status).toBe(400);
    expect((await tally('contentId=c-9')).body.data).toEqual([]);
    expect((await tally('renderedContentId=v-1')).status).toBe(400);
    const student = await newTenant(platform, {
      tenantId: caller.tenantId,
      scopes: ['events:read'],
      boundary: { studentIds: ['b'] },
    });
    expect((await tally('contentId=c-1', student.token)).body.data).toMatchObject([
      { kind: 'content_viewed', eventCount: 1 },
    ]);
    const content = await newTenant(platform, {
      tenantId: caller.tenantId,
      scopes: ['events:read'],
      boundary: { contentIds: ['c-2'] },
    });
    const outside = await tally('contentId=c-1', content.token);
    expect([outside.status, outside.body.code, outside.body.fieldErrors]).toEqual([
      403,
      'events:boundary_rejected',
      [{ field: 'contentId', message: "outside the token's contentIds boundary" }],
    ]);
  });
});
