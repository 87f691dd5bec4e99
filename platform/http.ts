import { randomBytes, randomUUID } from 'node:crypto';
import { STATUS_CODES, type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type HTTPMethods,
} from 'fastify';
import type { Bindings, ChildLoggerOptions, Level, Logger } from 'pino';
import { z } from 'zod';
import { acceptsJson } from './accept.ts';
import type { AccessRule, Authenticator } from './auth.ts';
import { DEFAULT_REQUEST_TIMEOUT_MS } from './config.ts';
import { contextFor, type RequestContext } from './context.ts';
import {
  DomainError,
  allProblems,
  type FieldError,
  describeProblem,
  isUnexpectedError,
  problemTypeUri,
  toProblem,
  type ProblemNamespace,
} from './errors.ts';
import { refuseUnstorableTextInRequests } from './input-safety.ts';
import type { DescribedOperation } from './openapi.ts';
import { parseInput } from './validation.ts';

/**
 * The HTTP kit every service uses: request and trace ids, one problem+json error handler per
 * service namespace, authentication into a RequestContext, and route declarations whose zod schemas
 * both document the path (OpenAPI) and are the ones the service parses its input with.
 */

declare module 'fastify' {
  interface FastifyRequest {
    traceId: string;
  }
  interface FastifyReply {
    /** The problem code this reply answered with (counted by the metrics). */
    problemCode: string;
  }
  interface FastifyInstance {
    /** The deployment's public origin, read per answer (the process learns its port once it listens). */
    publicOrigin: () => string;
    /** 2xx bodies are checked against their route's response schema (tests, development). */
    answerChecks: boolean;
  }
}

const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const TRACEPARENT = /^[0-9a-f]{2}-([0-9a-f]{32})-[0-9a-f]{16}-[0-9a-f]{2}$/;

/** Where a request's trace id is kept once read: on the raw request, which lives exactly as long. */
const TRACE_ID = Symbol('traceId');
type TracedMessage = IncomingMessage & { [TRACE_ID]?: string };

/** Random bytes drawn 4 KiB at a time (as randomUUID does): one system call per 256 new trace ids, not one each. */
const entropy = { bytes: Buffer.alloc(0), offset: 0 };
function newTraceId(): string {
  if (entropy.offset + 16 > entropy.bytes.length) {
    entropy.bytes = randomBytes(4096);
    entropy.offset = 0;
  }
  entropy.offset += 16;
  return entropy.bytes.toString('hex', entropy.offset - 16, entropy.offset);
}

/** The trace id of a W3C `traceparent` header, or a new one; an all-zero id is invalid and starts a new trace. */
function traceIdOf(request: TracedMessage): string {
  let traceId = request[TRACE_ID];
  if (traceId === undefined) {
    const match = TRACEPARENT.exec(String(request.headers.traceparent ?? ''));
    traceId = match && !/^0+$/.test(match[1]) ? match[1] : newTraceId();
    request[TRACE_ID] = traceId;
  }
  return traceId;
}

/**
 * A request's logger, made only when the request logs at a level the process writes: most requests
 * never log, and a pino child serializes its bindings when it is made. Every line it writes carries
 * the request id and the caller's trace, as before.
 */
class RequestLogger {
  private made: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: Logger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
    private readonly raw: TracedMessage,
  ) {}

  private logger(): FastifyBaseLogger {
    this.made ??= this.parent.child({ ...this.bindings, traceId: traceIdOf(this.raw) }, this.options);
    return this.made;
  }

  private write(level: Level, args: unknown[]): void {
    if (this.made || this.parent.isLevelEnabled(level))
      (this.logger()[level] as (...given: unknown[]) => void)(...args);
  }

  get level(): string {
    return this.made?.level ?? this.parent.level;
  }

  set level(level: string) {
    this.logger().level = level;
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.logger().child(bindings, options);
  }

  fatal(...args: unknown[]): void {
    this.write('fatal', args);
  }
  error(...args: unknown[]): void {
    this.write('error', args);
  }
  warn(...args: unknown[]): void {
    this.write('warn', args);
  }
  info(...args: unknown[]): void {
    this.write('info', args);
  }
  debug(...args: unknown[]): void {
    this.write('debug', args);
  }
  trace(...args: unknown[]): void {
    this.write('trace', args);
  }
  silent(): void {}
}

export function createHttpApp(options: {
  logLevel: string;
  bodyLimit?: number;
  /** Roots every problem's `type` URI. */
  publicOrigin: () => string;
  /** Check 2xx bodies against their response schemas; on unless said otherwise (off in production). */
  answerChecks?: boolean;
  /** Where log lines go; standard output unless given (tests read them). */
  logStream?: NodeJS.WritableStream;
  /** Longest a request may take to arrive, headers and body (REQUEST_TIMEOUT_MS). */
  requestTimeoutMs?: number;
}): FastifyInstance {
  const requestTimeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const app = Fastify({
    logger: { level: options.logLevel, redact: ['req.headers.authorization'], stream: options.logStream },
    bodyLimit: options.bodyLimit ?? 10 * 1024 * 1024,
    genReqId: (request) => {
      const given = request.headers['x-request-id'];
      return typeof given === 'string' && SAFE_REQUEST_ID.test(given) ? given : randomUUID();
    },
    forceCloseConnections: true,
    // The longest id a path carries, a component_id (200 characters), must route: at Fastify's default of 100
    // a longer one could be created but never read, approved or routed over REST (GraphQL took it).
    routerOptions: { maxParamLength: 200 },
    // Fastify sets no limit by default; without one, a client trickling its bytes holds a connection for good.
    requestTimeout: requestTimeoutMs,
    http: {
      // Given at creation too: Node then keeps its headers timeout within it. Set only afterwards, as Fastify
      // does, the limit left a body that trickles in unbounded (Node 20).
      requestTimeout: requestTimeoutMs,
      // Node looks for late requests on this interval (30 s by default): a short limit is kept near its value.
      connectionsCheckingInterval: Math.min(30_000, Math.ceil(requestTimeoutMs / 4)),
    },
    clientErrorHandler: (error: NodeJS.ErrnoException, socket: Duplex) =>
      refuseUnparsedRequest(error, socket, options.publicOrigin()),
    // Refused before routing (no service scope yet): still a problem, in the platform namespace.
    frameworkErrors: (error, request, reply) => {
      request.traceId ||= traceIdOf(request.raw);
      const detail =
        error.code === 'FST_ERR_MAX_PARAM_LENGTH'
          ? 'A path segment is too long.'
          : 'The path is not valid percent-encoded UTF-8.';
      sendProblem(reply, request, new DomainError('validation_failed', detail), undefined);
    },
    // Every log line of a request carries the caller's trace, as its problems do.
    childLoggerFactory: (logger, bindings, childOptions, rawRequest) =>
      childOptions.level === undefined
        ? (new RequestLogger(
            logger as Logger,
            bindings,
            childOptions,
            rawRequest as IncomingMessage,
          ) as FastifyBaseLogger)
        : logger.child({ ...bindings, traceId: traceIdOf(rawRequest as IncomingMessage) }, childOptions),
  });
  app.decorate('publicOrigin', options.publicOrigin);
  app.decorate('answerChecks', options.answerChecks ?? true);
  app.decorateRequest('traceId', '');
  app.decorateReply('problemCode', '');
  app.decorateRequest('ctx', null);
  // Hooks on every request take a callback: an async hook costs a promise per request.
  app.addHook('onRequest', (request, reply, done) => {
    request.traceId = traceIdOf(request.raw);
    reply.header('x-request-id', request.id);
    done();
  });
  describeOnlySchemas(app);
  refuseUnstorableTextInRequests(app, { graphqlPath: '/graphql' });
  // JSON is the only body the platform accepts unless a route's scope adds a parser (e.g. zip).
  app.removeContentTypeParser('text/plain');
  installProblemHandlers(app, undefined);
  app.get('/problems', { schema: { hide: true } }, async () => ({ data: allProblems() }));
  // What a problem's `type` URI names: the code's status and title.
  app.get<{ Params: { code: string } }>('/problems/:code', { schema: { hide: true } }, async (request) => {
    const problem = describeProblem(request.params.code);
    if (!problem) throw new DomainError('not_found', `No problem code ${request.params.code}.`);
    return { ...problem, type: problemTypeUri(app.publicOrigin(), problem.code) };
  });
  return app;
}

/**
 * The JSON body parser of a service scope. Many HTTP clients send Content-Type: application/json on every
 * request; a DELETE carries no body here, so an empty one is no body rather than malformed JSON. Elsewhere an
 * empty body stays refused. A compressed body (Content-Encoding gzip ...) is refused as such (RFC 9110: 415 with
 * the codings accepted), where its bytes were read as text and refused as "not valid JSON".
 * Set per service scope: the gateway's REST proxy brings its own pass-through JSON parser.
 */
export function parseJsonBodies(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'ignore');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const coding = request.headers['content-encoding'];
    if (coding !== undefined && coding.trim().toLowerCase() !== 'identity') {
      return done(
        new DomainError(
          'unsupported_media_type',
          `Send the body uncompressed: Content-Encoding ${coding} is not accepted.`,
          {
            headers: { 'accept-encoding': 'identity' },
          },
        ),
      );
    }
    if (body === '' && request.method === 'DELETE') return done(null, undefined);
    void parseJson(request, body as string, (error, value) => {
      // Fastify's parser refuses a "__proto__" key (it could reach an object's prototype) as invalid JSON.
      if (error && isJson(body as string)) {
        return done(new DomainError('validation_failed', 'The JSON body has a "__proto__" key, which is refused.'));
      }
      done(error, value);
    });
  });
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * Route schemas only describe (OpenAPI): the services validate with zod, and bodies are sent as they
 * are. Fastify's own ajv would otherwise strip unknown fields silently instead of refusing them.
 * Set again in every scope that adds schemas, because a new schema scope starts from the defaults.
 */
export function describeOnlySchemas(app: FastifyInstance): void {
  app.setValidatorCompiler(() => () => true);
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
}

/** Sends any thrown value as application/problem+json, in the namespace of the service that answers. */
export function installProblemHandlers(app: FastifyInstance, namespace: ProblemNamespace | undefined): void {
  app.setErrorHandler((error, request, reply) => {
    const domain = asDomainError(error);
    if (domain.code === 'internal_error' || isUnexpectedError(domain))
      request.log.error({ err: error }, 'unexpected error');
    sendProblem(reply, request, domain, namespace);
  });
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0];
    const allowed = ROUTABLE_METHODS.filter((method) => request.server.findRoute({ method, url: path }));
    if (allowed.length === 0)
      return sendProblem(
        reply,
        request,
        new DomainError('not_found', `No route ${request.method} ${path}.`),
        namespace,
      );
    // RFC 9110: a path that exists under other methods is a 405 naming them, not a 404.
    reply.header('allow', allowed.join(', '));
    return sendProblem(
      reply,
      request,
      new DomainError('method_not_allowed', `${path} answers ${allowed.join(', ')}, not ${request.method}.`),
      namespace,
    );
  });
}

const ROUTABLE_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

export function sendProblem(
  reply: FastifyReply,
  request: FastifyRequest,
  error: DomainError,
  namespace: ProblemNamespace | undefined,
): FastifyReply {
  const problem = toProblem(
    error,
    { requestId: request.id, traceId: request.traceId },
    namespace,
    request.server.publicOrigin(),
  );
  if (error.headers) reply.headers(error.headers);
  if (problem.status === 401) reply.header('www-authenticate', 'Bearer');
  reply.problemCode = problem.code;
  return reply.code(problem.status).type('application/problem+json').send(problem);
}

/**
 * A request Node's HTTP parser refused before Fastify saw it (a request line or headers over Node's limit, bytes
 * that are not HTTP) gets the same problem+json as any other refusal, in the platform namespace, then the
 * connection closes, as Fastify's own handler does.
 */
function refuseUnparsedRequest(error: NodeJS.ErrnoException, socket: Duplex, publicOrigin: string): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const refusal =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? new DomainError('headers_too_large', 'The request line and headers must fit in 16 KB.')
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? new DomainError('request_timeout', 'The request did not arrive in time.')
        : new DomainError('validation_failed', 'The request is not valid HTTP/1.1.');
  const problem = toProblem(refusal, { requestId: randomUUID(), traceId: newTraceId() }, undefined, publicOrigin);
  const body = JSON.stringify(problem);
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${problem.status} ${STATUS_CODES[problem.status]}\r\ncontent-type: application/problem+json\r\n` +
        `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}

/** Fastify's own client errors (bad JSON, wrong media type, too large) become platform problems. */
function asDomainError(error: unknown): DomainError {
  if (error instanceof DomainError) return error;
  const fastifyError = error as { code?: string; statusCode?: number; message?: string };
  switch (fastifyError.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new DomainError('unsupported_media_type', 'Send the body as application/json.');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new DomainError('payload_too_large');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new DomainError('validation_failed', 'The JSON body is empty.');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new DomainError('validation_failed', 'The body is not valid JSON.');
    default:
      break;
  }
  // The connection closed before the body had all arrived (the client left, or its request ran out of time).
  if (fastifyError.code === 'ECONNRESET' && fastifyError.statusCode === 400) {
    return new DomainError('validation_failed', 'The body did not arrive whole.');
  }
  if (error instanceof SyntaxError || (fastifyError.statusCode === 400 && fastifyError.code?.startsWith('FST_'))) {
    return new DomainError('validation_failed', 'The body is not valid JSON.');
  }
  if (
    fastifyError.statusCode &&
    fastifyError.statusCode >= 400 &&
    fastifyError.statusCode < 500 &&
    fastifyError.code?.startsWith('FST_')
  ) {
    return new DomainError('validation_failed', 'The request is malformed.');
  }
  return new DomainError('internal_error');
}

export async function requestContextOf(auth: Authenticator, request: FastifyRequest): Promise<RequestContext> {
  const principal = await auth.authenticate(request.headers.authorization);
  return contextFor(principal, { requestId: request.id, traceId: request.traceId });
}

/** How one service scope turns a request into the caller's context (token, tenant path, vendor header). */
export type RequestContextBuilder = (request: FastifyRequest) => Promise<RequestContext>;

declare module 'fastify' {
  interface FastifyInstance {
    requestContextOf: RequestContextBuilder;
  }
}

/** Sets the context builder of a service scope once; every declared route of the scope uses it. */
export function useRequestContext(app: FastifyInstance, build: RequestContextBuilder): void {
  app.decorate('requestContextOf', build);
}

/**
 * What a handler receives: params parsed by the declaration; headers checked against their schema;
 * the query as sent, because the service parses its own input (GraphQL shares it) after its access check.
 */
export type RouteRequest<P extends z.ZodType, Q extends z.ZodType> = FastifyRequest<{
  Params: z.output<P>;
  Querystring: z.input<Q>;
  Body: unknown;
}>;

type AnyParams = z.ZodType<Record<string, string>>;
type AnyQuery = z.ZodType<Record<string, unknown>, Record<string, unknown>>;

/** The precondition header a write needs; the service answers 428 without it and 412 when stale. */
export type PreconditionHeader = 'if-match' | 'x-curriculum-if-match';

interface RouteShape<P extends z.ZodType, Q extends z.ZodType> {
  method: HTTPMethods;
  url: string;
  summary: string;
  description?: string;
  /** Documents the request body; the service parses it. */
  body?: z.ZodType;
  querystring?: Q;
  params?: P;
  /** Further documented request headers (a required one is still optional to the check: the service names its absence). */
  headers?: z.ZodObject;
  /** Documented success status and description. */
  success?: { status: number; description: string };
  /**
   * The 2xx body (every member declared: an undeclared one fails the answer), raw bytes of a media
   * type, or refused: a path that only ever refuses, left out of the description (no 2xx to describe).
   */
  response: z.ZodType | { bytes: string } | 'refused';
  /** Idempotency-Key: documented, and a replay answers with Idempotency-Replayed. */
  idempotencyKey?: 'required' | 'optional';
  /** A create of an existing resource (its natural key) answers 200: replayed, updated or unchanged. */
  replays?: boolean;
  /** The ETag precondition header of this write. */
  precondition?: { header: PreconditionHeader; required: boolean };
  /** Answers carry the resource's ETag. */
  etag?: boolean;
  /** Statuses of the route's own refusals beyond validation, authentication, tenancy and missing resources. */
  errors?: number[];
}

export type RouteDeclaration<P extends z.ZodType = AnyParams, Q extends z.ZodType = AnyQuery> = RouteShape<P, Q> &
  (
    | {
        public?: false;
        /**
         * The access rule the route's service function checks (the same `ACCESS` object): the operation's
         * OpenAPI security. Only described; the function's own check is the one that refuses.
         */
        access: AccessRule;
        handler: (request: RouteRequest<P, Q> & { ctx: RequestContext }, reply: FastifyReply) => Promise<unknown>;
      }
    /** A path that only ever refuses (no operation to describe, no rule to check). */
    | {
        public?: false;
        response: 'refused';
        access?: never;
        handler: (request: RouteRequest<P, Q> & { ctx: RequestContext }, reply: FastifyReply) => Promise<unknown>;
      }
    /** No credential needed (descriptor, mint). */
    | { public: true; access?: never; handler: (request: RouteRequest<P, Q>, reply: FastifyReply) => Promise<unknown> }
  );

declare module 'fastify' {
  interface FastifyInstance {
    describedOperations: DescribedOperation[];
  }
}

/** Collects the declarations of a service scope for its OpenAPI description. */
export function collectOperations(app: FastifyInstance): DescribedOperation[] {
  const operations: DescribedOperation[] = [];
  app.decorate('describedOperations', operations);
  return operations;
}

const IDEMPOTENCY_KEY = z
  .string()
  .min(1)
  .describe('Makes the write safe to retry: the same key and body answer the stored result');
const PRECONDITION = z
  .string()
  .min(1)
  .describe(
    'The ETag of the resource as last read, quotes included (several, comma-separated, or *); a stale one is refused with 412, a value that is not an entity tag with 400',
  );

function headersOf(route: RouteShape<z.ZodType, z.ZodType>): z.ZodObject | undefined {
  const shape: Record<string, z.ZodType> = { ...route.headers?.shape };
  if (route.idempotencyKey) {
    shape['idempotency-key'] = route.idempotencyKey === 'required' ? IDEMPOTENCY_KEY : IDEMPOTENCY_KEY.optional();
  }
  if (route.precondition)
    shape[route.precondition.header] = route.precondition.required ? PRECONDITION : PRECONDITION.optional();
  return Object.keys(shape).length > 0 ? z.object(shape) : undefined;
}

/**
 * Declares a documented route. Before the handler runs, the scope builds the caller's context (so an
 * unauthenticated call is 401 whatever else it sends), then params and headers are parsed by their
 * schemas with the field errors the services give. Query and body are parsed by the service. Where
 * answer checks are on (tests, development; off in production, where the check cost more CPU than
 * the lookup it answered), a 2xx body is checked against the response schema before it is sent.
 */
export function declareRoute<P extends z.ZodType = AnyParams, Q extends z.ZodType = AnyQuery>(
  app: FastifyInstance,
  tag: string,
  route: RouteDeclaration<P, Q>,
): void {
  const headers = headersOf(route);
  // Documented headers are checked when sent; any other header passes.
  const headerCheck = headers?.partial().loose();
  const success = route.success ?? { status: 200, description: 'OK' };
  const response = route.response;
  if (response !== 'refused' && app.hasDecorator('describedOperations')) {
    app.describedOperations.push({
      method: route.method as string,
      url: route.url,
      tag,
      summary: route.summary,
      description: route.description,
      access: route.access,
      params: route.params,
      querystring: route.querystring,
      headers,
      body: route.body,
      success,
      response,
      etag: route.etag === true,
      replayStatus: route.idempotencyKey || route.replays ? (success.status === 201 ? 200 : success.status) : undefined,
      errors: [...(route.errors ?? []), ...(route.precondition ? [412, 428] : [])],
    });
  }
  // The query is the service's to parse, after its access check: a caller without the scope hears 403,
  // never which query fields it got wrong.
  const checkShape = (request: FastifyRequest) => {
    if (route.params) request.params = parseInput(route.params, request.params);
    if (headerCheck) parseInput(headerCheck, request.headers);
    // The mint answers its own query's shape (tenantId=demo, once) with its own code.
    refuseMalformedQuery(request, { takesQuery: route.querystring !== undefined, takesRepeats: route.public === true });
  };
  // Routes of other media types (bytes) keep their own; a JSON route answers 406 before anything else.
  const negotiate = response !== 'refused' && !('bytes' in response) ? refuseUnacceptable : () => {};
  const handler = route.public
    ? async (request: FastifyRequest, reply: FastifyReply) => {
        negotiate(request);
        checkShape(request);
        return route.handler(request as RouteRequest<P, Q>, reply);
      }
    : async (request: FastifyRequest, reply: FastifyReply) => {
        negotiate(request);
        const ctx = await app.requestContextOf(request);
        checkShape(request);
        return route.handler(Object.assign(request as RouteRequest<P, Q>, { ctx }), reply);
      };
  const checkAnswer =
    response === 'refused' || 'bytes' in response || (app.hasDecorator('answerChecks') && !app.answerChecks)
      ? undefined
      : async (_request: FastifyRequest, reply: FastifyReply, payload: unknown) =>
          reply.statusCode < 300 ? response.parse(payload) : payload;
  app.route({
    method: route.method,
    url: route.url,
    handler,
    ...(checkAnswer ? { preSerialization: checkAnswer } : {}),
  });
}

/** 406 when the request's Accept leaves a JSON route nothing to send (RFC 9110 §12.5.1). */
function refuseUnacceptable(request: FastifyRequest): void {
  if (!acceptsJson(request.headers.accept)) {
    throw new DomainError(
      'not_acceptable',
      'This path answers application/json (its problems application/problem+json); the Accept header excludes both.',
      { fieldErrors: [{ field: 'Accept', message: 'excludes application/json and application/problem+json' }] },
    );
  }
}

const NOT_PERCENT_ENCODED = 'is not valid percent-encoded UTF-8';

/** A query name or value as its percent-encoding decodes, or undefined when it is not valid UTF-8 so encoded. */
function percentDecoded(text: string): string | undefined {
  try {
    return decodeURIComponent(text.replaceAll('+', ' '));
  } catch {
    return undefined;
  }
}

/**
 * Fastify's query parser keeps a name or value whose percent-encoding does not decode as it was written (`%E0%A4%A`,
 * `100%`), so a filter silently compared text the client never meant; a path that takes no query ignored any
 * (`/media?limit=1` answered every asset); and a parameter given twice reached the schemas as a list, refused as if
 * its values were wrong ("expected one of ... article|video" for content_kind=article&content_kind=video). Each is
 * refused naming its field; no documented parameter takes several values.
 */
function refuseMalformedQuery(
  request: FastifyRequest,
  { takesQuery, takesRepeats }: { takesQuery: boolean; takesRepeats: boolean },
): void {
  const start = request.url.indexOf('?');
  if (start === -1) return;
  const fieldErrors: FieldError[] = [];
  const query = request.url.slice(start + 1);
  if (query.includes('%')) {
    for (const pair of query.split('&')) {
      const separator = pair.indexOf('=');
      const name = separator === -1 ? pair : pair.slice(0, separator);
      const decodedName = percentDecoded(name);
      if (decodedName === undefined || (separator !== -1 && percentDecoded(pair.slice(separator + 1)) === undefined))
        fieldErrors.push({ field: decodedName ?? name, message: NOT_PERCENT_ENCODED });
    }
  }
  if (fieldErrors.length === 0)
    for (const [field, value] of Object.entries(request.query as object)) {
      if (!takesQuery) fieldErrors.push({ field, message: 'unknown field' });
      else if (Array.isArray(value) && !takesRepeats)
        fieldErrors.push({ field, message: 'is given more than once; send it once' });
    }
  if (fieldErrors.length > 0)
    throw new DomainError('validation_failed', 'The query has invalid fields.', { fieldErrors });
}

/** Sends a command's answer: 201 for a creation, 200 with Idempotency-Replayed for a replay. */
export function sendCommandResult(
  reply: FastifyReply,
  result: { value: unknown; created: boolean; replayed: boolean },
  options: { etag?: string; createdStatus?: number; status?: number } = {},
): FastifyReply {
  if (options.etag) reply.header('etag', options.etag);
  if (result.replayed) {
    reply.header('idempotency-replayed', 'true');
    return reply.code(options.status === 202 ? 202 : 200).send(result.value);
  }
  return reply.code(result.created ? (options.createdStatus ?? 201) : (options.status ?? 200)).send(result.value);
}

export function headerOf(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** The documented Prefer header of a write that can answer less than its whole representation. */
export const PREFER_RETURN = z
  .string()
  .describe(
    'RFC 7240: return=minimal answers less than the whole representation (Preference-Applied says so); other preferences are ignored',
  );

/**
 * The `return` preference of a request's Prefer headers (RFC 7240), or undefined. Preferences a server does not know are
 * ignored, as the RFC asks, and so is a request that states `return` twice with different values.
 */
export function preferredReturn(header: string | string[] | undefined): 'minimal' | 'representation' | undefined {
  const returns = new Set(
    (Array.isArray(header) ? header.join(',') : (header ?? ''))
      .split(',')
      .map((preference) =>
        /^\s*return\s*=\s*"?(minimal|representation)"?\s*(;|$)/i.exec(preference)?.[1]?.toLowerCase(),
      )
      .filter((value) => value !== undefined),
  );
  return returns.size === 1 ? ([...returns][0] as 'minimal' | 'representation') : undefined;
}

/** The headers of a guarded write: its precondition (If-Match or its curriculum twin) and Idempotency-Key. */
export function writeHeaders(request: FastifyRequest, precondition: PreconditionHeader) {
  return { ifMatch: headerOf(request, precondition), idempotencyKey: headerOf(request, 'idempotency-key') };
}
