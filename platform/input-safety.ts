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

const isUnstorable = (text: string) => text.includes(NUL) || !text.isWellFormed();

/** Field names as the client sent them, with a NUL shown escaped so the answer stays readable. */
const readable = (name: string) => name.replaceAll(NUL, '\\u0000');

/** Dotted paths of every string (and object key) holding a NUL or a lone surrogate, in plain JSON values. */
export function fieldsWithUnstorableText(value: unknown, path = ''): string[] {
  if (typeof value === 'string') return isUnstorable(value) ? [path || '(body)'] : [];
  if (Array.isArray(value))
    return value.flatMap((item, index) => fieldsWithUnstorableText(item, path ? `${path}.${index}` : String(index)));
  // A Buffer (zip upload) is bytes, not text; a stream (the gateway's REST proxy passes bodies through
  // unparsed) is the owning service's to read. Query and params objects have their own prototypes.
  if (value === null || typeof value !== 'object' || ArrayBuffer.isView(value) || value instanceof Readable) return [];
  return Object.entries(value).flatMap(([key, item]) => {
    const field = path ? `${path}.${key}` : key;
    return isUnstorable(key) ? [readable(field)] : fieldsWithUnstorableText(item, field);
  });
}

/** Whether any string or object key in a plain JSON value is unstorable: the allocation-free test every request pays. */
function containsUnstorableText(value: unknown): boolean {
  if (typeof value === 'string') return isUnstorable(value);
  if (Array.isArray(value)) return value.some(containsUnstorableText);
  if (value === null || typeof value !== 'object' || ArrayBuffer.isView(value) || value instanceof Readable)
    return false;
  for (const key in value) {
    if (
      Object.hasOwn(value, key) &&
      (isUnstorable(key) || containsUnstorableText((value as Record<string, unknown>)[key]))
    )
      return true;
  }
  return false;
}

function unstorableTextRefusal(fields: string[]): DomainError {
  const fieldErrors: FieldError[] = fields.map((field) => ({ field, message: UNSTORABLE_MESSAGE }));
  return new DomainError('validation_failed', 'The request has invalid fields.', { fieldErrors });
}

/**
 * Refuses a NUL or a lone surrogate in path parameters, query, header values or the parsed JSON body with a 400
 * validation_failed naming each field. Runs before validation in every route, in the namespace of
 * the service that answers. GraphQL bodies are left to the GraphQL plugin, which answers in GraphQL.
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
    const fields = [
      ...fieldsWithUnstorableText(request.params),
      ...headers,
      ...(isGraphql ? [] : [...fieldsWithUnstorableText(request.query), ...fieldsWithUnstorableText(request.body)]),
    ];
    done(fields.length > 0 ? unstorableTextRefusal([...new Set(fields)]) : undefined);
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
  const fields = [
    ...(containsUnstorableText(variables) ? fieldsWithUnstorableText(variables) : []),
    ...unstorableLiterals(document),
  ];
  if (request.operationName !== undefined && request.operationName !== null && isUnstorable(request.operationName))
    fields.push('operationName');
  if (fields.length === 0) return undefined;
  const refusal = unstorableTextRefusal([...new Set(fields)]);
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
