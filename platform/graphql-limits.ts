import {
  GraphQLError,
  Kind,
  SchemaMetaFieldDef,
  TypeMetaFieldDef,
  getNamedType,
  isInterfaceType,
  isListType,
  isNonNullType,
  isObjectType,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLOutputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import type { ApolloServerPlugin } from '@apollo/server';
import type { GraphContext } from './graphql.ts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { QueryLimits } from './config.ts';
import { DEFAULT_PAGE_SIZE } from './cursor.ts';

/**
 * Refusals of a GraphQL request before any resolver runs. They are protocol errors, not domain ones,
 * so they use Apollo's upper-case family (like GRAPHQL_VALIDATION_FAILED), the same at the gateway
 * and in every subgraph.
 */
export const QUERY_REFUSAL_CODES = {
  documentTooLarge: 'GRAPHQL_DOCUMENT_TOO_LARGE',
  tooDeep: 'GRAPHQL_QUERY_TOO_DEEP',
  tooManyAliases: 'GRAPHQL_TOO_MANY_ALIASES',
  tooManyRootFields: 'GRAPHQL_TOO_MANY_ROOT_FIELDS',
  listTooLarge: 'GRAPHQL_LIST_TOO_LARGE',
  tooComplex: 'GRAPHQL_QUERY_TOO_COMPLEX',
  operationNotResolved: 'OPERATION_RESOLUTION_FAILURE',
  persistedQueryNotFound: 'PERSISTED_QUERY_NOT_FOUND',
} as const;

const PAGE_SIZE_ARGUMENTS = new Set(['limit', 'first']);
/** A list with no size argument (e.g. a component's children) is assumed this long. */
export const ASSUMED_LIST_SIZE = 10;

export interface QueryMeasure {
  depth: number;
  aliases: number;
  rootFields: number;
  /** The largest `limit`/`first` the operation asks for. */
  largestList: number;
  cost: number;
}

interface Extent {
  depth: number;
  cost: number;
}

/**
 * One pass over the operation, fragments measured once per use context. A field costs 1 plus its
 * selections; a list field multiplies that by its size: its own `limit`/`first`, else the one its
 * paged parent was given (a page's `data`), else ASSUMED_LIST_SIZE. Introspection is measured for
 * depth only, `ofType` chains not counted: the introspection switch, off in production, guards it.
 */
class Measurer {
  readonly fragments = new Map<string, FragmentDefinitionNode>();
  private readonly spreads = new Map<string, Extent>();
  largestList = 0;
  /** Whether a list size came from a variable, so the measure holds for these variables only. */
  readVariables = false;

  constructor(
    private readonly schema: GraphQLSchema,
    document: DocumentNode,
    private readonly variables: Record<string, unknown>,
  ) {
    for (const definition of document.definitions) {
      if (definition.kind === Kind.FRAGMENT_DEFINITION) this.fragments.set(definition.name.value, definition);
    }
  }

  selections(
    set: SelectionSetNode,
    parent: GraphQLNamedType | undefined,
    pageSize: number | undefined,
    introspection: boolean,
  ): Extent {
    let depth = 0;
    let cost = 0;
    for (const selection of set.selections) {
      let extent: Extent;
      if (selection.kind === Kind.FIELD) {
        extent = this.field(selection, parent, pageSize, introspection);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        const type = selection.typeCondition ? this.schema.getType(selection.typeCondition.name.value) : parent;
        extent = this.selections(selection.selectionSet, type ?? undefined, pageSize, introspection);
      } else {
        extent = this.spread(selection.name.value, pageSize, introspection);
      }
      depth = Math.max(depth, extent.depth);
      cost += extent.cost;
    }
    return { depth, cost };
  }

  private spread(name: string, pageSize: number | undefined, introspection: boolean): Extent {
    const key = `${name}\u0000${pageSize}\u0000${introspection}`;
    const known = this.spreads.get(key);
    if (known) return known;
    // Validation has refused fragment cycles already; the placeholder only keeps a cycle finite.
    this.spreads.set(key, { depth: 0, cost: 0 });
    const fragment = this.fragments.get(name);
    const extent = fragment
      ? this.selections(
          fragment.selectionSet,
          this.schema.getType(fragment.typeCondition.name.value) ?? undefined,
          pageSize,
          introspection,
        )
      : { depth: 0, cost: 0 };
    this.spreads.set(key, extent);
    return extent;
  }

  private field(
    node: FieldNode,
    parent: GraphQLNamedType | undefined,
    pageSize: number | undefined,
    introspection: boolean,
  ): Extent {
    const name = node.name.value;
    const inIntrospection = introspection || name === '__schema' || name === '__type';
    const ownLevel = introspection && name === 'ofType' ? 0 : 1;
    if (!node.selectionSet) return { depth: ownLevel, cost: inIntrospection ? 0 : 1 };
    const definition = this.definitionOf(parent, name);
    const requested = this.requestedSize(node);
    const ownSize =
      requested ?? (definition?.args.some((arg) => PAGE_SIZE_ARGUMENTS.has(arg.name)) ? DEFAULT_PAGE_SIZE : undefined);
    const list = definition ? isList(definition.type) : false;
    const child = this.selections(
      node.selectionSet,
      definition ? getNamedType(definition.type) : undefined,
      list ? undefined : ownSize,
      inIntrospection,
    );
    const multiplier = list ? (ownSize ?? pageSize ?? ASSUMED_LIST_SIZE) : 1;
    return { depth: ownLevel + child.depth, cost: inIntrospection ? 0 : multiplier * (1 + child.cost) };
  }

  private definitionOf(parent: GraphQLNamedType | undefined, name: string): GraphQLField<unknown, unknown> | undefined {
    if (name === '__schema') return SchemaMetaFieldDef;
    if (name === '__type') return TypeMetaFieldDef;
    if (!parent || !(isObjectType(parent) || isInterfaceType(parent))) return undefined;
    return parent.getFields()[name];
  }

  private requestedSize(node: FieldNode): number | undefined {
    let size: number | undefined;
    for (const argument of node.arguments ?? []) {
      if (!PAGE_SIZE_ARGUMENTS.has(argument.name.value)) continue;
      const value =
        argument.value.kind === Kind.INT
          ? Number(argument.value.value)
          : argument.value.kind === Kind.VARIABLE
            ? this.variableValue(argument.value.name.value)
            : undefined;
      if (typeof value === 'number' && Number.isFinite(value)) size = Math.max(size ?? 0, value);
    }
    if (size !== undefined) this.largestList = Math.max(this.largestList, size);
    return size;
  }

  private variableValue(name: string): unknown {
    this.readVariables = true;
    return this.variables[name];
  }
}

function isList(type: GraphQLOutputType): boolean {
  return isListType(isNonNullType(type) ? type.ofType : type);
}

function countAliases(document: DocumentNode): number {
  let aliases = 0;
  const walk = (set: SelectionSetNode | undefined): void => {
    for (const selection of set?.selections ?? []) {
      if (selection.kind === Kind.FIELD && selection.alias) aliases += 1;
      if (selection.kind !== Kind.FRAGMENT_SPREAD) walk(selection.selectionSet);
    }
  };
  for (const definition of document.definitions) {
    if (definition.kind === Kind.OPERATION_DEFINITION || definition.kind === Kind.FRAGMENT_DEFINITION)
      walk(definition.selectionSet);
  }
  return aliases;
}

function countRootFields(
  set: SelectionSetNode,
  fragments: Map<string, FragmentDefinitionNode>,
  seen = new Set<string>(),
): number {
  let fields = 0;
  for (const selection of set.selections) {
    if (selection.kind === Kind.FIELD) fields += 1;
    else if (selection.kind === Kind.INLINE_FRAGMENT)
      fields += countRootFields(selection.selectionSet, fragments, seen);
    else if (!seen.has(selection.name.value)) {
      seen.add(selection.name.value);
      const fragment = fragments.get(selection.name.value);
      if (fragment) fields += countRootFields(fragment.selectionSet, fragments, seen);
    }
  }
  return fields;
}

export function measureOperation(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  variables: Record<string, unknown> = {},
): QueryMeasure {
  return measureWithVariableUse(schema, document, operation, variables).measure;
}

function measureWithVariableUse(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  variables: Record<string, unknown>,
): { measure: QueryMeasure; readVariables: boolean } {
  const measurer = new Measurer(schema, document, variables);
  const root = schema.getRootType(operation.operation) ?? undefined;
  const { depth, cost } = measurer.selections(operation.selectionSet, root, undefined, false);
  const measure = {
    depth,
    cost,
    aliases: countAliases(document),
    rootFields: countRootFields(operation.selectionSet, measurer.fragments),
    largestList: measurer.largestList,
  };
  return { measure, readVariables: measurer.readVariables };
}

/**
 * Apollo hands over the same parsed document for the same query text, and a document's measure
 * against one schema cannot change unless a list size comes from a variable: those are measured on
 * every request, the others once per operation node.
 */
function operationMeasures() {
  const known = new WeakMap<OperationDefinitionNode, { schema: GraphQLSchema; measure: QueryMeasure }>();
  return (
    schema: GraphQLSchema,
    document: DocumentNode,
    operation: OperationDefinitionNode,
    variables: Record<string, unknown>,
  ): QueryMeasure => {
    const cached = known.get(operation);
    if (cached?.schema === schema) return cached.measure;
    const { measure, readVariables } = measureWithVariableUse(schema, document, operation, variables);
    if (!readVariables) known.set(operation, { schema, measure });
    return measure;
  };
}

function refusal(message: string, code: string, status: number, details: Record<string, number> = {}): GraphQLError {
  return new GraphQLError(message, { extensions: { code, ...details, http: { status } } });
}

/** The first limit the measured operation breaks, or undefined. */
export function limitBroken(measure: QueryMeasure, limits: QueryLimits): GraphQLError | undefined {
  const checks: Array<[number, number, string, string]> = [
    [measure.aliases, limits.maxAliases, QUERY_REFUSAL_CODES.tooManyAliases, 'aliases'],
    [measure.rootFields, limits.maxRootFields, QUERY_REFUSAL_CODES.tooManyRootFields, 'root fields'],
    [measure.largestList, limits.maxListSize, QUERY_REFUSAL_CODES.listTooLarge, 'items asked of one list'],
    [measure.depth, limits.maxDepth, QUERY_REFUSAL_CODES.tooDeep, 'levels of nesting'],
    [
      measure.cost,
      limits.maxCost,
      QUERY_REFUSAL_CODES.tooComplex,
      'estimated fields (lists multiply their selections)',
    ],
  ];
  for (const [actual, limit, code, what] of checks) {
    if (actual > limit)
      return refusal(`The operation has ${actual} ${what}; at most ${limit} are allowed.`, code, 400, {
        limit,
        actual,
      });
  }
  return undefined;
}

/**
 * The document size, checked on the HTTP request before Apollo parses anything (an Apollo plugin
 * cannot answer a 4xx before parsing). Answers in the GraphQL response shape.
 */
export function documentSizeGuard(limits: QueryLimits) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const payload = request.method === 'GET' ? request.query : request.body;
    const queries = (Array.isArray(payload) ? payload : [payload]).map(
      (operation) => (operation as { query?: unknown } | null)?.query,
    );
    const bytes = Math.max(0, ...queries.map((query) => (typeof query === 'string' ? Buffer.byteLength(query) : 0)));
    if (bytes <= limits.maxDocumentBytes) return;
    const message = `The query document has ${bytes} bytes; at most ${limits.maxDocumentBytes} are allowed.`;
    const extensions = { code: QUERY_REFUSAL_CODES.documentTooLarge, limit: limits.maxDocumentBytes, actual: bytes };
    await reply
      .code(413)
      .type('application/json; charset=utf-8')
      .send({ errors: [{ message, extensions }] });
  };
}

/**
 * The refusal of a resolved operation the limits do not allow, or undefined. Measures are kept per
 * operation node, unless a list size came from the variables.
 */
export function queryLimitsCheck(
  limits: QueryLimits,
): (
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  variables: Record<string, unknown>,
) => GraphQLError | undefined {
  const measure = operationMeasures();
  return (schema, document, operation, variables) =>
    limitBroken(measure(schema, document, operation, variables), limits);
}

/**
 * Enforces the other limits on every request of one Apollo Server, once the operation is known and
 * before execution. Also answers the client's mistakes with a
 * 4xx: an operation that cannot be chosen (unknown operationName, several anonymous ones) and a
 * persisted-query hash the server does not know.
 */
export function queryLimitsPlugin(limits: QueryLimits): ApolloServerPlugin<GraphContext> {
  const refusalOf = queryLimitsCheck(limits);
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ document, operation, request, schema }) {
          if (!operation) {
            const message = request.operationName
              ? `The document has no operation named "${request.operationName}".`
              : 'The document has several operations: send operationName to choose one.';
            throw refusal(message, QUERY_REFUSAL_CODES.operationNotResolved, 400);
          }
          const broken = refusalOf(schema, document, operation, request.variables ?? {});
          if (broken) throw broken;
        },
        async willSendResponse({ response }) {
          const errors = response.body.kind === 'single' ? response.body.singleResult.errors : undefined;
          if (errors?.some((error) => error.extensions?.code === QUERY_REFUSAL_CODES.persistedQueryNotFound))
            response.http.status = 400;
        },
      };
    },
  };
}
