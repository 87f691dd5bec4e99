import { randomUUID } from 'node:crypto';
import { describe, expect } from 'vitest';
import { graphql, http, newTenant, tenantRoot, type Caller, type Reply, type TestPlatform } from '../kit.ts';
import { platformTest } from '../platform-test.ts';
import { json, startFakeService } from '../fake-service.ts';
import { post, producer } from '../events/helpers.ts';
import { appendVersion, createItem } from './helpers.ts';
import { FRESHNESS_WINDOW_DAYS, GRADED_KIND, MINIMUM_EVIDENCE } from '../../subgraphs/content/records/effectiveness.ts';
import { PLAYER_EXTENSION_NAMESPACE } from '../../subgraphs/events/vocabulary.ts';

const it = platformTest();

const RENDERED = `${PLAYER_EXTENSION_NAMESPACE}/rendered_content_id`;
const daysAgo = (days: number) => new Date(Date.now() - days * 24 * 60 * 60 * 1000).toISOString();

type Platform = TestPlatform;

/** An author and an events producer of one tenant, and an item with two exact versions. */
async function setup(platform: Platform) {
  const events = await producer(platform);
  const author = await newTenant(platform, { tenantId: events.tenantId });
  const item = await createItem(platform, author, { content_kind: 'article' });
  const blocks = (text: string) => ({ student_view: { blocks: [{ type: 'text', text, order: 0 }] } });
  const first = await appendVersion(platform, author, item.content_id, blocks('one'));
  const second = await appendVersion(platform, author, item.content_id, blocks('two'));
  /** `count` events of `kind` on one exact version, each at `happenedAt`. */
  const record = async (versionId: string, kind: string, count: number, happenedAt: string) => {
    const batch = Array.from({ length: count }, () => ({
      kind,
      studentId: `s-${randomUUID()}`,
      contentId: item.content_id,
      activitySourceId: events.sourceId,
      happenedAt,
      extensions: { [RENDERED]: versionId },
    }));
    expect((await post(platform, events, batch)).status).toBe(202);
  };
  return { author, contentId: item.content_id, first: first.version_id, second: second.version_id, record };
}

const read = (platform: Platform, caller: Caller, contentId: string, versionId?: string) =>
  http(
    platform,
    'GET',
    `${tenantRoot(caller.tenantId)}/items/${contentId}/effectiveness${versionId ? `?version_id=${versionId}` : ''}`,
    { token: caller.token },
  );

const EFFECTIVENESS = `query Effectiveness($contentId: ID!, $versionId: ID) {
  contentItem(contentId: $contentId) {
    effectiveness(versionId: $versionId) { contentVersionId effectivenessStatus evidenceCount servedCount minimumEvidence }
  }
}`;

describe('GET /items/{id}/effectiveness', () => {
  it('derives insufficient_data, pending, fresh and stale for the exact version from the events service', async ({
    platform,
  }) => {
    const { author, contentId, first, second, record } = await setup(platform);
    const status = async (versionId?: string) => {
      const reply = await read(platform, author, contentId, versionId);
      expect(reply.status).toBe(200);
      return reply.body;
    };
    // The newest version by default; nothing has named it yet.
    expect(await status()).toMatchObject({
      content_id: contentId,
      content_version_id: second,
      effectiveness_status: 'insufficient_data',
      evidence_count: 0,
      served_count: 0,
      minimum_evidence: MINIMUM_EVIDENCE,
      freshness_window_days: FRESHNESS_WINDOW_DAYS,
    });
    // Served long ago and never graded: still insufficient.
    await record(second, 'content_viewed', 2, daysAgo(FRESHNESS_WINDOW_DAYS + 5));
    expect((await status()).effectiveness_status).toBe('insufficient_data');
    // Served now, results still expected.
    await record(second, 'content_viewed', 1, daysAgo(0));
    expect(await status()).toMatchObject({ effectiveness_status: 'pending', served_count: 3, evidence_count: 0 });
    // One short of the minimum is still pending.
    await record(second, GRADED_KIND, MINIMUM_EVIDENCE - 1, daysAgo(1));
    expect((await status()).effectiveness_status).toBe('pending');
    await record(second, GRADED_KIND, 1, daysAgo(1));
    expect(await status()).toMatchObject({ effectiveness_status: 'fresh', evidence_count: MINIMUM_EVIDENCE });
    // The other exact version has its own evidence: enough of it, but old.
    expect((await status(first)).effectiveness_status).toBe('insufficient_data');
    await record(first, GRADED_KIND, MINIMUM_EVIDENCE, daysAgo(FRESHNESS_WINDOW_DAYS + 1));
    expect(await status(first)).toMatchObject({
      content_version_id: first,
      effectiveness_status: 'stale',
      evidence_count: MINIMUM_EVIDENCE,
    });
    expect((await status(second)).evidence_count).toBe(MINIMUM_EVIDENCE);
    // GraphQL reads the same derivation.
    const graph = await graphql(platform, EFFECTIVENESS, { contentId, versionId: first }, author.token);
    expect(graph.body.data.contentItem.effectiveness).toEqual({
      contentVersionId: first,
      effectivenessStatus: 'stale',
      evidenceCount: MINIMUM_EVIDENCE,
      servedCount: 0,
      minimumEvidence: MINIMUM_EVIDENCE,
    });
    const latest = await graphql(platform, EFFECTIVENESS, { contentId }, author.token);
    expect(latest.body.data.contentItem.effectiveness.effectivenessStatus).toBe('fresh');
  });

  it("refuses a token the events service would narrow (students, organizations) or another item's contentIds, REST and GraphQL (it answered counts of every student)", async ({
    platform,
  }) => {
    const { author, contentId, second, record } = await setup(platform);
    await record(second, 'content_viewed', 3, daysAgo(1));
    const bounded = (boundary: Record<string, string[]>) =>
      newTenant(platform, { tenantId: author.tenantId, scopes: ['read:content'], boundary });
    for (const [boundary, field] of [
      [{ studentIds: ['s-1'] }, 'studentIds'],
      [{ schoolIds: ['org-1'] }, 'orgIds/schoolIds'],
      [{ contentIds: [randomUUID()] }, 'contentId'],
    ] as Array<[Record<string, string[]>, string]>) {
      const caller = await bounded(boundary);
      const reply = await read(platform, caller, contentId);
      expect([reply.status, reply.body.code, reply.body.fieldErrors?.[0]?.field]).toEqual([
        403,
        'content.forbidden',
        field,
      ]);
      const graph = await graphql(platform, EFFECTIVENESS, { contentId }, caller.token);
      expect(graph.body.errors?.[0]?.extensions?.code).toBe('content.forbidden');
    }
    const inside = await read(platform, await bounded({ contentIds: [contentId] }), contentId);
    expect([inside.status, inside.body.served_count]).toEqual([200, 3]);
  });

  it('answers 404 for a version of another item and 400 for a version id that is not one', async ({ platform }) => {
    const { author, contentId } = await setup(platform);
    const other = await createItem(platform, author, { content_kind: 'article' });
    const otherVersion = await appendVersion(platform, author, other.content_id, {
      student_view: { blocks: [{ type: 'text', text: 'x', order: 0 }] },
    });
    expect((await read(platform, author, contentId, otherVersion.version_id)).status).toBe(404);
    expect((await read(platform, author, contentId, 'not-a-uuid')).status).toBe(400);
  });

  it('fails closed with a typed problem when the events service is down, slow or off contract', async ({
    platform,
  }) => {
    const { author, contentId } = await setup(platform);
    const events = await startFakeService();
    const realUrl = platform.runtime.config.eventsUrl;
    platform.runtime.config.eventsUrl = events.url;
    const expectProblem = (reply: Reply, status: number, code: string) =>
      expect([reply.status, reply.body.code]).toEqual([status, code]);
    try {
      events.behave((_request, response) => response.writeHead(503).end());
      expectProblem(await read(platform, author, contentId), 503, 'content.events_unavailable');
      events.behave(json(200, { data: 'not tallies' }));
      expectProblem(await read(platform, author, contentId), 502, 'content.events_answer_invalid');
      events.behave(json(200, { contentId: 'another', renderedContentId: null, data: [] }));
      expectProblem(await read(platform, author, contentId), 502, 'content.events_answer_invalid');
      events.behave(json(403, { code: 'forbidden' }));
      expectProblem(await read(platform, author, contentId), 502, 'content.events_answer_invalid');
      events.behave(() => undefined);
      expectProblem(await read(platform, author, contentId), 503, 'content.events_unavailable');
      const graph = await graphql(platform, EFFECTIVENESS, { contentId }, author.token);
      expect(graph.body.errors[0].extensions.code).toBe('content.events_unavailable');
      await events.close();
      expectProblem(await read(platform, author, contentId), 503, 'content.events_unavailable');
    } finally {
      platform.runtime.config.eventsUrl = realUrl;
      await events.close().catch(() => undefined);
    }
  });
});
