import { createHash } from 'node:crypto';
import { buildSchema, parse, type OperationDefinitionNode } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphqlSettingsFrom } from '../../platform/config.ts';
import { ASSUMED_LIST_SIZE, measureOperation } from '../../platform/graphql-limits.ts';
import { http, newTenant, startTestPlatform, type Caller, type TestPlatform } from '../kit.ts';

const LIMITS = graphqlSettingsFrom({}, false).limits;

/** `component { parent { children { parent { children ... } } } }`, `levels` fields deep. */
function parentChildrenChain(levels: number): string {
  let inner = 'componentId';
  for (let level = levels - 2; level >= 1; level -= 1)
    inner = `${level % 2 === 1 ? 'parent' : 'children'} { ${inner} }`;
  return `{ component(componentId: "c") { ${inner} } }`;
}

const aliased = (count: number) =>
  `{ ${Array.from({ length: count }, (_, index) => `a${index}: component(componentId: "c") { componentId }`).join(' ')} }`;

describe('measuring an operation', () => {
  const schema = buildSchema(`
    type Query { node(id: ID): Node pages(limit: Int): Page! nodes(first: Int): [Node!]! }
    type Page { data: [Node!]! next: String }
    type Node { id: ID! children: [Node!]! parent: Node tags: [String!] }
  `);
  const measure = (query: string, variables: Record<string, unknown> = {}) => {
    const document = parse(query);
    return measureOperation(
      schema,
      document,
      document.definitions.find((d) => d.kind === 'OperationDefinition') as OperationDefinitionNode,
      variables,
    );
  };

  it('counts depth through fragments and leaves, aliases and root fields', () => {
    const measured = measure(
      `query { a: node { ...deep } b: node { id } } fragment deep on Node { parent { parent { id } } }`,
    );
    expect(measured).toMatchObject({ depth: 4, aliases: 2, rootFields: 2 });
  });

  it('multiplies the selections of a list field by its size: its argument, its paged parent, or the assumed size', () => {
    expect(measure(`{ nodes(first: 3) { id tags } }`).cost).toBe(3 * (1 + 2));
    expect(measure(`query($n: Int) { pages(limit: $n) { data { id } next } }`, { n: 7 }).cost).toBe(
      1 + 7 * (1 + 1) + 1,
    );
    expect(measure(`{ node { children { children { id } } } }`).cost).toBe(
      1 + ASSUMED_LIST_SIZE * (1 + ASSUMED_LIST_SIZE * 2),
    );
    expect(measure(`query($n: Int) { nodes(first: $n) { id } }`, { n: 500 }).largestList).toBe(500);
  });

  it('measures a fragment used many times once per use, so nesting fragments cannot hide work', () => {
    const fragments = Array.from(
      { length: 6 },
      (_, level) => `fragment f${level} on Node { x: parent { ...f${level + 1} } y: parent { ...f${level + 1} } }`,
    );
    const measured = measure(`{ node { ...f0 } } ${fragments.join(' ')} fragment f6 on Node { id }`);
    expect(measured.cost).toBeGreaterThan(2 ** 6);
    expect(measured.depth).toBe(8);
  });
});

let platform: TestPlatform;
let caller: Caller;
beforeAll(async () => {
  platform = await startTestPlatform();
  caller = await newTenant(platform);
});
afterAll(async () => {
  await platform?.close();
});

async function send(target: { url: string }, body: Record<string, unknown>, token = caller.token) {
  const response = await fetch(`${target.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

const codeOf = (reply: { body: { errors?: Array<{ extensions?: Record<string, unknown> }> } }) =>
  reply.body.errors?.[0]?.extensions?.code;

describe('the gateway refuses abusive operations before executing them', () => {
  it('the 12-deep parent/children query of issue 14 is refused with 400 and reads nothing', async () => {
    const before = platform.runtime.database.stats.queries;
    const reply = await send(platform, { query: parentChildrenChain(12) });
    expect(reply.status).toBe(400);
    expect(codeOf(reply)).toBe('GRAPHQL_QUERY_TOO_DEEP');
    expect(reply.body.errors[0].extensions).toMatchObject({ limit: LIMITS.maxDepth, actual: 12 });
    expect(reply.body.data).toBeUndefined();
    expect(platform.runtime.database.stats.queries).toBe(before);
  });

  it('a query within the depth limit whose lists multiply past the cost limit is refused', async () => {
    const lists = `{ components(limit: 200) { data { children { children { children { componentId } } } } } }`;
    const reply = await send(platform, { query: lists });
    expect(reply.status).toBe(400);
    expect(codeOf(reply)).toBe('GRAPHQL_QUERY_TOO_COMPLEX');
  });

  it('refuses too many aliases, too many root fields and a list size over the maximum', async () => {
    const aliases = await send(platform, { query: aliased(LIMITS.maxAliases + 1) });
    expect([aliases.status, codeOf(aliases)]).toEqual([400, 'GRAPHQL_TOO_MANY_ALIASES']);
    const roots = await send(platform, {
      query: `{ ${Array.from({ length: LIMITS.maxRootFields + 1 }, () => '__typename').join(' ')} }`,
    });
    expect([roots.status, codeOf(roots)]).toEqual([400, 'GRAPHQL_TOO_MANY_ROOT_FIELDS']);
    const list = await send(platform, {
      query: 'query($n: Int) { kcs(limit: $n) { data { kcId } } }',
      variables: { n: LIMITS.maxListSize + 1 },
    });
    expect([list.status, codeOf(list)]).toEqual([400, 'GRAPHQL_LIST_TOO_LARGE']);
    const within = await send(platform, {
      query: 'query($n: Int) { kcs(limit: $n) { data { kcId } } }',
      variables: { n: LIMITS.maxListSize },
    });
    expect(within.status).toBe(200);
  });

  it('a measure is kept per operation of a document, and one read from variables is taken on every request', async () => {
    const paged = 'query($n: Int) { kcs(limit: $n) { data { kcId } } }';
    const within = await send(platform, { query: paged, variables: { n: LIMITS.maxListSize } });
    expect(within.status).toBe(200);
    const over = await send(platform, { query: paged, variables: { n: LIMITS.maxListSize + 1 } });
    expect([over.status, codeOf(over)]).toEqual([400, 'GRAPHQL_LIST_TOO_LARGE']);
    const document = `query Small { __typename } query Deep ${parentChildrenChain(12)}`;
    for (const [operationName, status] of [
      ['Small', 200],
      ['Deep', 400],
      ['Small', 200],
      ['Deep', 400],
    ] as const) {
      expect((await send(platform, { query: document, operationName })).status).toBe(status);
    }
  });

  it('an oversized document is 413 and a persisted-query miss is 400, not 5xx', async () => {
    const oversized = await send(platform, { query: aliased(2000) });
    expect([oversized.status, codeOf(oversized)]).toEqual([413, 'GRAPHQL_DOCUMENT_TOO_LARGE']);
    const sha256Hash = createHash('sha256').update('{ never { sent } }').digest('hex');
    const miss = await send(platform, { extensions: { persistedQuery: { version: 1, sha256Hash } } });
    expect([miss.status, codeOf(miss)]).toEqual([400, 'PERSISTED_QUERY_NOT_FOUND']);
  });

  it('a document nested too deeply to parse is 400 GRAPHQL_PARSE_FAILED saying so', async () => {
    const nested = `{ component(componentId: ${'['.repeat(5000)}"c"${']'.repeat(5000)}) { componentId } }`;
    const refused = await send(platform, { query: nested });
    expect([refused.status, codeOf(refused)]).toEqual([400, 'GRAPHQL_PARSE_FAILED']);
    expect(refused.body.errors[0].message).toBe('The query document nests values or selections too deeply to parse.');
  });

  it('an unknown operationName and two anonymous operations are 400 OPERATION_RESOLUTION_FAILURE', async () => {
    const unknown = await send(platform, { query: 'query A { __typename }', operationName: 'B' });
    expect([unknown.status, codeOf(unknown)]).toEqual([400, 'OPERATION_RESOLUTION_FAILURE']);
    const anonymous = await send(platform, { query: '{ __typename } { __typename }' });
    expect([anonymous.status, codeOf(anonymous)]).toEqual([400, 'GRAPHQL_VALIDATION_FAILED']);
    const unnamed = await send(platform, { query: 'query A { __typename } query B { __typename }' });
    expect([unnamed.status, codeOf(unnamed)]).toEqual([400, 'OPERATION_RESOLUTION_FAILURE']);
  });
});

describe('a subgraph served alone enforces the same limits', () => {
  let alone: TestPlatform;
  beforeAll(async () => {
    alone = await startTestPlatform({ services: ['curriculum'], gateway: undefined });
  });
  afterAll(async () => {
    await alone?.close();
  });

  it('refuses the deep query, the aliases, the oversized document and an unknown operationName', async () => {
    const deep = await send(alone, { query: parentChildrenChain(12) });
    expect([deep.status, codeOf(deep)]).toEqual([400, 'GRAPHQL_QUERY_TOO_DEEP']);
    const aliases = await send(alone, { query: aliased(LIMITS.maxAliases + 1) });
    expect([aliases.status, codeOf(aliases)]).toEqual([400, 'GRAPHQL_TOO_MANY_ALIASES']);
    const oversized = await send(alone, { query: aliased(2000) });
    expect([oversized.status, codeOf(oversized)]).toEqual([413, 'GRAPHQL_DOCUMENT_TOO_LARGE']);
    const unknown = await send(alone, { query: 'query A { __typename }', operationName: 'B' });
    expect([unknown.status, codeOf(unknown)]).toEqual([400, 'OPERATION_RESOLUTION_FAILURE']);
  });
});

describe('limits are configurable', () => {
  it('GRAPHQL_MAX_DEPTH and friends are read from the environment and refuse non-integers', () => {
    expect(graphqlSettingsFrom({ GRAPHQL_MAX_DEPTH: '3', GRAPHQL_MAX_COST: '10' }, false).limits).toMatchObject({
      maxDepth: 3,
      maxCost: 10,
    });
    expect(() => graphqlSettingsFrom({ GRAPHQL_MAX_ALIASES: 'many' }, false)).toThrow(/GRAPHQL_MAX_ALIASES/);
  });

  describe('a platform started with GRAPHQL_MAX_DEPTH=2', () => {
    let strict: TestPlatform;
    beforeAll(async () => {
      strict = await startTestPlatform({ env: { GRAPHQL_MAX_DEPTH: '2' } });
    });
    afterAll(async () => {
      await strict?.close();
    });

    it('refuses what the default allows', async () => {
      const reply = await send(strict, { query: parentChildrenChain(3) }, (await newTenant(strict)).token);
      expect([reply.status, codeOf(reply)]).toEqual([400, 'GRAPHQL_QUERY_TOO_DEEP']);
    });
  });
});

describe('the README queries pass the default limits', () => {
  it('the headline query answers 200', async () => {
    const reply = await http(platform, 'POST', '/graphql', {
      token: caller.token,
      body: {
        query: `query($id: ID!) { component(componentId: $id) { componentId kind alpha { targetRef { contentId contentVersionId contentKind
          version { versionId versionNumber releaseEligibility { contentId contentVersionId releaseEligible serveable trustStatus usageScope problemCode } } } } } }`,
        variables: { id: 'missing' },
      },
    });
    expect(reply.status).toBe(200);
    expect(reply.body.errors).toBeUndefined();
  });
});
