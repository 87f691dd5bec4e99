import { randomUUID } from 'node:crypto';
import { describe, expect } from 'vitest';
import { failQc, newTenant, pinnedLesson, type Caller } from '../kit.ts';
import { platformTest, type TestPlatform } from '../platform-test.ts';

/**
 * gateway/direct-queries.ts: a query Apollo Server has answered without errors is answered again
 * without its request pipeline, exactly as Apollo Server answers it; whatever it cannot be sure of
 * goes to Apollo Server. Which of the two answered shows in graphql_direct_answers_total.
 */

const HEADLINE = `query($id: ID!) { component(componentId: $id) { componentId alpha { targetRef { version { versionNumber releaseEligibility { releaseEligible trustStatus } } } } } }`;
const PAGE = `query($limit: Int) { contentItems(limit: $limit) { data { contentId } } }`;

const it = platformTest();

interface Answer {
  status: number;
  contentType: string | null;
  text: string;
}

async function ask(
  platform: TestPlatform,
  body: unknown,
  options: { token?: string; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const response = await fetch(`${platform.url}/graphql`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...options.headers,
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: response.status, contentType: response.headers.get('content-type'), text: await response.text() };
}

async function directAnswers(platform: TestPlatform): Promise<number> {
  const metrics = await (await fetch(`${platform.url}/metrics`)).text();
  return Number(/^graphql_direct_answers_total\{endpoint="gateway"\} (\d+)$/m.exec(metrics)?.[1] ?? 0);
}

/** What `run` answers, and whether the gateway answered it without Apollo Server's pipeline. */
async function answeredDirectly(platform: TestPlatform, run: () => Promise<Answer>) {
  const before = await directAnswers(platform);
  const answer = await run();
  return { answer, direct: (await directAnswers(platform)) - before === 1 };
}

/** A query text no other test sends, so that its first asking is Apollo Server's. */
const fresh = (query: string) => `${query} # ${randomUUID()}`;

describe("the gateway's direct answers", () => {
  it('answers a query Apollo Server has answered byte for byte as Apollo Server did, and live after a write', async ({
    platform,
  }) => {
    const { caller, pin } = await pinnedLesson(platform, 'lesson-direct');
    const body = { query: fresh(HEADLINE), variables: { id: 'lesson-direct' } };
    const first = await answeredDirectly(platform, () => ask(platform, body, { token: caller.token }));
    const second = await answeredDirectly(platform, () => ask(platform, body, { token: caller.token }));
    expect([first.direct, second.direct]).toEqual([false, true]);
    expect(second.answer).toEqual(first.answer);
    expect(first.answer).toMatchObject({ status: 200, contentType: 'application/json; charset=utf-8' });
    expect(JSON.parse(first.answer.text).data.component.alpha.targetRef.version.releaseEligibility).toEqual({
      releaseEligible: true,
      trustStatus: 'trusted',
    });

    await failQc(platform, caller, pin);
    const after = await answeredDirectly(platform, () => ask(platform, body, { token: caller.token }));
    expect(after.direct).toBe(true);
    expect(JSON.parse(after.answer.text).data.component.alpha.targetRef.version.releaseEligibility).toEqual({
      releaseEligible: false,
      trustStatus: 'failed',
    });
  });

  it('answers each accept header with the content type Apollo Server chose for it', async ({ platform }) => {
    const { caller } = await pinnedLesson(platform, 'lesson-accept-direct');
    const body = { query: fresh(HEADLINE), variables: { id: 'lesson-accept-direct' } };
    await ask(platform, body, { token: caller.token });
    for (const accept of ['application/graphql-response+json', 'application/json', '*/*']) {
      const headers = { accept };
      const first = await answeredDirectly(platform, () => ask(platform, body, { token: caller.token, headers }));
      const second = await answeredDirectly(platform, () => ask(platform, body, { token: caller.token, headers }));
      expect(second.direct, accept).toBe(true);
      expect(second.answer, accept).toEqual(first.answer);
    }
    const graphqlResponse = await ask(platform, body, {
      token: caller.token,
      headers: { accept: 'application/graphql-response+json' },
    });
    expect(graphqlResponse.contentType).toBe('application/graphql-response+json; charset=utf-8');
    // Apollo Server refuses an accept header it cannot answer; so does every later asking.
    for (let asked = 0; asked < 2; asked++) {
      const refused = await answeredDirectly(platform, () =>
        ask(platform, body, { token: caller.token, headers: { accept: 'text/csv' } }),
      );
      expect(refused.direct).toBe(false);
      expect(refused.answer.status).toBe(406);
    }
  });

  it("hands Apollo Server every request it could answer otherwise than the query's first answer", async ({
    platform,
  }) => {
    const { caller } = await pinnedLesson(platform, 'lesson-handed');
    const headline = fresh(HEADLINE);
    const page = fresh(PAGE);
    await ask(platform, { query: headline, variables: { id: 'lesson-handed' } }, { token: caller.token });
    await ask(platform, { query: page, variables: { limit: 5 } }, { token: caller.token });
    const asked: Array<[string, () => Promise<Answer>, number]> = [
      ['a list over the limit', () => ask(platform, { query: page, variables: { limit: 5000 } }, caller), 400],
      [
        'unstorable text in the variables',
        () => ask(platform, { query: headline, variables: { id: 'lesson\u0000' } }, caller),
        400,
      ],
      [
        'a persisted-query extension',
        () =>
          ask(
            platform,
            {
              query: headline,
              variables: { id: 'lesson-handed' },
              extensions: { persistedQuery: { version: 1, sha256Hash: 'f'.repeat(64) } },
            },
            caller,
          ),
        400,
      ],
      [
        'a content type a CSRF form could send',
        () =>
          ask(platform, JSON.stringify({ query: headline, variables: { id: 'lesson-handed' } }), {
            ...caller,
            headers: { 'content-type': 'text/plain' },
          }),
        415,
      ],
      ['a batch', () => ask(platform, [{ query: headline, variables: { id: 'lesson-handed' } }], caller), 400],
      ['variables that are not an object', () => ask(platform, { query: headline, variables: 'x' }, caller), 400],
      ['an unknown operation name', () => ask(platform, { query: headline, operationName: 'Other' }, caller), 400],
    ];
    for (const [what, run, status] of asked) {
      for (let time = 0; time < 2; time++) {
        const handed = await answeredDirectly(platform, run);
        expect(handed.direct, what).toBe(false);
        expect(handed.answer.status, what).toBe(status);
      }
    }
  });

  it('asks a query again through Apollo Server when its answer has errors, and until it has none', async ({
    platform,
  }) => {
    const { caller } = await pinnedLesson(platform, 'lesson-errors');
    const query = fresh(HEADLINE);
    const lesson = { query, variables: { id: 'lesson-errors' } };
    await ask(platform, lesson, { token: caller.token });
    const withoutToken = await answeredDirectly(platform, () => ask(platform, lesson));
    const throughApollo = await answeredDirectly(platform, () => ask(platform, lesson));
    expect([withoutToken.direct, throughApollo.direct]).toEqual([false, false]);
    expect(withoutToken.answer).toEqual(throughApollo.answer);
    expect(JSON.parse(withoutToken.answer.text).errors[0].extensions.code).toBe('curriculum:unauthenticated');

    const tokens = { token: caller.token };
    const again = await answeredDirectly(platform, () => ask(platform, lesson, tokens));
    const thenDirect = await answeredDirectly(platform, () => ask(platform, lesson, tokens));
    expect([again.direct, thenDirect.direct]).toEqual([false, true]);
    expect(thenDirect.answer).toEqual(again.answer);
  });

  it('never answers a mutation without Apollo Server', async ({ platform }) => {
    const caller: Caller = await newTenant(platform);
    const query = `mutation($key: String!) { createContentItem(idempotencyKey: $key, input: { contentKind: "article", title: "A" }) { contentId } }`;
    for (let time = 0; time < 2; time++) {
      const created = await answeredDirectly(platform, () =>
        ask(platform, { query, variables: { key: randomUUID() } }, caller),
      );
      expect(created.direct).toBe(false);
      expect(JSON.parse(created.answer.text).errors).toBeUndefined();
    }
  });
});
