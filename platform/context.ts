import type { Principal } from './auth.ts';

/**
 * What a rule knows about the caller of one request. Built by the transport (REST hook or GraphQL
 * context), the same for both, and passed as the first argument of every service function.
 */
export interface RequestContext {
  principal: Principal;
  tenantId: string;
  requestId: string;
  traceId: string;
  /** The request's clock: rules take time from here, never from Date.now(). */
  now: Date;
}

export function contextFor(principal: Principal, ids: { requestId: string; traceId: string }): RequestContext {
  return { principal, tenantId: principal.tenantId, requestId: ids.requestId, traceId: ids.traceId, now: new Date() };
}
