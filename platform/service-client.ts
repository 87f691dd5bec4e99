import { LRUCache } from 'lru-cache';
import type { Authenticator } from './auth.ts';
import type { RequestContext } from './context.ts';
import { DomainError, type ProblemCode } from './errors.ts';
import type { LocalRequest } from './local-dispatch.ts';

/** Tenants whose tokens are kept, by default; a tenant beyond them gets a token signed again when it calls next. */
const KEPT_TENANTS = 10_000;

/**
 * Short-lived tokens a service signs to call another service for one tenant: role service and only
 * the scopes that call needs, reused until a minute before they expire. Only the most recently used
 * tenants' tokens are kept, so a process that serves many tenants does not grow with each one.
 */
export function serviceTokens(
  auth: Authenticator,
  caller: string,
  scopes: string[],
  { ttlSeconds = 300, keptTenants = KEPT_TENANTS }: { ttlSeconds?: number; keptTenants?: number } = {},
) {
  const tokens = new LRUCache<string, { token: string; renewAtMs: number }>({ max: keptTenants });
  return async function tokenFor(tenantId: string): Promise<string> {
    const cached = tokens.get(tenantId);
    if (cached && cached.renewAtMs > Date.now()) return cached.token;
    const token = await auth.sign({ tenantId, subject: `service:${caller}`, scopes, roles: ['service'], ttlSeconds });
    tokens.set(tenantId, { token, renewAtMs: Date.now() + (ttlSeconds - 60) * 1000 });
    return token;
  };
}

/**
 * The one way a service calls another service's published API: HTTP with a timeout, no retries,
 * and every anomaly reported as a typed failure so the caller can fail closed. A service hosted in
 * the same process is asked through the same HTTP route in memory (`LocalDispatch`).
 */
export type ServiceCallFailure =
  { kind: 'timeout' } | { kind: 'unavailable'; reason: string } | { kind: 'malformed'; status: number };

export type ServiceCallResult = { ok: true; status: number; body: unknown } | ({ ok: false } & ServiceCallFailure);

export interface ServiceCallOptions {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: unknown;
  timeoutMs: number;
}

/**
 * This process's own HTTP app. A call whose URL is this process's own origin goes through the app's
 * routes in memory (`platform/local-dispatch.ts`): the same published route, authentication, status
 * codes and body as over a socket, with the same timeout, without the loopback connection on both sides.
 */
export interface LocalDispatch {
  origin: string;
  dispatch(request: LocalRequest): Promise<{ statusCode: number; body: string }>;
}

interface OutgoingRequest {
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body: string | undefined;
}

type Sent = { ok: true; status: number; text: string } | ({ ok: false } & ServiceCallFailure);

const TIMED_OUT = Symbol('timed out');

async function sendLocally(
  local: LocalDispatch,
  path: string,
  request: OutgoingRequest,
  timeoutMs: number,
): Promise<Sent> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<typeof TIMED_OUT>((resolve) => {
    timer = setTimeout(() => resolve(TIMED_OUT), timeoutMs);
  });
  try {
    const answer = await Promise.race([
      local.dispatch({ method: request.method, url: path, headers: request.headers, payload: request.body }),
      timeout,
    ]);
    if (answer === TIMED_OUT) return { ok: false, kind: 'timeout' };
    return { ok: true, status: answer.statusCode, text: answer.body };
  } catch (error) {
    return { ok: false, kind: 'unavailable', reason: (error as Error).message };
  } finally {
    clearTimeout(timer);
  }
}

async function sendOverHttp(url: string, request: OutgoingRequest, timeoutMs: number): Promise<Sent> {
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    const response = await fetch(url, { ...request, signal });
    return { ok: true, status: response.status, text: await response.text() };
  } catch (error) {
    if (signal.aborted) return { ok: false, kind: 'timeout' };
    return { ok: false, kind: 'unavailable', reason: (error as Error).message };
  }
}

export async function callService(
  url: string,
  options: ServiceCallOptions,
  local?: LocalDispatch,
): Promise<ServiceCallResult> {
  const request: OutgoingRequest = {
    method: options.method ?? 'GET',
    headers: {
      accept: 'application/json, application/problem+json',
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...options.headers,
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  };
  const sent =
    local && url.startsWith(`${local.origin}/`)
      ? await sendLocally(local, url.slice(local.origin.length), request, options.timeoutMs)
      : await sendOverHttp(url, request, options.timeoutMs);
  if (!sent.ok) return sent;
  try {
    return { ok: true, status: sent.status, body: JSON.parse(sent.text) };
  } catch {
    return { ok: false, kind: 'malformed', status: sent.status };
  }
}

/** Where another service is and how long to wait for it; `baseUrl` is read per call (the embedded process learns its port late). */
export interface ServiceClientOptions {
  baseUrl: () => string;
  timeoutMs: number;
  auth: Authenticator;
  /** This process's own app, once it listens: calls to a service hosted here skip the socket. */
  local?: () => LocalDispatch | undefined;
}

/**
 * Calls on another service's published API for the request's tenant: a service token of `caller`
 * with `scopes`, the tenant and request id forwarded, the timeout. `post` sends `body` as JSON.
 */
export function serviceCalls(options: ServiceClientOptions, caller: string, scopes: string[]) {
  const serviceToken = serviceTokens(options.auth, caller, scopes);
  const send = async (ctx: RequestContext, path: string, method: 'GET' | 'POST', body?: unknown) =>
    callService(
      `${options.baseUrl()}${path}`,
      {
        method,
        body,
        timeoutMs: options.timeoutMs,
        headers: {
          authorization: `Bearer ${await serviceToken(ctx.tenantId)}`,
          'x-vendor-tenant': ctx.tenantId,
          'x-request-id': ctx.requestId,
        },
      },
      options.local?.(),
    );
  return {
    get: (ctx: RequestContext, path: string): Promise<ServiceCallResult> => send(ctx, path, 'GET'),
    post: (ctx: RequestContext, path: string, body: unknown): Promise<ServiceCallResult> =>
      send(ctx, path, 'POST', body),
  };
}

/** GET on another service's published API, as `serviceCalls` makes it. */
export function serviceGet(options: ServiceClientOptions, caller: string, scopes: string[]) {
  return serviceCalls(options, caller, scopes).get;
}

/** The caller's own problems for a service that does not answer as it publishes. */
export interface CallProblems {
  /** How the detail names the service asked, e.g. "The events service". */
  service: string;
  /** No answer, a timeout or a 5xx (503 in the caller's table). */
  unavailable: ProblemCode;
  /** Any other status, or a body that is not JSON (502 in the caller's table). */
  invalid: ProblemCode;
}

/** The body of an answer with the expected status; anything else is a typed failure, never a 5xx of ours. */
export function expectAnswer(result: ServiceCallResult, expected: number, problems: CallProblems): unknown {
  if (!result.ok && result.kind !== 'malformed') {
    throw new DomainError(
      problems.unavailable,
      result.kind === 'timeout'
        ? `${problems.service} did not answer in time.`
        : `${problems.service} could not be reached.`,
    );
  }
  // A 5xx is the service failing, whatever its body (a proxy's HTML page included).
  if (result.status >= 500)
    throw new DomainError(problems.unavailable, `${problems.service} failed the read (${result.status}).`);
  if (!result.ok)
    throw new DomainError(
      problems.invalid,
      `${problems.service} answered ${result.status} with a body that is not JSON.`,
    );
  if (result.status !== expected)
    throw new DomainError(problems.invalid, `${problems.service} refused the read (${result.status}).`);
  return result.body;
}

/**
 * Independent calls to other services sent together, answered as `Promise.all` would, except that
 * when several fail the first failure in argument order is thrown, not the first to arrive: the
 * problem a request gets does not depend on which service answered faster.
 */
export async function allInOrder<T extends readonly unknown[]>(calls: { [K in keyof T]: Promise<T[K]> }): Promise<T> {
  const settled = await Promise.allSettled(calls);
  const failed = settled.find((outcome) => outcome.status === 'rejected');
  if (failed) throw failed.reason;
  return settled.map((outcome) => (outcome as PromiseFulfilledResult<unknown>).value) as unknown as T;
}
