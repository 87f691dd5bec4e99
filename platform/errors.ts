/**
 * One error table for the whole platform. A rule throws DomainError(code); the REST handler and the
 * GraphQL formatter both read the status and title from here, so a code means the same on every
 * transport. Codes without a service prefix are platform codes: each service renders them in its own
 * namespace (content.validation_failed, curriculum:validation_failed, events:validation_failed).
 */

export interface FieldError {
  /** Dotted path of the offending field, as the client sent it (snake_case on content and curriculum). */
  field: string;
  message: string;
}

export interface ProblemDefinition {
  status: number;
  title: string;
}

const table = new Map<string, ProblemDefinition>();

/** Platform codes, rendered in the namespace of the service that answers. */
const PLATFORM_CODES = {
  validation_failed: { status: 400, title: 'The request is malformed or has invalid fields' },
  unauthenticated: { status: 401, title: 'A valid bearer token is required' },
  forbidden: { status: 403, title: 'The token lacks the scope or role this operation needs' },
  tenant_mismatch: { status: 403, title: 'The token belongs to another tenant' },
  not_found: { status: 404, title: 'No such resource for this tenant' },
  method_not_allowed: { status: 405, title: 'This method is not allowed on this path' },
  not_acceptable: { status: 406, title: 'The Accept header excludes every media type this path answers' },
  idempotency_conflict: { status: 409, title: 'The Idempotency-Key was used with a different request' },
  idempotency_key_required: { status: 400, title: 'This write needs an Idempotency-Key header' },
  precondition_failed: { status: 412, title: 'The ETag does not match the current resource' },
  if_match_malformed: { status: 400, title: 'The If-Match header is not a list of entity tags' },
  payload_too_large: { status: 413, title: 'The request body is too large' },
  unsupported_media_type: { status: 415, title: 'The body must be application/json' },
  request_timeout: { status: 408, title: 'The request did not arrive in time' },
  headers_too_large: { status: 431, title: 'The request line or headers are too large' },
  precondition_required: { status: 428, title: 'This write needs the ETag of the resource in its precondition header' },
  rate_limited: { status: 429, title: 'Too many requests from this address; retry after Retry-After seconds' },
  internal_error: { status: 500, title: 'An unexpected error occurred' },
  subgraph_unavailable: { status: 503, title: 'A service this operation needs did not answer; its part is null' },
  demo_mint_refused: { status: 400, title: 'Only the demo tenant can mint a token here' },
  entity_representation_invalid: {
    status: 400,
    title: 'An _entities representation names no entity type here or lacks its key fields',
  },
} satisfies Record<string, ProblemDefinition>;

export type PlatformCode = keyof typeof PLATFORM_CODES;

/**
 * Each service adds its code union here by declaration merging (`content: ContentCode`), so
 * DomainError takes only registered codes and a mistyped one does not compile.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface ServiceProblemCodes {}

export type ProblemCode = PlatformCode | ServiceProblemCodes[keyof ServiceProblemCodes];

for (const [code, definition] of Object.entries(PLATFORM_CODES)) table.set(code, definition);

/** A service adds its own codes once, at import; the table comes back for its code type. */
export function registerProblems<const T extends Record<string, ProblemDefinition>>(codes: T): T {
  for (const [code, definition] of Object.entries(codes)) {
    const existing = table.get(code);
    if (existing && (existing.status !== definition.status || existing.title !== definition.title)) {
      throw new Error(`problem code ${code} registered twice with different meanings`);
    }
    table.set(code, definition);
  }
  return codes;
}

export function problemDefinition(code: string): ProblemDefinition {
  return table.get(code) ?? PLATFORM_CODES.internal_error;
}

export function allProblems(): Array<{ code: string } & ProblemDefinition> {
  return [...table.entries()].map(([code, definition]) => ({ code, ...definition }));
}

export function isPlatformCode(code: string): code is PlatformCode {
  return Object.hasOwn(PLATFORM_CODES, code);
}

/** How a service writes its codes: content uses "content.", curriculum "curriculum:", events "events:". */
export interface ProblemNamespace {
  prefix: string;
  separator: '.' | ':';
}

export function qualifyCode(code: string, namespace: ProblemNamespace | undefined): string {
  if (!namespace || !isPlatformCode(code)) return code;
  return `${namespace.prefix}${namespace.separator}${code}`;
}

export class DomainError extends Error {
  readonly code: ProblemCode;
  readonly fieldErrors: FieldError[] | undefined;
  /** Extra members of the problem body (e.g. the eligibility record behind a refusal). */
  readonly extensions: Record<string, unknown> | undefined;
  readonly headers: Record<string, string> | undefined;

  constructor(
    code: ProblemCode,
    detail?: string,
    options: {
      fieldErrors?: FieldError[];
      extensions?: Record<string, unknown>;
      headers?: Record<string, string>;
    } = {},
  ) {
    // A refusal is an answer, not a crash: no stack to capture (costly with source maps on hot paths).
    // An unregistered code is a bug of ours: its stack is kept for the log.
    const stackTraceLimit = Error.stackTraceLimit;
    if (table.has(code)) Error.stackTraceLimit = 0;
    super(detail ?? problemDefinition(code).title);
    Error.stackTraceLimit = stackTraceLimit;
    this.name = 'DomainError';
    this.code = code;
    this.fieldErrors = options.fieldErrors;
    this.extensions = options.extensions;
    this.headers = options.headers;
  }

  get status(): number {
    return problemDefinition(this.code).status;
  }
}

export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: string;
  requestId: string;
  traceId: string;
  fieldErrors?: FieldError[];
  [extension: string]: unknown;
}

/**
 * Anything that is not a DomainError with a registered code is an unexpected failure (an unregistered
 * code is a bug of ours, not a client error): it is logged with its stack, and its message, code and
 * stack never reach the client.
 */
export function isUnexpectedError(error: unknown): boolean {
  return !(error instanceof DomainError && table.has(error.code));
}

/** What both transports answer for any thrown value: REST as the problem body, GraphQL in `extensions`. */
export interface FormattedProblem {
  code: string;
  status: number;
  title: string;
  detail: string;
  fieldErrors?: FieldError[];
  extensions?: Record<string, unknown>;
}

export function formatProblem(error: unknown, namespace: ProblemNamespace | undefined): FormattedProblem {
  const domain = isUnexpectedError(error) ? new DomainError('internal_error') : (error as DomainError);
  const definition = problemDefinition(domain.code);
  return {
    code: qualifyCode(domain.code, namespace),
    status: definition.status,
    title: definition.title,
    detail: domain.message,
    ...(domain.fieldErrors ? { fieldErrors: domain.fieldErrors } : {}),
    ...(domain.extensions ? { extensions: domain.extensions } : {}),
  };
}

/**
 * A problem's `type`: the absolute URI where the platform documents its code (GET /problems/{code}),
 * under the deployment's public origin, so every service names a code by the same URI.
 */
export function problemTypeUri(publicOrigin: string, code: string): string {
  return `${publicOrigin.replace(/\/+$/, '')}/problems/${encodeURIComponent(code)}`;
}

/** The documentation of one code as a client reads it (qualified: content.not_found, curriculum:...). */
export function describeProblem(qualifiedCode: string): ({ code: string } & ProblemDefinition) | undefined {
  const platformCode = qualifiedCode.replace(/^[a-z_]+[.:]/, '');
  const definition =
    table.get(qualifiedCode) ?? (isPlatformCode(platformCode) ? PLATFORM_CODES[platformCode] : undefined);
  return definition && { code: qualifiedCode, ...definition };
}

/** The REST problem body of any thrown value; `publicOrigin` roots its `type` URI. */
export function toProblem(
  error: unknown,
  ids: { requestId: string; traceId: string },
  namespace: ProblemNamespace | undefined,
  publicOrigin: string,
): Problem {
  const { code, status, title, detail, fieldErrors, extensions } = formatProblem(error, namespace);
  return {
    ...extensions,
    type: problemTypeUri(publicOrigin, code),
    title,
    status,
    detail,
    code,
    requestId: ids.requestId,
    traceId: ids.traceId,
    ...(fieldErrors ? { fieldErrors } : {}),
  };
}
