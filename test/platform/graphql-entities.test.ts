import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { http, newTenant, roots, startTestPlatform, type Caller, type TestPlatform } from '../kit.ts';
import { json, startFakeService } from '../fake-service.ts';

/**
 * The events subgraph served alone, as a remote gateway (or anyone) reaches it: `_entities`
 * representations are client input.
 */
let events: TestPlatform;
let caller: Caller;
beforeAll(async () => {
  events = await startTestPlatform({ services: ['events'], gateway: undefined, peopleStandIn: true });
  caller = await newTenant(events);
});
afterAll(async () => {
  await events?.close();
});

const ENTITIES =
  'query($r: [_Any!]!) { _entities(representations: $r) { __typename ... on Person { personId givenName } } }';
const entities = (representations: unknown[]) =>
  http(events, 'POST', '/graphql', {
    token: caller.token,
    body: { query: ENTITIES, variables: { r: representations } },
  });

describe('_entities representations are client input', () => {
  it('an unknown __typename is events:entity_representation_invalid naming the representation', async () => {
    const reply = await entities([{ __typename: 'Spaceship', id: '1' }]);
    expect(reply.body.errors[0].extensions).toMatchObject({
      code: 'events:entity_representation_invalid',
      status: 400,
      fieldErrors: [{ field: 'representations.0.__typename' }],
    });
  });

  it('a representation without its key field is events:entity_representation_invalid', async () => {
    const reply = await entities([{ __typename: 'Person', personId: 'p' }, { __typename: 'Event' }]);
    expect(reply.body.errors[0].extensions).toMatchObject({
      code: 'events:entity_representation_invalid',
      fieldErrors: [{ field: 'representations.1', message: expect.stringContaining('id') }],
    });
  });

  it('an unknown Person key resolves to null; a registered one to the person', async () => {
    const operator = await newTenant(events, { tenantId: caller.tenantId, roles: ['operator'], scopes: [] });
    const registered = await http(events, 'POST', `${roots.people}/people`, {
      token: operator.token,
      body: { personId: 'stu-known', givenName: 'Ada', familyName: 'Lovelace', reality: 'test' },
    });
    expect(registered.status).toBe(201);
    const reply = await entities([
      { __typename: 'Person', personId: 'stu-known' },
      { __typename: 'Person', personId: 'stu-nobody' },
    ]);
    expect(reply.body.errors).toBeUndefined();
    expect(reply.body.data._entities).toEqual([
      { __typename: 'Person', personId: 'stu-known', givenName: 'Ada' },
      null,
    ]);
  });

  it('an unknown ContentItem key resolves to null, asking content once for the whole batch', async () => {
    const content = await startFakeService();
    const realUrl = events.runtime.config.contentUrl;
    events.runtime.config.contentUrl = content.url;
    const [known, unknown] = [randomUUID(), randomUUID()];
    const asked: string[] = [];
    const items = (representations: unknown[]) =>
      http(events, 'POST', '/graphql', {
        token: caller.token,
        body: {
          query:
            'query($r: [_Any!]!) { _entities(representations: $r) { __typename ... on ContentItem { contentId } } }',
          variables: { r: representations },
        },
      });
    try {
      content.behave((request, response) => {
        asked.push(request.url ?? '');
        json(200, { data: [{ content_id: known }], next_cursor: null })(request, response);
      });
      const reply = await items([
        { __typename: 'ContentItem', contentId: known },
        { __typename: 'ContentItem', contentId: unknown },
        { __typename: 'ContentItem', contentId: 'not-a-content-id' },
      ]);
      expect(reply.body.errors).toBeUndefined();
      expect(reply.body.data._entities).toEqual([{ __typename: 'ContentItem', contentId: known }, null, null]);
      expect(asked).toHaveLength(1);
      expect(new URL(asked[0], content.url).searchParams.get('content_ids')?.split(',').sort()).toEqual(
        [known, unknown].sort(),
      );
      expect(asked[0]).toContain(`/tenants/${caller.tenantId}/alpha/content/items?`);
      content.behave(json(503, { code: 'content.unavailable' }));
      const down = await items([{ __typename: 'ContentItem', contentId: known }]);
      expect(down.body.errors[0].extensions).toMatchObject({ code: 'events:content_unavailable', status: 503 });
      content.behave(json(200, { items: [] }));
      const invalid = await items([{ __typename: 'ContentItem', contentId: known }]);
      expect(invalid.body.errors[0].extensions).toMatchObject({ code: 'events:content_answer_invalid', status: 502 });
    } finally {
      events.runtime.config.contentUrl = realUrl;
      await content.close();
    }
  });
});
