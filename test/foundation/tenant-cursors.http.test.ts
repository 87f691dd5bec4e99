import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { curriculumV1, graphql, http, newTenant, roots, tenantRoot, type Caller, type TestPlatform } from '../kit.ts';
import { platformTest } from '../platform-test.ts';
import { kcBody } from '../curriculum/helpers.ts';
import { post, producer, viewed } from '../events/helpers.ts';

const it = platformTest();

/**
 * A cursor is a position in one tenant's list. Replayed by another tenant on the same list with the same filters it
 * is refused (400, as a cursor of another list is), never read as a position among that tenant's rows: the page
 * started after a row of the other tenant, and the caller's own rows before it were silently left out.
 */
async function pages(
  platform: TestPlatform,
  list: (caller: Caller, query: string) => string,
  write: (caller: Caller) => Promise<void>,
  pageSize = 'limit',
) {
  const [owner, stranger] = [await newTenant(platform), await newTenant(platform)];
  for (const caller of [owner, stranger]) for (let index = 0; index < 3; index += 1) await write(caller);
  const first = await http(platform, 'GET', list(owner, `${pageSize}=1`), { token: owner.token });
  expect(first.status, JSON.stringify(first.body)).toBe(200);
  const cursor: string = first.body.next_cursor ?? first.body.nextCursor;
  const query = `cursor=${encodeURIComponent(cursor)}`;
  expect((await http(platform, 'GET', list(owner, query), { token: owner.token })).status).toBe(200);
  const replayed = await http(platform, 'GET', list(stranger, query), { token: stranger.token });
  return { stranger, cursor, replayed };
}

it("refuses another tenant's cursor on curriculum, content and events lists, REST and GraphQL", async ({
  platform,
}) => {
  const kcs = await pages(
    platform,
    (_caller, query) => `${curriculumV1}/kcs?${query}`,
    async (caller) => {
      const reply = await http(platform, 'POST', `${curriculumV1}/kcs`, {
        token: caller.token,
        headers: { 'idempotency-key': randomUUID() },
        body: kcBody(),
      });
      expect(reply.status).toBe(201);
    },
  );
  expect([kcs.replayed.status, kcs.replayed.body.code]).toEqual([400, 'curriculum:validation_failed']);
  const graph = await graphql(
    platform,
    'query ($cursor: String) { kcs(cursor: $cursor) { data { kcId } } }',
    { cursor: kcs.cursor },
    kcs.stranger.token,
  );
  expect(graph.body.errors?.map((error: { extensions: { code: string } }) => error.extensions.code)).toEqual([
    'curriculum:validation_failed',
  ]);

  const components = await pages(
    platform,
    (_caller, query) => `${curriculumV1}/components?kind=lesson&${query}`,
    async (caller) => {
      const reply = await http(platform, 'POST', `${curriculumV1}/components`, {
        token: caller.token,
        body: { component_id: `lesson-${randomUUID()}`, kind: 'lesson' },
      });
      expect(reply.status).toBe(201);
    },
  );
  expect([components.replayed.status, components.replayed.body.code]).toEqual([400, 'curriculum:validation_failed']);

  const items = await pages(
    platform,
    (caller, query) => `${tenantRoot(caller.tenantId)}/items?${query}`,
    async (caller) => {
      const reply = await http(platform, 'POST', `${tenantRoot(caller.tenantId)}/items`, {
        token: caller.token,
        headers: { 'idempotency-key': randomUUID() },
        body: { content_kind: 'article', title: 'Fractions' },
      });
      expect(reply.status).toBe(201);
    },
  );
  expect([items.replayed.status, items.replayed.body.code]).toEqual([400, 'content.validation_failed']);

  const sources = new Map<string, string>();
  const events = await pages(
    platform,
    (_caller, query) => `${roots.events}/events?${query}`,
    async (caller) => {
      if (!sources.has(caller.tenantId)) {
        const registered = await producer(platform, { tenantId: caller.tenantId });
        sources.set(caller.tenantId, registered.sourceId);
      }
      expect((await post(platform, caller, [viewed(sources.get(caller.tenantId)!)])).status).toBe(202);
    },
    'pageSize',
  );
  expect([events.replayed.status, events.replayed.body.code]).toEqual([400, 'events:validation_failed']);
});
