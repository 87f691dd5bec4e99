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
import { fieldsWithNul } from '../../platform/input-safety.ts';

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform();
});
afterAll(async () => {
  await platform?.close();
});

const NUL = '\u0000';

describe('fieldsWithNul', () => {
  it('names every string and key holding a NUL, at any depth, and ignores bytes', () => {
    expect(fieldsWithNul({ a: 'x', b: [{ c: `y${NUL}` }], [`k${NUL}`]: 1, d: Buffer.from([0]) })).toEqual([
      'b.0.c',
      'k\\u0000',
    ]);
    expect(fieldsWithNul(`${NUL}`)).toEqual(['(body)']);
    expect(fieldsWithNul({ a: 1, b: null, c: true })).toEqual([]);
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
