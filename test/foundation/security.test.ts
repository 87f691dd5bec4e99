import { randomUUID } from 'node:crypto';
import { SignJWT, generateKeyPair } from 'jose';
import {
  buildClientSchema,
  getIntrospectionQuery,
  getNamedType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isScalarType,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLSchema,
} from 'graphql';
import { describe, expect as hardExpect } from 'vitest';
const expect = hardExpect.soft;
import { ALL_SERVICES } from '../../gateway/platform.ts';
import { DEMO_SCOPES } from '../../platform/auth.ts';
import { graphql, http, newTenant, roots, type Caller, type Reply, type TestPlatform } from '../kit.ts';
import { platformTest } from '../platform-test.ts';

/**
 * One security suite over every REST route each service serves in its /openapi.json and every root
 * field of the composed GraphQL schema: authentication, the scope check, content's tenant path and
 * the problem shape of every refusal. Requests run in parallel against one platform.
 */
const it = platformTest();

/** A documented operation: its security alternatives, each the scope and role names one token must all hold. */
interface Operation {
  security?: Array<{ bearer?: string[] }>;
  description?: string;
}

interface Route {
  method: string;
  path: string;
  operation: Operation;
}

async function documentedRoutes(platform: TestPlatform): Promise<Route[]> {
  const routes: Route[] = [];
  for (const service of ALL_SERVICES) {
    const openapi = await http(platform, 'GET', `${roots[service]}/openapi.json`);
    expect(openapi.status).toBe(200);
    for (const [path, operations] of Object.entries<Record<string, Operation>>(openapi.body.paths)) {
      for (const [method, operation] of Object.entries(operations))
        routes.push({ method: method.toUpperCase(), path, operation });
    }
  }
  return routes;
}

/** The routes that need a token: only the service index and the dev token mint are documented without one. */
async function servedRoutes(platform: TestPlatform): Promise<Route[]> {
  return (await documentedRoutes(platform)).filter((route) => route.operation.security?.length);
}

/** Alternatives as sorted name lists, sorted: two descriptions of one rule compare equal. */
const normalized = (alternatives: string[][]) => alternatives.map((names) => [...names].sort().join(' & ')).sort();

/** What a 403's detail says a token needs ("the scope a and b with one of the roles x, y, or ..."), as alternatives. */
function alternativesNamed(needs: string): string[][] {
  return needs.split(/, or (?=the scope |one of the roles )/).flatMap((alternative) => {
    const [scopePart, rolePart] = alternative.split(/(?:^| with )one of the roles /);
    const scopes = scopePart ? scopePart.replace(/^the scope /, '').split(' and ') : [];
    return rolePart ? rolePart.split(', ').map((role) => [...scopes, role]) : [scopes];
  });
}

function urlOf(route: Route, tenantId: string): string {
  return route.path.replace(/\{(\w+)\}/g, (_, name: string) => (name === 'tenantId' ? tenantId : randomUUID()));
}

function send(platform: TestPlatform, route: Route, url: string, token?: string): Promise<Reply> {
  const hasBody = route.method !== 'GET' && route.method !== 'DELETE';
  return http(platform, route.method, url, {
    token,
    body: hasBody ? {} : undefined,
    // Events are immutable: the events service refuses any If-Match (412) before it looks at the token.
    headers: { 'idempotency-key': randomUUID(), ...(route.path.startsWith(roots.events) ? {} : { 'if-match': '"0"' }) },
  });
}

function expectProblem(reply: Reply, status: number, label: string): void {
  expect(reply.status, `${label}: ${JSON.stringify(reply.body)}`).toBe(status);
  expect(reply.headers.get('content-type'), label).toContain('application/problem+json');
  expect(Object.keys(reply.body).sort(), label).toEqual(
    hardExpect.arrayContaining(['code', 'detail', 'requestId', 'status', 'title', 'traceId', 'type']),
  );
  expect(reply.body.status, label).toBe(status);
  for (const field of ['type', 'title', 'detail', 'code', 'requestId', 'traceId']) {
    expect(typeof reply.body[field], `${label} ${field}`).toBe('string');
  }
}

/** Tokens the platform must refuse: signed by another key, and its own key's token past expiry. */
async function refusedTokens(platform: TestPlatform, tenantId: string): Promise<Record<string, string>> {
  const { privateKey } = await generateKeyPair('ES256');
  const forged = await new SignJWT({ tenant_id: tenantId, scope: DEMO_SCOPES.join(' '), roles: ['demo'] })
    .setProtectedHeader({ alg: 'ES256', typ: 'JWT' })
    .setSubject('user:forger')
    .setIssuedAt()
    .setExpirationTime('1h')
    .sign(privateKey);
  const expired = await platform.runtime.auth.sign({
    tenantId,
    subject: 'user:late',
    scopes: DEMO_SCOPES,
    roles: ['demo'],
    ttlSeconds: -60,
  });
  return { forged, expired, malformed: 'not-a-token' };
}

/** A token of the right tenant that carries no scope and no role. */
const unscoped = (platform: TestPlatform, owner: Caller) =>
  newTenant(platform, { tenantId: owner.tenantId, scopes: [], roles: [] });

describe('every REST route', () => {
  it('answers 401 without a token and with a forged, expired or malformed one', async ({ platform, tenant }) => {
    const routes = await servedRoutes(platform);
    expect(routes.length).toBeGreaterThan(90);
    const tokens = await refusedTokens(platform, tenant.tenantId);
    await Promise.all(
      routes.flatMap((route) => {
        const url = urlOf(route, tenant.tenantId);
        return [undefined, ...Object.entries(tokens)].map(async (entry) => {
          const [label, token] = entry ?? ['no token', undefined];
          expectProblem(await send(platform, route, url, token), 401, `${route.method} ${route.path} ${label}`);
        });
      }),
    );
  });

  it('answers 403 to a token of the right tenant that lacks the scope', async ({ platform, tenant }) => {
    const routes = await servedRoutes(platform);
    const caller = await unscoped(platform, tenant);
    await Promise.all(
      routes.map(async (route) => {
        const url = urlOf(route, tenant.tenantId);
        const reply = await send(platform, route, url, caller.token);
        // A documented path that serves no method to anyone (events are immutable) says so first.
        const servesNobody = reply.status === 405 && (await send(platform, route, url, tenant.token)).status === 405;
        if (servesNobody) return;
        const label = `${route.method} ${route.path} unscoped`;
        expectProblem(reply, 403, label);
        // The access the operation checks is the access it documents: a route describing one rule and checking another fails.
        const needs = /it needs (.+)\.$/.exec(String(reply.body.detail))?.[1];
        expect(needs, `${label}: ${reply.body.detail}`).toBeDefined();
        const documented = route.operation.security?.map((requirement) => requirement.bearer ?? []) ?? [];
        expect(normalized(alternativesNamed(needs ?? '')), label).toEqual(normalized(documented));
        expect(route.operation.description, label).toContain(`Needs ${needs}.`);
      }),
    );
  });

  it('documents no security on the public operations only: the service index and the dev token mint', async ({
    platform,
  }) => {
    const open = (await documentedRoutes(platform)).filter((route) => !route.operation.security?.length);
    expect(open.map((route) => `${route.method} ${route.path}`).sort()).toEqual(
      ALL_SERVICES.flatMap((service) => [`GET ${roots[service]}`, `POST ${roots[service]}/dev/mint`]).sort(),
    );
    for (const route of open) expect(route.operation.security, `${route.method} ${route.path}`).toEqual([]);
  });

  it("refuses another tenant's token on content's tenant path (403 content.tenant_mismatch)", async ({
    platform,
    tenant,
  }) => {
    const tenantPaths = (await servedRoutes(platform)).filter((route) => route.path.includes('{tenantId}'));
    expect(tenantPaths.length).toBeGreaterThan(30);
    const stranger = await newTenant(platform);
    await Promise.all(
      tenantPaths.map(async (route) => {
        const reply = await send(platform, route, urlOf(route, tenant.tenantId), stranger.token);
        const label = `${route.method} ${route.path} other tenant`;
        expectProblem(reply, 403, label);
        expect(reply.body.code, label).toBe('content.tenant_mismatch');
      }),
    );
  });
});

async function apiSchema(platform: TestPlatform, token: string): Promise<GraphQLSchema> {
  const introspection = await graphql(platform, getIntrospectionQuery(), {}, token);
  expect(introspection.body.errors).toBeUndefined();
  return buildClientSchema(introspection.body.data);
}

/** A value the type accepts, so that the request reaches the resolver instead of failing coercion. */
function sampleOf(type: GraphQLInputType): unknown {
  if (isNonNullType(type)) return sampleOf(type.ofType);
  if (isListType(type)) return [sampleOf(type.ofType)];
  if (isEnumType(type)) return type.getValues()[0].value;
  if (isInputObjectType(type)) {
    return Object.fromEntries(
      Object.values(type.getFields())
        .filter((field) => isNonNullType(field.type) && field.defaultValue === undefined)
        .map((field) => [field.name, sampleOf(field.type)]),
    );
  }
  if (isScalarType(type)) {
    const samples: Record<string, unknown> = {
      Int: 1,
      Float: 1,
      Boolean: false,
      DateTime: '2026-01-01T00:00:00Z',
      JSONObject: {},
      JSON: {},
    };
    return samples[type.name] ?? randomUUID();
  }
  return null;
}

interface RootField {
  operation: 'query' | 'mutation';
  field: GraphQLField<unknown, unknown>;
}

function rootFields(schema: GraphQLSchema): RootField[] {
  const fields: RootField[] = [];
  for (const operation of ['query', 'mutation'] as const) {
    const root = operation === 'query' ? schema.getQueryType() : schema.getMutationType();
    for (const field of Object.values(root?.getFields() ?? {})) fields.push({ operation, field });
  }
  return fields;
}

function operationOf({ operation, field }: RootField): { query: string; variables: Record<string, unknown> } {
  const required = field.args.filter((arg) => isNonNullType(arg.type) && arg.defaultValue === undefined);
  const declared = required.map((arg) => `$${arg.name}: ${arg.type.toString()}`).join(', ');
  const passed = required.map((arg) => `${arg.name}: $${arg.name}`).join(', ');
  const named = getNamedType(field.type);
  const selection = isScalarType(named) || isEnumType(named) ? '' : ' { __typename }';
  return {
    query: `${operation}${declared ? `(${declared})` : ''} { ${field.name}${passed ? `(${passed})` : ''}${selection} }`,
    variables: Object.fromEntries(required.map((arg) => [arg.name, sampleOf(arg.type)])),
  };
}

function expectGraphQLProblem(reply: Reply, code: RegExp, label: string): void {
  const errors = reply.body.errors as Array<{ message: string; extensions?: Record<string, unknown> }>;
  expect(errors?.length, `${label}: ${JSON.stringify(reply.body)}`).toBeGreaterThan(0);
  for (const error of errors) {
    expect(error.extensions?.code, `${label}: ${JSON.stringify(error)}`).toMatch(code);
    expect(typeof error.message, label).toBe('string');
    expect(typeof error.extensions?.status, label).toBe('number');
  }
}

describe('a refused token', () => {
  it('says what is wrong with it, and never blames keys nobody was asked for', async ({ platform, tenant }) => {
    const tokens = await refusedTokens(platform, tenant.tenantId);
    const details = {
      ...tokens,
      'three parts, none of them JSON': 'not.a.token',
      'a JSON header over an unreadable payload': `${Buffer.from('{"alg":"ES256"}').toString('base64url')}.%%.x`,
    };
    const expected: Record<string, RegExp> = {
      forged: /signature is not valid/,
      expired: /has expired/,
      malformed: /malformed or not valid/,
      'three parts, none of them JSON': /malformed or not valid/,
      'a JSON header over an unreadable payload': /malformed or not valid/,
    };
    for (const [label, token] of Object.entries(details)) {
      const reply = await http(platform, 'GET', `${roots.curriculum}/alpha/curriculum/v1/components`, { token });
      expectProblem(reply, 401, label);
      expect(reply.body.detail, label).toMatch(expected[label]);
    }
  });
});

describe('every GraphQL root field', () => {
  it('refuses no token and a forged, expired or malformed one (unauthenticated)', async ({ platform, tenant }) => {
    const fields = rootFields(await apiSchema(platform, tenant.token));
    expect(fields.length).toBeGreaterThan(40);
    const tokens = await refusedTokens(platform, tenant.tenantId);
    await Promise.all(
      fields.flatMap((root) => {
        const { query, variables } = operationOf(root);
        return [undefined, ...Object.entries(tokens)].map(async (entry) => {
          const [label, token] = entry ?? ['no token', undefined];
          const reply = await graphql(platform, query, variables, token);
          expectGraphQLProblem(reply, /^\w+[.:]unauthenticated$/, `${root.field.name} ${label}`);
        });
      }),
    );
  });

  it('refuses a token of the right tenant that lacks the scope (forbidden)', async ({ platform, tenant }) => {
    const fields = rootFields(await apiSchema(platform, tenant.token));
    const caller = await unscoped(platform, tenant);
    await Promise.all(
      fields.map(async (root) => {
        const { query, variables } = operationOf(root);
        const reply = await graphql(platform, query, variables, caller.token);
        expectGraphQLProblem(reply, /^\w+[.:]forbidden$/, `${root.field.name} unscoped`);
      }),
    );
  });
});
