import { createHash } from 'node:crypto';
import { ApolloServer, HeaderMap, type HTTPGraphQLRequest, type HTTPGraphQLResponse } from '@apollo/server';
import { ApolloGateway } from '@apollo/gateway';
import type { GatewayExecutor, GatewayGraphQLRequestContext } from '@apollo/server-gateway-interface';
import { getOperationAST, parse, validate, type DocumentNode, type GraphQLSchema } from 'graphql';
import { main } from '../gateway/main.ts';
import type { GraphContext } from '../platform/graphql.ts';

/**
 * `npm start`'s platform with a single-operation JSON POST to /graphql handed to the gateway's executor
 * directly: the document parsed and validated once, no Apollo Server request pipeline (its HTTP checks,
 * plugins, error formatting) around it. The subgraphs, their resolvers and statements run as in the
 * platform, so the answer is live; what this row saves against the headline is what Apollo Server's
 * pipeline costs. For the bench only: it enforces none of the platform's GraphQL limits.
 */
interface Loaded {
  schema: GraphQLSchema;
  executor: GatewayExecutor;
}
let loaded: Loaded | undefined;
const gateway = ApolloGateway.prototype as unknown as { load: (...args: unknown[]) => Promise<Loaded> };
const load = gateway.load;
gateway.load = async function (this: unknown, ...args) {
  loaded = await load.apply(this, args);
  return loaded;
};

type Execute = (options: {
  httpGraphQLRequest: HTTPGraphQLRequest;
  context: () => Promise<GraphContext>;
}) => Promise<HTTPGraphQLResponse>;
const server = ApolloServer.prototype as unknown as { executeHTTPGraphQLRequest: Execute };
const throughApollo = server.executeHTTPGraphQLRequest;
const documents = new Map<string, { document: DocumentNode; queryHash: string }>();

server.executeHTTPGraphQLRequest = async function (this: unknown, options) {
  const body = options.httpGraphQLRequest.body as { query?: unknown; variables?: Record<string, unknown> } | undefined;
  if (!loaded || options.httpGraphQLRequest.method !== 'POST' || typeof body?.query !== 'string')
    return throughApollo.call(this, options);
  const query = body.query;
  let known = documents.get(query);
  if (!known) {
    const document = parse(query);
    if (validate(loaded.schema, document).length > 0) return throughApollo.call(this, options);
    known = { document, queryHash: createHash('sha256').update(query).digest('hex') };
    documents.set(query, known);
  }
  const context = await options.context();
  const result = await loaded.executor({
    request: { query, variables: body.variables, http: options.httpGraphQLRequest },
    document: known.document,
    operation: getOperationAST(known.document),
    operationName: null,
    queryHash: known.queryHash,
    source: query,
    context,
    logger: console,
    metrics: { captureTraces: false },
    overallCachePolicy: { restrict() {}, replace() {}, policyIfCacheable: () => null },
  } as unknown as GatewayGraphQLRequestContext);
  const headers = new HeaderMap([['content-type', 'application/json; charset=utf-8']]);
  return { status: 200, headers, body: { kind: 'complete', string: `${JSON.stringify(result)}\n` } };
};

await main();
