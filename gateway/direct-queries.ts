import type { IncomingHttpHeaders } from 'node:http';
import type { ApolloServer, ApolloServerPlugin } from '@apollo/server';
import type { ApolloGateway } from '@apollo/gateway';
import type { FetcherHeaders } from '@apollo/utils.fetcher';
import type {
  FastifyReply,
  FastifyRequest,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
  RouteHandlerMethod,
} from 'fastify';
import type { DocumentNode, GraphQLSchema, OperationDefinitionNode } from 'graphql';
import type { QueryLimits } from '../platform/config.ts';
import type { GraphContext } from '../platform/graphql.ts';
import { queryLimitsCheck } from '../platform/graphql-limits.ts';
import { unstorableTextInGraphql } from '../platform/input-safety.ts';

/**
 * The gateway's most common request, a query it has answered before, answered without Apollo
 * Server's per-request pipeline: under load that pipeline costs a headline about a quarter of its
 * CPU (docs/performance-history.md, the twenty-seventh and twenty-ninth passes).
 *
 * Apollo Server stays the reference. A query text is answered here only after Apollo Server has
 * parsed, validated and checked it and answered it without errors; its parsed document is reused,
 * so the gateway's plan is the one Apollo Server's request used. Every request this path cannot be
 * sure to answer byte for byte as Apollo Server would is handed to it unchanged: another method,
 * content type or accept header, a batch, extensions (persisted queries), variables a limit or the
 * unstorable-text rule refuses, and any answer with errors. Only queries come here, so a query
 * whose answer had errors is simply asked again through Apollo Server, which formats them: a query
 * changes nothing. Nothing answered is kept: every request executes, so every answer is as of its
 * asking.
 */

interface AnsweredQuery {
  schema: GraphQLSchema;
  document: DocumentNode;
  operation: OperationDefinitionNode;
  operationName: string | null;
  queryHash: string;
}

type GatewayRequestContext = Parameters<ApolloGateway['executor']>[0];
type ContextOf = (request: FastifyRequest) => Promise<GraphContext>;
type Answered = (operationName: string | null, started: bigint) => void;
/** What @as-integrations/fastify's handler is: its answer is the body. */
type ApolloHandler = RouteHandlerMethod<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  { Reply: string }
>;

// A JSON POST is not a "simple" request, so Apollo Server's CSRF prevention lets it through.
const JSON_CONTENT_TYPES = new Set(['application/json', 'application/json; charset=utf-8']);
const MOST_QUERIES = 1000;
const MOST_ACCEPT_HEADERS = 64;
// No HTTP cache hints are served (ApolloServerPluginCacheControlDisabled), so none are gathered.
const NO_CACHE_POLICY = { restrict() {}, replace() {}, policyIfCacheable: () => null };

export class DirectQueries {
  /** By query text, then by operation name (undefined when the request names none). */
  private readonly queries = new Map<string, Map<string | undefined, AnsweredQuery>>();
  private queryCount = 0;
  /** The content type Apollo Server answered each accept header with (the key '' for none). */
  private readonly contentTypes = new Map<string, string>();
  private readonly limitsRefusal: ReturnType<typeof queryLimitsCheck>;

  constructor(
    private readonly gateway: ApolloGateway,
    limits: QueryLimits,
    private readonly answered: Answered,
  ) {
    this.limitsRefusal = queryLimitsCheck(limits);
    gateway.onSchemaLoadOrUpdate(() => this.forgetAll());
  }

  /** Apollo Server's plugin that records the queries it answered without errors. */
  recorder(): ApolloServerPlugin<GraphContext> {
    return {
      requestDidStart: async () => ({
        willSendResponse: async ({ request, response, operation, operationName, document, queryHash, schema }) => {
          const body = response.body;
          if (
            request.http?.method !== 'POST' ||
            typeof request.query !== 'string' ||
            request.extensions !== undefined ||
            operation?.operation !== 'query' ||
            !document ||
            !queryHash ||
            (response.http.status ?? 200) !== 200 ||
            body.kind !== 'single' ||
            body.singleResult.errors
          )
            return;
          this.remember(request.query, request.operationName, {
            schema,
            document,
            operation,
            operationName: operationName ?? null,
            queryHash,
          });
        },
      }),
    };
  }

  /** The /graphql handler: the direct answer where there is one, Apollo Server's otherwise. */
  handler(apollo: ApolloServer<GraphContext>, context: ContextOf, throughApollo: ApolloHandler): ApolloHandler {
    const answerDirectly = (request: FastifyRequest, reply: FastifyReply) =>
      this.answer(apollo, context, request, reply);
    const learnContentType = (request: FastifyRequest, reply: FastifyReply) => this.learnContentType(request, reply);
    return async function (request, reply) {
      const answer = await answerDirectly(request, reply);
      if (answer !== undefined) return answer;
      const answered = await throughApollo.call(this, request, reply);
      learnContentType(request, reply);
      return answered;
    };
  }

  private async answer(
    apollo: ApolloServer<GraphContext>,
    contextOf: ContextOf,
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<string | undefined> {
    if (request.method !== 'POST' || !JSON_CONTENT_TYPES.has(request.headers['content-type']?.toLowerCase() ?? ''))
      return undefined;
    const contentType = this.contentTypes.get(request.headers.accept ?? '');
    const body = request.body as Record<string, unknown> | null;
    if (contentType === undefined || !isRecord(body) || typeof body.query !== 'string' || body.extensions != null)
      return undefined;
    const { variables, operationName } = body;
    if ((variables != null && !isRecord(variables)) || (operationName != null && typeof operationName !== 'string'))
      return undefined;
    // As Apollo Server reads the body: a null operation name or variables is none.
    const graphqlRequest = {
      query: body.query,
      operationName: operationName ?? undefined,
      variables: variables ?? undefined,
    };
    const query = this.queries.get(graphqlRequest.query)?.get(graphqlRequest.operationName);
    if (!query) return undefined;
    if (
      this.limitsRefusal(query.schema, query.document, query.operation, graphqlRequest.variables ?? {}) ||
      unstorableTextInGraphql(graphqlRequest, query.document)
    )
      return undefined;

    const started = process.hrtime.bigint();
    const response = { http: { headers: new Headers(), status: undefined } };
    let result: Awaited<ReturnType<ApolloGateway['executor']>>;
    try {
      const requestContext: GatewayRequestContext = {
        // Written out rather than spread: see graphContextFrom.
        request: {
          query: graphqlRequest.query,
          operationName: graphqlRequest.operationName,
          variables: graphqlRequest.variables,
          http: {
            method: 'POST',
            url: `https://unknown-url.invalid/${searchOf(request.url)}`,
            headers: new ClientHeaders(request.headers),
          },
        },
        response,
        logger: apollo.logger,
        schema: query.schema,
        schemaHash: 'schemaHash no longer exists since Apollo Server 4' as GatewayRequestContext['schemaHash'],
        context: await contextOf(request),
        cache: apollo.cache,
        queryHash: query.queryHash,
        document: query.document,
        source: graphqlRequest.query,
        operationName: query.operationName,
        operation: query.operation,
        metrics: {},
        debug: false,
        overallCachePolicy: NO_CACHE_POLICY,
        requestIsBatched: false,
      };
      result = await this.gateway.executor(requestContext);
    } catch {
      return undefined;
    }
    if (result.errors?.length || response.http.status !== undefined) {
      // Until Apollo Server answers this query without errors again.
      this.queries.get(graphqlRequest.query)?.delete(graphqlRequest.operationName);
      return undefined;
    }
    for (const [name, value] of response.http.headers) void reply.header(name, value);
    void reply.header('content-type', contentType);
    this.answered(query.operationName, started);
    // Apollo Server's own serialization of an answer without errors (runHttpQuery's field order).
    return `${JSON.stringify({ data: result.data, extensions: result.extensions })}\n`;
  }

  private learnContentType(request: FastifyRequest, reply: FastifyReply): void {
    const contentType = reply.getHeader('content-type');
    if (request.method !== 'POST' || reply.statusCode !== 200 || typeof contentType !== 'string') return;
    if (!contentType.startsWith('application/')) return;
    const accept = request.headers.accept ?? '';
    if (this.contentTypes.get(accept) === contentType) return;
    if (this.contentTypes.size >= MOST_ACCEPT_HEADERS) this.contentTypes.clear();
    this.contentTypes.set(accept, contentType);
  }

  private remember(text: string, operationName: string | undefined, query: AnsweredQuery): void {
    let named = this.queries.get(text);
    if (named?.has(operationName)) return;
    if (this.queryCount >= MOST_QUERIES) this.forgetAll();
    if (!named) this.queries.set(text, (named = new Map()));
    named.set(operationName, query);
    this.queryCount += 1;
  }

  private forgetAll(): void {
    this.queries.clear();
    this.queryCount = 0;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !Buffer.isBuffer(value);
}

function searchOf(url: string): string {
  const start = url.indexOf('?');
  return start < 0 ? '' : url.slice(start);
}

/** A header Node received more than once, as one value (what Apollo Server's own copy holds). */
function headerValue(value: string | string[]): string {
  return Array.isArray(value) ? value.join(', ') : value;
}

/**
 * The client's headers as the gateway reads them (Apollo Server hands over a copy). The copy is made
 * only when something does more than look a header up.
 */
class ClientHeaders implements FetcherHeaders {
  private copy: Headers | undefined;

  constructor(private readonly raw: IncomingHttpHeaders) {}

  get(name: string): string | null {
    if (this.copy) return this.copy.get(name);
    const value = this.raw[name.toLowerCase()];
    return value === undefined ? null : headerValue(value);
  }

  has(name: string): boolean {
    return this.copy ? this.copy.has(name) : this.raw[name.toLowerCase()] !== undefined;
  }

  set(name: string, value: string): void {
    this.copied().set(name, value);
  }

  append(name: string, value: string): void {
    this.copied().append(name, value);
  }

  delete(name: string): void {
    this.copied().delete(name);
  }

  entries(): Iterator<[string, string]> {
    return this.copied().entries();
  }

  keys(): Iterator<string> {
    return this.copied().keys();
  }

  values(): Iterator<string> {
    return this.copied().values();
  }

  [Symbol.iterator](): Iterator<[string, string]> {
    return this.copied()[Symbol.iterator]();
  }

  private copied(): Headers {
    this.copy ??= new Headers(
      Object.entries(this.raw).flatMap(([name, value]): [string, string][] =>
        value === undefined ? [] : [[name, headerValue(value)]],
      ),
    );
    return this.copy;
  }
}
