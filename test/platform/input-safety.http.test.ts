import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  curriculumV1,
  graphql,
  http,
  newTenant,
  roots,
  startTestPlatform,
  tenantRoot,
  type TestPlatform,
} from '../kit.ts';
import { fieldsWithUnstorableText, MAX_JSON_DEPTH, unstorableFieldErrors } from '../../platform/input-safety.ts';

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform();
});
afterAll(async () => {
  await platform?.close();
});

const NUL = '\u0000';

/** POST /kcs with a body sent exactly as written. */
const postKcText = (token: string, rawBody: string) =>
  http(platform, 'POST', `${curriculumV1}/kcs`, {
    token,
    headers: { 'idempotency-key': randomUUID(), 'content-type': 'application/json' },
    rawBody,
  });

describe('fieldsWithUnstorableText', () => {
  it('names every string and key holding a NUL, at any depth, and ignores bytes', () => {
    expect(fieldsWithUnstorableText({ a: 'x', b: [{ c: `y${NUL}` }], [`k${NUL}`]: 1, d: Buffer.from([0]) })).toEqual([
      'b.0.c',
      'k\\u0000',
    ]);
    expect(fieldsWithUnstorableText(`${NUL}`)).toEqual(['(body)']);
    expect(fieldsWithUnstorableText({ a: 1, b: null, c: true })).toEqual([]);
  });
});

describe('a NUL in any input is a 400 field error, never a database error', () => {
  it('in the query string', async () => {
    const caller = await newTenant(platform);
    const reply = await http(platform, 'GET', `${curriculumV1}/components?parentId=%00`, { token: caller.token });
    expect(reply.status).toBe(400);
    expect(reply.headers.get('content-type')).toContain('application/problem+json');
    expect(reply.body).toMatchObject({ code: 'curriculum:validation_failed', fieldErrors: [{ field: 'parentId' }] });
  });

  it('in a path parameter', async () => {
    const caller = await newTenant(platform);
    const reply = await http(platform, 'GET', `${tenantRoot(caller.tenantId)}/items/a%00b`, { token: caller.token });
    expect([reply.status, reply.body.code, reply.body.fieldErrors]).toEqual([
      400,
      'content.validation_failed',
      [{ field: 'contentId', message: expect.stringContaining('NUL') }],
    ]);
  });

  it('deep in a JSON body, naming the dotted field', async () => {
    const caller = await newTenant(platform);
    const reply = await http(platform, 'POST', `${tenantRoot(caller.tenantId)}/items`, {
      token: caller.token,
      headers: { 'idempotency-key': randomUUID() },
      body: { content_kind: 'article', title: 'ok', alpha: { tags: ['fine', `bad${NUL}`] } },
    });
    expect([
      reply.status,
      reply.body.code,
      reply.body.fieldErrors.map((error: { field: string }) => error.field),
    ]).toEqual([400, 'content.validation_failed', ['alpha.tags.1']]);
    const listed = await http(platform, 'GET', `${tenantRoot(caller.tenantId)}/items`, { token: caller.token });
    expect(listed.body.data).toEqual([]);
  });

  it('in a header value used as data', async () => {
    const caller = await newTenant(platform);
    // fetch refuses to send a NUL in a header; Fastify's injector does not.
    const reply = await platform.app.inject({
      method: 'POST',
      url: `${roots.events}/events`,
      headers: {
        authorization: `Bearer ${caller.token}`,
        'content-type': 'application/json',
        'idempotency-key': `k${NUL}`,
      },
      payload: [],
    });
    expect(reply.statusCode).toBe(400);
    expect(reply.json()).toMatchObject({
      code: 'events:validation_failed',
      fieldErrors: [{ field: 'idempotency-key' }],
    });
  });

  it('in GraphQL variables and inline literals: a typed GraphQL error, no resolver runs', async () => {
    const caller = await newTenant(platform);
    const query = 'query($id: ID!) { component(componentId: $id) { componentId } }';
    // The same document passes first: what is read once per document never covers the variables.
    expect((await graphql(platform, query, { id: 'x' }, caller.token)).status).toBe(200);
    const byVariable = await graphql(platform, query, { id: `x${NUL}` }, caller.token);
    expect(byVariable.status).toBe(400);
    expect(byVariable.body.data).toBeUndefined();
    expect(byVariable.body.errors[0].extensions).toMatchObject({
      code: 'validation_failed',
      fieldErrors: [{ field: 'id' }],
    });
    const withLiteral = '{ components(parentId: "\\u0000") { data { componentId } } }';
    const byLiteral = await graphql(platform, withLiteral, {}, caller.token);
    expect(byLiteral.status).toBe(400);
    expect((await graphql(platform, withLiteral, {}, caller.token)).status).toBe(400);
    expect(byLiteral.body.errors[0].extensions).toMatchObject({
      code: 'validation_failed',
      fieldErrors: [{ field: 'parentId' }],
    });
  });
});

describe('a lone surrogate in any input is refused like a NUL (jsonb cannot hold one, text would change it)', () => {
  const LONE = '\udfff';

  it('names strings and keys holding one, and lets a well-formed pair through', () => {
    expect(fieldsWithUnstorableText({ a: '\ud83d\ude00', b: [`x${LONE}`], [`k${LONE}\ud800`]: 1 })).toEqual([
      'b.0',
      `k${LONE}\ud800`,
    ]);
  });

  it('in a JSON body (sent as the escape "\\udfff"): 400, nothing written', async () => {
    const caller = await newTenant(platform);
    const reply = await http(platform, 'POST', `${tenantRoot(caller.tenantId)}/catalog-facets`, {
      token: caller.token,
      headers: { 'idempotency-key': randomUUID() },
      body: {
        facet_key: 'accessibility_profile',
        value_type: 'enum',
        grain: 'media_asset',
        allowed_values: [`a${LONE}`],
      },
    });
    expect([reply.status, reply.body.code, reply.body.fieldErrors]).toEqual([
      400,
      'content.validation_failed',
      [{ field: 'allowed_values.0', message: expect.stringContaining('lone surrogate') }],
    ]);
    const listed = await http(platform, 'GET', `${tenantRoot(caller.tenantId)}/catalog-facets`, {
      token: caller.token,
    });
    expect(listed.body.data).toEqual([]);
  });

  it('in GraphQL variables', async () => {
    const caller = await newTenant(platform);
    const query = 'query($id: ID!) { component(componentId: $id) { componentId } }';
    const reply = await graphql(platform, query, { id: `x${LONE}` }, caller.token);
    expect(reply.status).toBe(400);
    expect(reply.body.errors[0].extensions).toMatchObject({
      code: 'validation_failed',
      fieldErrors: [{ field: 'id' }],
    });
  });
});

describe('arrays and objects nested past MAX_JSON_DEPTH are a 400 field error, never a stack overflow', () => {
  const nested = (depth: number): unknown => {
    let value: unknown = 1;
    for (let level = 0; level < depth; level += 1) value = { a: value };
    return value;
  };
  // Sent as text: JSON.stringify itself overflows the stack on a value this deep.
  const deepJson = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

  it('names the outermost field, and lets a value at the limit through', () => {
    expect(unstorableFieldErrors({ ok: nested(MAX_JSON_DEPTH - 1), deep: nested(MAX_JSON_DEPTH) })).toEqual([
      { field: 'deep', message: expect.stringContaining(`more than ${MAX_JSON_DEPTH} levels`) },
    ]);
  });

  it('in a JSON body thousands deep (it answered 500): 400, nothing written', async () => {
    const caller = await newTenant(platform);
    const post = (rawBody: string) => postKcText(caller.token, rawBody);
    const array = await post(`${'['.repeat(20_000)}${']'.repeat(20_000)}`);
    expect([array.status, array.headers.get('content-type'), array.body.code, array.body.fieldErrors]).toEqual([
      400,
      expect.stringContaining('application/problem+json'),
      'curriculum:validation_failed',
      [{ field: '0', message: expect.stringContaining('levels deep') }],
    ]);
    const inField = await post(
      `{"stored_as":"alpha.knowledge_component","definition":"Deep","alpha":${deepJson(20_000)}}`,
    );
    expect([inField.status, inField.body.fieldErrors]).toEqual([
      400,
      [{ field: 'alpha', message: expect.stringContaining('levels deep') }],
    ]);
    const listed = await http(platform, 'GET', `${curriculumV1}/kcs`, { token: caller.token });
    expect(listed.body.data).toEqual([]);
  });

  it('in GraphQL variables thousands deep (they answered 500): a typed GraphQL error', async () => {
    const caller = await newTenant(platform);
    const query = 'query($id: ID!) { component(componentId: $id) { componentId } }';
    const reply = await http(platform, 'POST', '/graphql', {
      token: caller.token,
      headers: { 'content-type': 'application/json' },
      rawBody: `{"query":${JSON.stringify(query)},"variables":{"id":"x","extra":${deepJson(20_000)}}}`,
    });
    expect(reply.status).toBe(400);
    expect(reply.body.errors[0].extensions).toMatchObject({
      code: 'validation_failed',
      fieldErrors: [{ field: 'extra', message: expect.stringContaining('levels deep') }],
    });
  });
});

describe('a JSON body with a key that reaches an object prototype', () => {
  it('is a 400 that names the key, not "not valid JSON", and nothing is written', async () => {
    const caller = await newTenant(platform);
    const post = (rawBody: string) => postKcText(caller.token, rawBody);
    for (const alpha of ['{"__proto__":{"admin":true}}', '[{"deeper":{"__proto__":null}}]']) {
      const refused = await post(`{"stored_as":"alpha.knowledge_component","definition":"Proto","alpha":${alpha}}`);
      expect([refused.status, refused.body.code, refused.body.detail]).toEqual([
        400,
        'curriculum:validation_failed',
        expect.stringContaining('"__proto__"'),
      ]);
    }
    const invalid = await post('{"stored_as":');
    expect(invalid.body.detail).toBe('The body is not valid JSON.');
    const listed = await http(platform, 'GET', `${curriculumV1}/kcs`, { token: caller.token });
    expect(listed.body.data).toEqual([]);
  });
});

describe('a compressed JSON body', () => {
  it('is a 415 naming the coding, with the codings accepted, on every service; identity is no coding', async () => {
    const caller = await newTenant(platform);
    const body = '{"stored_as":"alpha.knowledge_component","definition":"Compressed"}';
    const send = (coding: string, url = `${curriculumV1}/kcs`) =>
      http(platform, 'POST', url, {
        token: caller.token,
        headers: { 'idempotency-key': randomUUID(), 'content-type': 'application/json', 'content-encoding': coding },
        rawBody: body,
      });
    for (const coding of ['gzip', 'br', 'deflate, gzip']) {
      const refused = await send(coding);
      expect([refused.status, refused.body.code, refused.headers.get('accept-encoding')]).toEqual([
        415,
        'curriculum:unsupported_media_type',
        'identity',
      ]);
      expect(refused.body.detail).toContain(coding);
    }
    const events = await send('gzip', `${roots.events}/events`);
    expect([events.status, events.body.code]).toEqual([415, 'events:unsupported_media_type']);
    expect((await http(platform, 'GET', `${curriculumV1}/kcs`, { token: caller.token })).body.data).toEqual([]);
    expect((await send('identity')).status).toBe(201);
  });
});
