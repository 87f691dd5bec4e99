import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { GraphQLError, visit, type DocumentNode } from 'graphql';
import type { ApolloServerPlugin } from '@apollo/server';
import { DomainError, type FieldError } from './errors.ts';

/**
 * Inputs no service can store: PostgreSQL text refuses the NUL character, so a NUL anywhere in a
 * request would otherwise surface as a database error deep inside a command. It is refused once,
 * here, before any service sees the request: on REST by a hook of the HTTP kit, on GraphQL by a
 * plugin that reads the variables and the document's string literals.
 */

const NUL = '\u0000';
const NUL_MESSAGE = 'must not contain the NUL character (\\u0000)';

/** Field names as the client sent them, with a NUL shown escaped so the answer stays readable. */
const readable = (name: string) => name.replaceAll(NUL, '\\u0000');

/** Dotted paths of every string (and object key) holding a NUL, in plain JSON values. */
export function fieldsWithNul(value: unknown, path = ''): string[] {
  if (typeof value === 'string') return value.includes(NUL) ? [path || '(body)'] : [];
  if (Array.isArray(value))
    return value.flatMap((item, index) => fieldsWithNul(item, path ? `${path}.${index}` : String(index)));
  // A Buffer (zip upload) is bytes, not text; a stream (the gateway's REST proxy passes bodies through
  // unparsed) is the owning service's to read. Query and params objects have their own prototypes.
  if (value === null || typeof value !== 'object' || ArrayBuffer.isView(value) || value instanceof Readable) return [];
  return Object.entries(value).flatMap(([key, item]) => {
    const field = path ? `${path}.${key}` : key;
    return key.includes(NUL) ? [readable(field)] : fieldsWithNul(item, field);
  });
}

/** Whether any string or object key in a plain JSON value holds a NUL: the allocation-free test every request pays. */
function containsNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes(NUL);
  if (Array.isArray(value)) return value.some(containsNul);
  if (value === null || typeof value !== 'object' || ArrayBuffer.isView(value) || value instanceof Readable)
    return false;
  for (const key in value) {
    if (Object.hasOwn(value, key) && (key.includes(NUL) || containsNul((value as Record<string, unknown>)[key])))
      return true;
  }
  return false;
}

function nulRefusal(fields: string[]): DomainError {
  const fieldErrors: FieldError[] = fields.map((field) => ({ field, message: NUL_MESSAGE }));
  return new DomainError('validation_failed', 'The request has invalid fields.', { fieldErrors });
}

/**
 * Refuses a NUL in path parameters, query, header values or the parsed JSON body with a 400
 * validation_failed naming each field. Runs before validation in every route, in the namespace of
 * the service that answers. GraphQL bodies are left to the GraphQL plugin, which answers in GraphQL.
 */
export function refuseNulInRequests(app: FastifyInstance, options: { graphqlPath: string }): void {
  app.addHook('preValidation', (request, _reply, done) => {
    // GraphQL carries its input in the query string (GET) or the body (POST): the plugin reads both.
    const isGraphql = request.routeOptions.url === options.graphqlPath;
    const clean =
      !containsNul(request.params) &&
      !containsNul(request.headers) &&
      (isGraphql || (!containsNul(request.query) && !containsNul(request.body)));
    if (clean) return done();
    const headers = Object.entries(request.headers).flatMap(([name, value]) =>
      fieldsWithNul(value).length > 0 ? [name] : [],
    );
    const fields = [
      ...fieldsWithNul(request.params),
      ...headers,
      ...(isGraphql ? [] : [...fieldsWithNul(request.query), ...fieldsWithNul(request.body)]),
    ];
    done(fields.length > 0 ? nulRefusal([...new Set(fields)]) : undefined);
  });
}

/**
 * Apollo hands over the same parsed document for the same query text, and its literals cannot
 * change: each document is read once. Variables are read on every request.
 */
const literalsRead = new WeakMap<DocumentNode, string[]>();

/** Inline string literals of a document holding a NUL (e.g. "\u0000" in an argument), by argument name. */
function literalsWithNul(document: DocumentNode): string[] {
  let fields = literalsRead.get(document);
  if (!fields) {
    fields = readLiteralsWithNul(document);
    literalsRead.set(document, fields);
  }
  return fields;
}

function readLiteralsWithNul(document: DocumentNode): string[] {
  const fields: string[] = [];
  const names: string[] = [];
  visit(document, {
    Argument: { enter: (node) => void names.push(node.name.value), leave: () => void names.pop() },
    ObjectField: { enter: (node) => void names.push(node.name.value), leave: () => void names.pop() },
    StringValue: (node) => {
      if (node.value.includes(NUL)) fields.push(names.join('.') || '(literal)');
    },
  });
  return fields;
}

/**
 * The GraphQL side of the same rule: a typed error (extensions.code validation_failed, HTTP 400)
 * before any resolver runs. The REST hook does not read /graphql bodies, so this is the only check there.
 */
export function refuseNulInGraphql<T extends object>(): ApolloServerPlugin<T> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ request, document }) {
          const fields = [...fieldsWithNul(request.variables ?? {}), ...literalsWithNul(document)];
          if (request.operationName?.includes(NUL)) fields.push('operationName');
          if (fields.length === 0) return;
          const refusal = nulRefusal([...new Set(fields)]);
          // The formatter renders the DomainError (code, fieldErrors) in the answering service's namespace.
          throw new GraphQLError(refusal.message, { originalError: refusal, extensions: { http: { status: 400 } } });
        },
      };
    },
  };
}
