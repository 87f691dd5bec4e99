import type { Authenticator } from './auth.ts';

/**
 * Short-lived tokens a service signs to call another service for one tenant: role service and only
 * the scopes that call needs, reused until a minute before they expire.
 */
export function serviceTokens(auth: Authenticator, caller: string, scopes: string[], ttlSeconds = 300) {
  const tokens = new Map<string, { token: string; renewAtMs: number }>();
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
 * and every anomaly reported as a typed failure so the caller can fail closed.
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

export async function callService(url: string, options: ServiceCallOptions): Promise<ServiceCallResult> {
  const signal = AbortSignal.timeout(options.timeoutMs);
  let response: Response;
  let text: string;
  try {
    response = await fetch(url, {
      method: options.method ?? 'GET',
      headers: {
        accept: 'application/json, application/problem+json',
        ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...options.headers,
      },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal,
    });
    text = await response.text();
  } catch (error) {
    if (signal.aborted) return { ok: false, kind: 'timeout' };
    return { ok: false, kind: 'unavailable', reason: (error as Error).message };
  }
  try {
    return { ok: true, status: response.status, body: JSON.parse(text) };
  } catch {
    return { ok: false, kind: 'malformed', status: response.status };
  }
}
