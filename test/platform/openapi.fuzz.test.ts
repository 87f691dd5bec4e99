import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_SCOPES } from '../../platform/auth.ts';
import { newTenant, roots, startTestPlatform, type Caller, type TestPlatform } from '../kit.ts';

/**
 * Schema-driven fuzzing of every operation of every served OpenAPI description: for each one a
 * bounded number of requests generated from its parameter and body schemas, mixed with hostile
 * values (NUL, huge, odd unicode, wrong types). Asserts no 5xx, a problem+json body on every 4xx and
 * JSON on every 2xx. Seeded: FUZZ_SEED=<printed seed> replays a failure exactly.
 */

const SEED = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
const RUNS_PER_OPERATION = Number(process.env.FUZZ_RUNS ?? 15);
const SERVICES = ['curriculum', 'content', 'events'] as const;

type JsonSchema = {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
};

interface Operation {
  service: string;
  method: string;
  path: string;
  parameters: Array<{ in: string; name: string; required?: boolean; schema: JsonSchema }>;
  body: JsonSchema | undefined;
}

/** Strings careless and hostile clients send. */
const HOSTILE_STRINGS = [
  '\u0000',
  'a\u0000b',
  '\uD800',
  '\uDFFF\uD800',
  '😀👩‍👩‍👧',
  '\u202Eevil',
  '\u200B',
  'Ω≈ç√∫',
  "' OR 1=1 --",
  '../../etc/passwd',
  '%00',
  '%',
  '<script>alert(1)</script>',
  '${jndi:ldap://x}',
  ' ',
  '',
  '-1',
  '1e309',
  '9'.repeat(40),
  'null',
  'true',
  '2024-13-45T25:61:61Z',
  'x'.repeat(5000),
];

/** Path segments sent as they are: broken percent-encoding, an overlong segment. */
const RAW_PATH_SEGMENTS = ['%E6%84', '%ZZ', '%', '%C0%AF', '%ED%A0%80', 'a'.repeat(300)];

const hostileString = fc.oneof(
  fc.constantFrom(...HOSTILE_STRINGS),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ maxLength: 2 }),
);
/** Text PostgreSQL cannot store: the class of input that reached the database as a 500 before. */
const nulString = fc
  .tuple(fc.string({ maxLength: 6 }), fc.string({ maxLength: 6 }))
  .map(([before, after]) => `${before}\u0000${after}`);

const wrongValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: nulString },
  { weight: 4, arbitrary: hostileString },
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constant([]),
  fc.constant({}),
  fc.constant({ nested: { deeper: ['\u0000'] } }),
);

/** A value the schema describes (formats and enumerations honoured, patterns not). */
function arbitraryOf(schema: JsonSchema | undefined, depth = 0): fc.Arbitrary<unknown> {
  return validOf(schema ?? {}, depth);
}

function validOf(schema: JsonSchema, depth: number): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives?.length) return fc.oneof(...alternatives.map((alternative) => arbitraryOf(alternative, depth)));
  if (schema.allOf?.length) return arbitraryOf(schema.allOf[0], depth);
  const type = Array.isArray(schema.type) ? schema.type.filter((name) => name !== 'null')[0] : schema.type;
  switch (type) {
    case 'string':
      return stringOf(schema);
    case 'integer':
      return fc.integer({ min: Math.max(schema.minimum ?? -1000, -1e9), max: Math.min(schema.maximum ?? 1000, 1e9) });
    case 'number':
      return fc.double({ min: schema.minimum ?? -1e6, max: schema.maximum ?? 1e6, noNaN: true });
    case 'boolean':
      return fc.boolean();
    case 'array':
      if (depth > 4) return fc.constant([]);
      return fc.array(arbitraryOf(schema.items, depth + 1), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.min(schema.maxItems ?? 3, 3),
      });
    case 'object':
    default:
      if (!schema.properties || depth > 4)
        return fc.dictionary(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 }), { maxKeys: 2 });
      return objectOf(schema, depth);
  }
}

function stringOf(schema: JsonSchema): fc.Arbitrary<string> {
  const bounded = fc.string({ minLength: schema.minLength ?? 0, maxLength: Math.min(schema.maxLength ?? 20, 20) });
  switch (schema.format) {
    case 'uuid':
      return fc.oneof(fc.uuid(), bounded);
    case 'date-time':
      return fc.oneof(
        fc.date({ noInvalidDate: true }).map((date) => date.toISOString()),
        bounded,
      );
    case 'date':
      return fc.oneof(
        fc.date({ noInvalidDate: true }).map((date) => date.toISOString().slice(0, 10)),
        bounded,
      );
    case 'uri':
      return fc.oneof(fc.webUrl(), bounded);
    default:
      return fc.oneof(bounded, fc.uuid());
  }
}

function objectOf(schema: JsonSchema, depth: number): fc.Arbitrary<unknown> {
  const properties = schema.properties ?? {};
  const required = new Set(schema.required ?? []);
  const record: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [name, property] of Object.entries(properties)) record[name] = arbitraryOf(property, depth + 1);
  const requiredKeys = Object.keys(properties).filter((name) => required.has(name));
  return fc.record(record, { requiredKeys });
}

/**
 * The value with one of its slots (a leaf, or the whole value) replaced: one hostile value inside an
 * otherwise valid request reaches furthest into a service.
 */
function mutated(value: unknown, pick: number, replacement: unknown): unknown {
  const slots = slotsOf(value);
  const target = slots[pick % slots.length];
  if (target.length === 0) return replacement;
  const copy = structuredClone(value) as Record<string, unknown>;
  let holder: Record<string, unknown> = copy;
  for (const key of target.slice(0, -1)) holder = holder[key] as Record<string, unknown>;
  holder[target[target.length - 1]] = replacement;
  return copy;
}

function slotsOf(value: unknown, path: string[] = []): string[][] {
  if (value === null || typeof value !== 'object') return [path];
  const children = Object.entries(value).flatMap(([key, child]) => slotsOf(child, [...path, key]));
  return [path, ...children, [...path, '__unknown_field']];
}

function operationsOf(
  service: string,
  document: { paths: Record<string, Record<string, Record<string, unknown>>> },
): Operation[] {
  return Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => {
      const content = (operation.requestBody as { content?: Record<string, { schema: JsonSchema }> } | undefined)
        ?.content;
      return {
        service,
        method: method.toUpperCase(),
        path,
        parameters: (operation.parameters as Operation['parameters'] | undefined) ?? [],
        body: content?.['application/json']?.schema,
      };
    }),
  );
}

interface FuzzRequest {
  url: string;
  headers: Record<string, string>;
  body: unknown;
}

/** One request of the operation: path parameters stay in the caller's tenant most of the time. */
function requestsOf(operation: Operation, caller: Caller): fc.Arbitrary<FuzzRequest> {
  const byLocation = (location: string) => operation.parameters.filter((parameter) => parameter.in === location);
  const pathValues = fc.record(
    Object.fromEntries(
      byLocation('path').map((parameter) => [
        parameter.name,
        parameter.name === 'tenantId'
          ? fc.oneof({ weight: 5, arbitrary: fc.constant(caller.tenantId) }, { weight: 1, arbitrary: hostileString })
          : fc.oneof(
              fc.uuid(),
              fc.constantFrom('demo', 'x'),
              hostileString,
              fc.constantFrom(...RAW_PATH_SEGMENTS).map((raw) => ({ raw })),
            ),
      ]),
    ),
  );
  const queryParameters = byLocation('query');
  const query = fc
    .subarray(queryParameters, { maxLength: Math.min(2, queryParameters.length) })
    .chain((chosen) =>
      fc.record(Object.fromEntries(chosen.map((parameter) => [parameter.name, arbitraryOf(parameter.schema)]))),
    );
  const body = operation.body ? arbitraryOf(operation.body) : fc.constant(undefined);
  // Where the one hostile value goes: nowhere, the query, or the body.
  const mutation = fc.record({
    where: fc.constantFrom('none', 'query', 'body', 'body'),
    pick: fc.nat(),
    value: wrongValue,
  });
  return fc
    .record({ pathValues, query, body, mutation, ifMatch: fc.option(fc.oneof(fc.constant('"0"'), hostileString)) })
    .map(({ pathValues: values, query: q, body: b, mutation: m, ifMatch }) => {
      const url = operation.path.replace(/\{(\w+)\}/g, (_match, name: string) => {
        const value = values[name];
        return typeof value === 'object' && value !== null ? value.raw : percentEncoded(String(value ?? 'x'));
      });
      const queryValues: Record<string, unknown> = { ...q };
      if (m.where === 'query' && queryParameters.length > 0)
        queryValues[queryParameters[m.pick % queryParameters.length].name] = m.value;
      const sentBody = m.where === 'body' && b !== undefined ? mutated(b, m.pick, m.value) : b;
      const search = new URLSearchParams();
      for (const [name, value] of Object.entries(queryValues)) {
        search.append(name, typeof value === 'string' ? value : JSON.stringify(value));
      }
      const headers: Record<string, string> = {
        authorization: `Bearer ${caller.token}`,
        'idempotency-key': randomUUID(),
      };
      // fetch refuses header values with control or non-Latin-1 characters before sending anything.
      // eslint-disable-next-line no-control-regex
      if (ifMatch !== null && !/[\u0000-\u001f\u007f-\uffff]/.test(ifMatch)) {
        headers['if-match'] = ifMatch;
        headers['x-curriculum-if-match'] = ifMatch;
      }
      if (sentBody !== undefined) headers['content-type'] = 'application/json';
      return { url: search.size > 0 ? `${url}?${search}` : url, headers, body: sentBody };
    });
}

/** Every byte of the UTF-8 (lone surrogates become U+FFFD, as a client's encoder makes them). */
function percentEncoded(value: string): string {
  return [...Buffer.from(value, 'utf8')]
    .map((byte) =>
      /[A-Za-z0-9_.~-]/.test(String.fromCharCode(byte))
        ? String.fromCharCode(byte)
        : `%${byte.toString(16).padStart(2, '0')}`,
    )
    .join('');
}

/** What is wrong with the answer, if anything. */
async function faultOf(
  platform: TestPlatform,
  operation: Operation,
  request: FuzzRequest,
): Promise<string | undefined> {
  const response = await fetch(`${platform.url}${request.url}`, {
    method: operation.method,
    headers: request.headers,
    body: request.body === undefined ? undefined : JSON.stringify(request.body),
  });
  const text = await response.text();
  const type = response.headers.get('content-type') ?? '';
  if (response.status >= 500) return `${response.status} ${text.slice(0, 300)}`;
  if (response.status >= 400) {
    if (!type.startsWith('application/problem+json'))
      return `${response.status} answered ${type}, not application/problem+json`;
    const problem = JSON.parse(text) as { status?: number; code?: string };
    if (problem.status !== response.status || typeof problem.code !== 'string')
      return `${response.status} problem body ${text.slice(0, 200)}`;
    return undefined;
  }
  if (response.status === 204 || !type.includes('json'))
    return response.status === 204 || text === '' ? undefined : `${response.status} ${type} body is not JSON`;
  try {
    JSON.parse(text);
  } catch {
    return `${response.status} body is not valid JSON`;
  }
  return undefined;
}

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform({ seedDemo: false });
  console.log(`OpenAPI fuzz seed ${SEED} (replay: FUZZ_SEED=${SEED})`);
});
afterAll(async () => {
  await platform?.close();
});

describe('fuzzing every documented operation', () => {
  it.each(SERVICES)(
    '%s: no 5xx, problem+json on every 4xx, JSON on every 2xx',
    async (service) => {
      const document = await (await fetch(`${platform.url}${roots[service]}/openapi.json`)).json();
      const operations = operationsOf(service, document);
      expect(operations.length).toBeGreaterThan(10);
      const caller = await newTenant(platform, { scopes: DEMO_SCOPES, roles: ['demo', 'reviewer', 'operator'] });
      const faults: string[] = [];
      for (const [index, operation] of operations.entries()) {
        const result = await fc.check(
          fc.asyncProperty(requestsOf(operation, caller), async (request) => {
            const fault = await faultOf(platform, operation, request);
            if (fault) throw new Error(fault);
          }),
          { seed: SEED + index, numRuns: RUNS_PER_OPERATION, endOnFailure: true },
        );
        if (result.failed) {
          const [request] = result.counterexample ?? [];
          const error =
            result.errorInstance instanceof Error ? result.errorInstance.message : String(result.errorInstance);
          faults.push(
            `${operation.method} ${request?.url ?? operation.path} ${JSON.stringify(request?.body)?.slice(0, 300)} -> ${error}`,
          );
        }
      }
      if (faults.length > 0) console.log(`${service} faults (FUZZ_SEED=${SEED}):\n${faults.join('\n')}`);
      expect(faults, `seed ${SEED}`).toEqual([]);
    },
    120_000,
  );
});
