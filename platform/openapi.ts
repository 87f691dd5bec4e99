import { z } from 'zod';
import { accessAlternatives, accessNeeded, type AccessRule } from './auth.ts';
import { problemDefinition } from './errors.ts';

/**
 * The OpenAPI 3.1 description of one service, built from its route declarations: the same zod
 * schemas that check params, query and headers, document the body the service parses, and check
 * every 2xx answer before it is sent.
 */

export interface DescribedOperation {
  method: string;
  /** Fastify path, with :params. */
  url: string;
  tag: string;
  summary: string;
  description?: string;
  /** What a token needs (the rule the operation's service function checks); none on a public operation. */
  access?: AccessRule;
  params?: z.ZodType;
  querystring?: z.ZodType;
  headers?: z.ZodObject;
  body?: z.ZodType;
  success: { status: number; description: string };
  /** The 2xx body, or the media type of raw bytes. */
  response: z.ZodType | { bytes: string };
  /** Answers carry an ETag of the resource. */
  etag: boolean;
  /** Idempotency-Key replays answer this status with Idempotency-Replayed: true. */
  replayStatus?: number;
  /** Statuses of this route's own refusals, beyond the ones every route of its kind can answer. */
  errors: number[];
}

/** Operation ids come from the method and the path below the service's base (tenant and version segments dropped). */
const BASE_SEGMENTS = new Set(['tenants', ':tenantId', 'alpha', 'content', 'curriculum', 'v1']);

export function operationIdOf(method: string, url: string): string {
  const segments = url.split('/').filter((segment) => segment !== '' && !BASE_SEGMENTS.has(segment));
  const words = segments.map((segment) => (segment.startsWith(':') ? `by-${segment.slice(1)}` : segment));
  const camel = [method.toLowerCase(), ...words]
    .join('-')
    .split(/[-_]/)
    .map((word, index) => (index === 0 ? word : word.charAt(0).toUpperCase() + word.slice(1)))
    .join('');
  return words.length === 0 ? `${method.toLowerCase()}ServiceDescriptor` : camel;
}

export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output' = 'input'): Record<string, unknown> {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  return rest;
}

/** Named schemas of a description: a schema with a meta id (e.g. a recursive tree) is described once here. */
type NamedSchemas = Record<string, unknown>;

function describedSchemaOf(schema: z.ZodType, io: 'input' | 'output', named: NamedSchemas): Record<string, unknown> {
  const json = JSON.parse(JSON.stringify(jsonSchemaOf(schema, io)).replaceAll('"#/$defs/', '"#/components/schemas/'));
  const { $defs, ...rest } = json as { $defs?: NamedSchemas };
  Object.assign(named, $defs);
  return rest;
}

const PROBLEM_STATUSES: Record<number, string> = {
  400: 'validation_failed',
  401: 'unauthenticated',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  406: 'not_acceptable',
  409: 'idempotency_conflict',
  412: 'precondition_failed',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  428: 'precondition_required',
};

const STATUS_TEXT: Record<number, string> = {
  422: 'The request is well formed but breaks a rule of the domain',
  409: 'The request conflicts with the current state or an earlier use of its Idempotency-Key',
  502: 'A service this one depends on answered with an error',
  503: 'A service this one depends on did not answer',
};

function problemResponse(status: number): Record<string, unknown> {
  const code = PROBLEM_STATUSES[status];
  return {
    description: STATUS_TEXT[status] ?? (code ? problemDefinition(code).title : `Problem (${status})`),
    content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
  };
}

const ProblemSchema = z
  .object({
    type: z.url().describe('Absolute URI documenting the code: {public origin}/problems/{code}'),
    title: z.string(),
    status: z.number().int(),
    detail: z.string().optional(),
    code: z.string().describe('Stable machine-readable code, in the namespace of the service'),
    requestId: z.string().optional(),
    traceId: z.string().optional(),
    fieldErrors: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
  })
  .catchall(z.unknown())
  .describe('RFC 9457 problem details');

/** Path and query parameters from the properties of an object schema. */
function parametersOf(
  schema: z.ZodType | undefined,
  where: 'path' | 'query' | 'header',
  named: NamedSchemas,
): Array<Record<string, unknown>> {
  if (!schema) return [];
  const json = describedSchemaOf(schema, 'input', named) as {
    properties?: Record<string, Record<string, unknown>>;
    required?: string[];
  };
  return Object.entries(json.properties ?? {}).map(([name, property]) => {
    const { description, ...propertySchema } = property;
    return {
      name,
      in: where,
      required: where === 'path' || (json.required ?? []).includes(name),
      ...(description ? { description } : {}),
      schema: propertySchema,
    };
  });
}

function successResponses(operation: DescribedOperation, named: NamedSchemas): Record<string, unknown> {
  const content =
    'bytes' in operation.response
      ? {
          [operation.response.bytes]: { schema: { description: 'The stored bytes, sent with their own Content-Type' } },
        }
      : { 'application/json': { schema: describedSchemaOf(operation.response, 'output', named) } };
  const answerHeaders = {
    ...(operation.etag ? { ETag: { description: 'The entity tag of the resource', schema: { type: 'string' } } } : {}),
    ...(operation.headers?.shape.prefer
      ? {
          'Preference-Applied': {
            description: 'return=minimal when the answer is the minimal one the request preferred (RFC 7240)',
            schema: { type: 'string', enum: ['return=minimal'] },
          },
        }
      : {}),
  };
  const responses: Record<string, unknown> = {
    [operation.success.status]: {
      description: operation.success.description,
      ...(Object.keys(answerHeaders).length > 0 ? { headers: answerHeaders } : {}),
      content,
    },
  };
  if (operation.replayStatus !== undefined) {
    const replayed = {
      'Idempotency-Replayed': {
        description: 'true when this answers a retry of the same Idempotency-Key',
        schema: { type: 'string', enum: ['true'] },
      },
    };
    const same = operation.replayStatus === operation.success.status;
    responses[operation.replayStatus] = {
      description: same
        ? `${operation.success.description}; a replay of the same Idempotency-Key answers the same with Idempotency-Replayed: true`
        : 'An earlier identical request answered again (Idempotency-Replayed: true), or the existing resource updated or unchanged',
      headers: { ...answerHeaders, ...replayed },
      content,
    };
  }
  return responses;
}

function errorStatuses(operation: DescribedOperation): number[] {
  // Any request can be malformed (Fastify's own client errors answer 400 too).
  const statuses = new Set<number>([400, ...operation.errors]);
  if (!('bytes' in operation.response)) statuses.add(406);
  if (operation.access) {
    statuses.add(401);
    statuses.add(403);
  }
  if (
    operation.params &&
    Object.keys(jsonSchemaOf(operation.params).properties ?? {}).some((name) => name !== 'tenantId')
  ) {
    statuses.add(404);
  }
  if (operation.body) statuses.add(415);
  if (operation.replayStatus !== undefined) statuses.add(409);
  return [...statuses].sort((a, b) => a - b);
}

function describeOperation(operation: DescribedOperation, named: NamedSchemas): Record<string, unknown> {
  const responses = successResponses(operation, named);
  for (const status of errorStatuses(operation)) responses[status] = problemResponse(status);
  const parameters = [
    ...parametersOf(operation.params, 'path', named),
    ...parametersOf(operation.querystring, 'query', named),
    ...parametersOf(operation.headers, 'header', named),
  ];
  const { access } = operation;
  // The 403's detail names the same rule in the same words.
  const description = [operation.description, access && `Needs ${accessNeeded(access)}.`].filter(Boolean).join(' ');
  return {
    operationId: operationIdOf(operation.method, operation.url),
    summary: operation.summary,
    ...(description ? { description } : {}),
    tags: [operation.tag],
    security: access ? accessAlternatives(access).map((names) => ({ bearer: names })) : [],
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(operation.body
      ? {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: describedSchemaOf(operation.body, 'input', named) } },
          },
        }
      : {}),
    responses,
  };
}

/** The OpenAPI path of a Fastify url: {param} segments, and no trailing slash (the root is the descriptor). */
function openapiPath(url: string): string {
  const path = url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}

export function describeService(
  service: { title: string; description: string; root: string },
  operations: readonly DescribedOperation[],
): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  const named: NamedSchemas = { Problem: jsonSchemaOf(ProblemSchema, 'output') };
  for (const operation of operations) {
    const path = openapiPath(`${service.root}${operation.url}`);
    paths[path] ??= {};
    paths[path][operation.method.toLowerCase()] = describeOperation(operation, named);
  }
  const tags = [...new Set(operations.map((operation) => operation.tag))]
    .sort()
    .map((name) => ({ name, description: `The ${name} paths of the ${service.title.toLowerCase()}` }));
  return {
    openapi: '3.1.0',
    info: {
      title: service.title,
      description: service.description,
      version: '1.0.0',
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [{ url: '/', description: 'The platform origin that serves this description' }],
    security: [{ bearer: [] }],
    tags,
    paths,
    components: {
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description:
            "A token of one tenant, its scopes in the space-separated scope claim and its roles in roles. Each operation's security lists its alternatives, each the scope and role names one token must all hold (its description says which are roles); a 403 names them too. The demo tenant's token (unless DEV_ROUTES=off): " +
            `POST ${service.root}/dev/mint?tenantId=demo, no credential.`,
        },
      },
      schemas: named,
    },
  };
}

/** Members of answer schemas, shared by every service. */
export const Timestamp = z.iso.datetime().describe('ISO 8601, UTC');
export const JsonObject = z.record(z.string(), z.unknown());

/** One page of a keyset-paged list. */
export function PageResponse<T extends z.ZodType>(item: T) {
  return z.strictObject({
    data: z.array(item),
    next_cursor: z.string().nullable().describe('Send as cursor for the next page'),
  });
}
