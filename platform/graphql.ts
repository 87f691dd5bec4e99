import DataLoader from 'dataloader';
import { JSONObjectResolver, JSONResolver } from 'graphql-scalars';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import {
  GraphQLError,
  Kind,
  getOperationAST,
  isObjectType,
  parse,
  validate,
  valueFromASTUntyped,
  type OperationDefinitionNode,
  type GraphQLFieldResolver,
  type GraphQLObjectType,
  type GraphQLSchema,
  type GraphQLFormattedError,
} from 'graphql';
import type { GatewayGraphQLResponse } from '@apollo/server-gateway-interface';
import type { GraphQLDataSource, GraphQLDataSourceProcessOptions } from '@apollo/gateway';
import { buildSubgraphSchema } from '@apollo/subgraph';
import type { GraphQLResolverMap } from '@apollo/subgraph/dist/schema-helper/index.js';
import { vendorTenantRefusal, type Authenticator, type Principal } from './auth.ts';
import { DomainError, formatProblem, isUnexpectedError, type ProblemNamespace } from './errors.ts';
import type { RequestContext } from './context.ts';

/**
 * What every resolver receives. One object per incoming request: in the embedded mode the gateway's
 * context is handed to the local subgraphs as it is, so loaders are shared across the whole request.
 */
export interface GraphContext {
  requestId: string;
  traceId: string;
  principal: Principal | undefined;
  authError: DomainError | undefined;
  loaders: Map<string, DataLoader<string, unknown>>;
  now: Date;
}

export async function graphContextFrom(
  auth: Authenticator,
  headers: Record<string, string | string[] | undefined>,
  ids: { requestId: string; traceId: string },
): Promise<GraphContext> {
  const authorization = headers.authorization;
  let principal: Principal | undefined;
  let authError: DomainError | undefined;
  if (typeof authorization === 'string') {
    try {
      principal = await auth.authenticate(authorization);
    } catch (error) {
      authError = error instanceof DomainError ? error : new DomainError('unauthenticated');
    }
  }
  // The events paths' tenant header holds here as there: a request naming another tenant reads nothing.
  const vendorTenant = headers['x-vendor-tenant'];
  const refusal =
    principal && vendorTenantRefusal(Array.isArray(vendorTenant) ? vendorTenant[0] : vendorTenant, principal);
  if (refusal) [principal, authError] = [undefined, refusal];
  // Written out: V8 (Node 20) adds each property after a spread through its runtime, about 1 us apiece.
  return { requestId: ids.requestId, traceId: ids.traceId, principal, authError, loaders: new Map(), now: new Date() };
}

/** The caller's request context, or the authentication problem the token had. */
export function requestContextOf(context: GraphContext): RequestContext {
  if (!context.principal)
    throw context.authError ?? new DomainError('unauthenticated', 'Send Authorization: Bearer <token>.');
  return {
    principal: context.principal,
    tenantId: context.principal.tenantId,
    requestId: context.requestId,
    traceId: context.traceId,
    now: context.now,
  };
}

/** One loader per name per request: `__resolveReference` and list fields only call `.load`. */
function requestLoader<V>(
  context: GraphContext,
  name: string,
  batch: (ctx: RequestContext, keys: readonly string[]) => Promise<Array<V | Error>>,
): DataLoader<string, V> {
  let loader = context.loaders.get(name) as DataLoader<string, V> | undefined;
  if (!loader) {
    const ctx = requestContextOf(context);
    loader = new DataLoader<string, V>((keys) => batch(ctx, keys), { maxBatchSize: 500 });
    context.loaders.set(name, loader as DataLoader<string, unknown>);
  }
  return loader;
}

/** Entities by id: the batch answers each key's entity or null. */
export function loaderOf<V>(
  context: GraphContext,
  name: string,
  /** An Error in place of a value rejects that key's load only. */
  batch: (ctx: RequestContext, keys: readonly string[]) => Promise<Array<V | Error | null>>,
): DataLoader<string, V | null> {
  return requestLoader<V | null>(context, name, batch);
}

/** The lists keys own (children, tags, relations): a key the batch's map lacks owns none. */
export function listLoaderOf<V>(
  context: GraphContext,
  name: string,
  batch: (ctx: RequestContext, keys: readonly string[]) => Promise<Map<string, V[]>>,
): DataLoader<string, V[]> {
  return requestLoader(context, name, async (ctx, keys) => {
    const byKey = await batch(ctx, keys);
    return keys.map((key) => byKey.get(key) ?? []);
  });
}

/** A command's answer: GraphQL has no 201 or Idempotency-Replayed header to carry the rest. */
export async function commandValue<T>(command: Promise<{ value: T }>): Promise<T> {
  return (await command).value;
}

/** A single read by id answers null for an unknown id, as GraphQL lookups do; other problems stay errors. */
export async function nullWhenNotFound<T>(read: Promise<T>): Promise<T | null> {
  try {
    return await read;
  } catch (error) {
    if (error instanceof DomainError && error.code === 'not_found') return null;
    throw error;
  }
}

/**
 * The free-form scalars, one implementation for every subgraph: JSONObject (provenance, evidence,
 * Caliper references) is any JSON object with its keys as authored; JSON is any JSON value.
 */
export const JSONObjectScalar = JSONObjectResolver;
export const JSONScalar = JSONResolver;

const snakeNames = new Map<string, string>();
function snakeCase(name: string): string {
  let snake = snakeNames.get(name);
  if (snake === undefined) {
    snake = name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
    snakeNames.set(name, snake);
  }
  return snake;
}

/**
 * GraphQL names are the camelCase of the spec's snake_case names. Services return the REST shape,
 * and this default resolver reads `contentVersionId` from `content_version_id`, so the two
 * transports cannot drift apart field by field.
 */
export const snakeCaseFieldResolver: GraphQLFieldResolver<Record<string, unknown>, unknown> = (
  source,
  args,
  context,
  info,
) => {
  if (source === null || typeof source !== 'object') return undefined;
  const direct = source[info.fieldName];
  const value = direct !== undefined ? direct : source[snakeCase(info.fieldName)];
  return typeof value === 'function' ? value.call(source, args, context, info) : value;
};

/** The top-level fields of each resolvable `@key` of an entity type; none when the type is no entity here. */
function resolvableKeys(type: GraphQLObjectType): string[][] {
  const keys: string[][] = [];
  for (const node of [type.astNode, ...type.extensionASTNodes]) {
    for (const directive of node?.directives ?? []) {
      if (directive.name.value !== 'key') continue;
      const argument = (name: string) => directive.arguments?.find((arg) => arg.name.value === name)?.value;
      const fields = argument('fields');
      const resolvable = argument('resolvable');
      if (fields?.kind !== Kind.STRING || (resolvable?.kind === Kind.BOOLEAN && !resolvable.value)) continue;
      let depth = 0;
      const names: string[] = [];
      for (const token of fields.value.match(/[{}]|[_A-Za-z][_0-9A-Za-z]*/g) ?? []) {
        if (token === '{') depth += 1;
        else if (token === '}') depth -= 1;
        else if (depth === 0) names.push(token);
      }
      keys.push(names);
    }
  }
  return keys;
}

/**
 * `_entities` representations are the caller's input (a gateway's, or anyone's when a subgraph is
 * reached directly): an unknown `__typename` or a missing key field is refused as a client error
 * before any reference resolver runs.
 */
export function guardEntityRepresentations(schema: GraphQLSchema): void {
  const field = schema.getQueryType()?.getFields()._entities;
  const resolve = field?.resolve;
  if (!field || !resolve) return;
  // The schema's key directives never change: each type's keys are read from them once.
  const entityKeys = new Map<string, string[][]>();
  for (const type of Object.values(schema.getTypeMap())) {
    if (isObjectType(type)) entityKeys.set(type.name, resolvableKeys(type));
  }
  // Plain loops: this runs on every entity fetch, where a closure per representation was measurable.
  field.resolve = (source, args: { representations?: unknown }, context, info) => {
    const representations: unknown[] = Array.isArray(args.representations) ? args.representations : [];
    const fieldErrors: Array<{ field: string; message: string }> = [];
    for (let index = 0; index < representations.length; index++) {
      const sent = representations[index];
      const representation = (typeof sent === 'object' && sent !== null ? sent : {}) as Record<string, unknown>;
      const typename = representation.__typename;
      const keys = (typeof typename === 'string' ? entityKeys.get(typename) : undefined) ?? [];
      if (keys.length === 0)
        fieldErrors.push({
          field: `representations.${index}.__typename`,
          message: `${String(typename)} is no entity type of this subgraph`,
        });
      else if (!keys.some((key) => hasEveryField(representation, key)))
        fieldErrors.push({
          field: `representations.${index}`,
          message: `${typename} needs its key fields: ${keys.map((key) => key.join(' ')).join(' or ')}`,
        });
    }
    if (fieldErrors.length > 0) throw new DomainError('entity_representation_invalid', undefined, { fieldErrors });
    return resolve(source, args, context, info);
  };
}

function hasEveryField(representation: Record<string, unknown>, names: string[]): boolean {
  for (const name of names) if (representation[name] === undefined || representation[name] === null) return false;
  return true;
}

/**
 * The same code and details in `extensions` as the REST problem; unexpected errors keep their message to the logs.
 * Apollo adds a stack trace only when a developer opted in (GRAPHQL_STACK_TRACES), and it is kept then.
 */
export function formatGraphQLError(
  formatted: GraphQLFormattedError,
  error: unknown,
  namespace: ProblemNamespace | undefined,
): GraphQLFormattedError {
  const { stacktrace, ...extensions } = formatted.extensions ?? {};
  const trace = stacktrace ? { stacktrace } : {};
  const original = error instanceof GraphQLError ? error.originalError : error;
  // A downstream subgraph's error reaches the gateway as the plain object that subgraph already formatted.
  if (original instanceof Error && !(original instanceof GraphQLError)) {
    const { code, status, detail, fieldErrors, extensions: details } = formatProblem(original, namespace);
    const problem = { ...details, code, status, ...(fieldErrors ? { fieldErrors } : {}), ...trace };
    return isUnexpectedError(original)
      ? { message: detail, path: formatted.path, extensions: problem }
      : { ...formatted, message: detail, extensions: problem };
  }
  // graphql-js validation and parse errors are the client's.
  const code = extensions.code;
  return {
    ...formatted,
    ...(code === 'GRAPHQL_PARSE_FAILED' && causedByStackOverflow(error) ? { message: TOO_NESTED_TO_PARSE } : {}),
    extensions: { ...extensions, code: typeof code === 'string' ? code : 'GRAPHQL_VALIDATION_FAILED', ...trace },
  };
}

// graphql-js parses recursively: a document nested a few thousand levels deep (`[[[...]]]`) overflows the stack.
const TOO_NESTED_TO_PARSE = 'The query document nests values or selections too deeply to parse.';

function causedByStackOverflow(error: unknown): boolean {
  for (let cause = error; cause instanceof Error; cause = (cause as GraphQLError).originalError) {
    if (cause instanceof RangeError) return true;
  }
  return false;
}

/**
 * The gateway's formatter: a subgraph's error was already made safe (and given its service's code)
 * by that subgraph, so it passes through; anything raised in the gateway itself is formatted here.
 */
export function formatGatewayError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  if (typeof formatted.extensions?.serviceName === 'string' && typeof formatted.extensions.code === 'string')
    return formatted;
  return formatGraphQLError(formatted, error, undefined);
}

/**
 * The operation's variable defaults, as a client would send them (JSON values): graphql-jit refuses a
 * non-null variable the request leaves out even when the operation gives it a default, as the
 * planner does when the client's query declares one (`$id: ID! = "..."`).
 */
function variableDefaults(operation: OperationDefinitionNode | null | undefined): [string, unknown][] {
  return (operation?.variableDefinitions ?? []).flatMap((definition) =>
    definition.defaultValue ? [[definition.variable.name.value, valueFromASTUntyped(definition.defaultValue)]] : [],
  ) as [string, unknown][];
}

function withDefaults(
  variables: Record<string, unknown> | undefined,
  defaults: [string, unknown][],
): Record<string, unknown> | undefined {
  if (defaults.length === 0) return variables;
  const missing = defaults.filter(([name]) => variables?.[name] === undefined);
  return missing.length === 0 ? variables : { ...Object.fromEntries(missing), ...variables };
}

/** A subgraph operation compiled once, with the defaults of its variables. */
interface CompiledOperation {
  compiled: CompiledQuery;
  defaults: [string, unknown][];
}

/**
 * The embedded gateway's way to a subgraph: no network hop, and unlike Apollo's
 * LocalGraphQLDataSource it parses, validates and compiles (graphql-jit) each generated subgraph
 * operation once, since the query planner emits the same few operation texts again and again. Only the
 * operation is kept, keyed by its text and name: resolvers and statements run on every request.
 */
export class LocalSubgraphDataSource implements GraphQLDataSource<GraphContext> {
  /**
   * By text, then by operation name. The planner hands over the same text object from its cached plan,
   * whose hash the engine keeps, where a key made per request would be a new string to hash each time.
   */
  private readonly operations = new Map<string, Map<string | undefined, CompiledOperation>>();
  private operationCount = 0;

  constructor(
    private readonly schema: GraphQLSchema,
    private readonly namespace: ProblemNamespace,
    private readonly onUnexpectedError: (error: unknown) => void,
  ) {}

  async process(options: GraphQLDataSourceProcessOptions<GraphContext>): Promise<GatewayGraphQLResponse> {
    const source = options.request.query ?? '';
    const operationName = options.request.operationName;
    let operation = this.operations.get(source)?.get(operationName);
    if (!operation) {
      const document = parse(source);
      const errors = validate(this.schema, document);
      if (errors.length > 0) return { errors: errors.map((error) => error.toJSON()) };
      const compiled = compileQuery(this.schema, document, operationName);
      if (!isCompiledQuery(compiled)) return { errors: (compiled.errors ?? []).map((error) => error.toJSON()) };
      if (this.operationCount >= 1000) {
        this.operations.clear();
        this.operationCount = 0;
      }
      operation = { compiled, defaults: variableDefaults(getOperationAST(document, operationName)) };
      let named = this.operations.get(source);
      if (!named) this.operations.set(source, (named = new Map()));
      named.set(operationName, operation);
      this.operationCount += 1;
    }
    const result = await operation.compiled.query(
      undefined,
      options.context,
      withDefaults(options.request.variables, operation.defaults),
    );
    if (!result.errors) return { data: result.data as Record<string, unknown> };
    return {
      data: result.data as Record<string, unknown> | null,
      errors: result.errors.map((error) => {
        if (error.originalError && isUnexpectedError(error.originalError)) this.onUnexpectedError(error.originalError);
        return formatGraphQLError(error.toJSON(), error, this.namespace);
      }),
    };
  }
}

/**
 * A subgraph's schema from its SDL and its resolver map, typed by the service with the `Resolvers`
 * generated from that SDL (npm run codegen). @apollo/subgraph types `__resolveReference` as a field
 * resolver although it calls it as (reference, context, info), so no generated map fits its type:
 * the map is handed over as the loose object Apollo reads, here only.
 */
export function subgraphSchema(sdl: string, resolvers: object): GraphQLSchema {
  const schema = buildSubgraphSchema({ typeDefs: parse(sdl), resolvers: resolvers as GraphQLResolverMap<unknown> });
  // Every field the resolver map leaves out reads the REST shape's snake_case name. Set on the fields
  // themselves, since the compiled executor (graphql-jit) has no default field resolver to pass.
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    for (const field of Object.values(type.getFields())) field.resolve ??= snakeCaseFieldResolver;
  }
  return schema;
}
