import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { GraphQLError, visit, type DocumentNode } from 'graphql';
import type { ApolloServerPlugin } from '@apollo/server';
import { DomainError, type FieldError } from './errors.ts';

/**
 * Text no service can store: PostgreSQL text refuses the NUL character, and jsonb refuses a lone
 * UTF-16 surrogate (a JSON body may carry one as an escape such as "\udfff", while text columns
 * would silently turn it into U+FFFD). Either would otherwise surface as a database error deep
 * inside a command, or as a changed value. It is refused once, here, before any service sees the
 * request: on REST by a hook of the HTTP kit, on GraphQL by a plugin that reads the variables and
 * the document's string literals.
 */

const NUL = '\u0000';
const UNSTORABLE_MESSAGE = 'must not contain the NUL character (\\u0000) or a lone surrogate (\\uD800-\\uDFFF)';

/**
 * Arrays and objects nested deeper than this are refused here too. No documented body nests past a dozen
 * levels, and every walk of a value (this one, zod, canonical JSON, JSON.stringify) recurses: a body of
 * [[[...]]] some thousands deep overflowed the stack, and the client got a 500 for its own input.
 */
export const MAX_JSON_DEPTH = 256;
const TOO_DEEP_MESSAGE = `must not nest arrays and objects more than ${MAX_JSON_DEPTH} levels deep`;

const isUnstorable = (text: string) => text.includes(NUL) || !text.isWellFormed();

/** Field names as the client sent them, with a NUL shown escaped so the answer stays readable. */
const readable = (name: string) => name.replaceAll(NUL, '\\u0000');

/**
 * Neither text nor nested values: bytes (a zip upload), a stream (the gateway's REST proxy passes bodies through
 * unparsed).
 */
const isLeaf = (value: unknown) =>
  value === null || typeof value !== 'object' || ArrayBuffer.isView(value) || value instanceof Readable;

/**
 * A field error for every string (and object key) holding a NUL or a lone surrogate, by dotted path, and one for a
 * value nested too deep, named by its outermost field (the whole path would be hundreds of segments long).
 */
export function unstorableFieldErrors(value: unknown, path = '', depth = 0, outermost = path): FieldError[] {
  if (typeof value === 'string')
    return isUnstorable(value) ? [{ field: path || '(body)', message: UNSTORABLE_MESSAGE }] : [];
  // Query and params objects have their own prototypes.
  if (isLeaf(value)) return [];
  if (depth === MAX_JSON_DEPTH) return [{ field: outermost || '(body)', message: TOO_DEEP_MESSAGE }];
  if (Array.isArray(value))
    return value.flatMap((item, index) => {
      const field = path ? `${path}.${index}` : String(index);
      return unstorableFieldErrors(item, field, depth + 1, outermost || field);
    });
  return Object.entries(value as object).flatMap(([key, item]) => {
    const field = path ? `${path}.${key}` : key;
    return isUnstorable(key)
      ? [{ field: readable(field), message: UNSTORABLE_MESSAGE }]
      : unstorableFieldErrors(item, field, depth + 1, outermost || field);
  });
}

/** Dotted paths of every string (and object key) holding a NUL or a lone surrogate, and of a value nested too deep. */
export function fieldsWithUnstorableText(value: unknown): string[] {
  return unstorableFieldErrors(value).map((error) => error.field);
}

/**
 * Whether any string or object key in a plain JSON value is unstorable, or it nests too deep: the allocation-free
 * test every request pays.
 */
function containsUnstorableText(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return isUnstorable(value);
  if (isLeaf(value)) return false;
  if (depth === MAX_JSON_DEPTH) return true;
  if (Array.isArray(value)) {
    for (const item of value) if (containsUnstorableText(item, depth + 1)) return true;
    return false;
  }
  for (const key in value as object) {
    if (
      Object.hasOwn(value as object, key) &&
      (isUnstorable(key) || containsUnstorableText((value as Record<string, unknown>)[key], depth + 1))
    )
      return true;
  }
  return false;
}

function unstorableTextRefusal(fieldErrors: FieldError[]): DomainError {
  // One error per field and message, as each walk may name the same field.
  const unique = new Map(fieldErrors.map((error) => [`${error.field}\u0000${error.message}`, error]));
  return new DomainError('validation_failed', 'The request has invalid fields.', { fieldErrors: [...unique.values()] });
}

const textErrors = (fields: string[]): FieldError[] => fields.map((field) => ({ field, message: UNSTORABLE_MESSAGE }));

/**
 * Refuses a NUL or a lone surrogate in path parameters, query, header values or the parsed JSON body, and arrays
 * and objects nested deeper than MAX_JSON_DEPTH, with a 400 validation_failed naming each field. Runs before
 * validation in every route, in the namespace of the service that answers. GraphQL bodies are left to the GraphQL
 * plugin, which answers in GraphQL.
 */
export function refuseUnstorableTextInRequests(app: FastifyInstance, options: { graphqlPath: string }): void {
  app.addHook('preValidation', (request, _reply, done) => {
    // GraphQL carries its input in the query string (GET) or the body (POST): the plugin reads both.
    const isGraphql = request.routeOptions.url === options.graphqlPath;
    const clean =
      !containsUnstorableText(request.params) &&
      !containsUnstorableText(request.headers) &&
      (isGraphql || (!containsUnstorableText(request.query) && !containsUnstorableText(request.body)));
    if (clean) return done();
    const headers = Object.entries(request.headers).flatMap(([name, value]) =>
      fieldsWithUnstorableText(value).length > 0 ? [name] : [],
    );
    const fieldErrors = [
      ...unstorableFieldErrors(request.params),
      ...textErrors(headers),
      ...(isGraphql ? [] : [...unstorableFieldErrors(request.query), ...unstorableFieldErrors(request.body)]),
    ];
    done(fieldErrors.length > 0 ? unstorableTextRefusal(fieldErrors) : undefined);
  });
}

/**
 * Apollo hands over the same parsed document for the same query text, and its literals cannot
 * change: each document is read once. Variables are read on every request.
 */
const literalsRead = new WeakMap<DocumentNode, string[]>();

/** Inline string literals of a document holding a NUL or lone surrogate (e.g. "\u0000" in an argument), by argument name. */
function unstorableLiterals(document: DocumentNode): string[] {
  let fields = literalsRead.get(document);
  if (!fields) {
    fields = readUnstorableLiterals(document);
    literalsRead.set(document, fields);
  }
  return fields;
}

function readUnstorableLiterals(document: DocumentNode): string[] {
  const fields: string[] = [];
  const names: string[] = [];
  visit(document, {
    Argument: { enter: (node) => void names.push(node.name.value), leave: () => void names.pop() },
    ObjectField: { enter: (node) => void names.push(node.name.value), leave: () => void names.pop() },
    StringValue: (node) => {
      if (isUnstorable(node.value)) fields.push(names.join('.') || '(literal)');
    },
  });
  return fields;
}

/**
 * The GraphQL side of the same rule: a typed error (extensions.code validation_failed, HTTP 400)
 * before any resolver runs, or undefined. The REST hook does not read /graphql bodies, so this is the
 * only check there.
 */
export function unstorableTextInGraphql(
  request: { variables?: Record<string, unknown>; operationName?: string | null },
  document: DocumentNode,
): GraphQLError | undefined {
  const variables = request.variables ?? {};
  // The paths are collected only for a request that has something to refuse.
  const fieldErrors = [
    ...(containsUnstorableText(variables) ? unstorableFieldErrors(variables) : []),
    ...textErrors(unstorableLiterals(document)),
  ];
  if (request.operationName !== undefined && request.operationName !== null && isUnstorable(request.operationName))
    fieldErrors.push(...textErrors(['operationName']));
  if (fieldErrors.length === 0) return undefined;
  const refusal = unstorableTextRefusal(fieldErrors);
  // The formatter renders the DomainError (code, fieldErrors) in the answering service's namespace.
  return new GraphQLError(refusal.message, { originalError: refusal, extensions: { http: { status: 400 } } });
}

export function refuseUnstorableTextInGraphql<T extends object>(): ApolloServerPlugin<T> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ request, document }) {
          const refusal = unstorableTextInGraphql(request, document);
          if (refusal) throw refusal;
        },
      };
    },
  };
}
