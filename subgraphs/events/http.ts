import type { FastifyRequest } from 'fastify';
import { vendorTenantRefusal } from '../../platform/auth.ts';
import type { RequestContext } from '../../platform/context.ts';
import { DomainError } from '../../platform/errors.ts';
import { headerOf, requestContextOf } from '../../platform/http.ts';
import type { PlatformRuntime } from '../../platform/service.ts';

/**
 * The caller's context on the events paths: a JSON body on every POST, and an X-Vendor-Tenant
 * header, when sent, that names the token's own tenant (an empty one is malformed, not another tenant).
 */
export async function eventsContext(runtime: PlatformRuntime, request: FastifyRequest): Promise<RequestContext> {
  const ctx = await requestContextOf(runtime.auth, request);
  if (request.method === 'POST' && !/^application\/(.+\+)?json\b/i.test(headerOf(request, 'content-type') ?? '')) {
    throw new DomainError('unsupported_media_type', 'Send the body as application/json.');
  }
  const refusal = vendorTenantRefusal(headerOf(request, 'x-vendor-tenant'), ctx.principal);
  if (refusal) throw refusal;
  return ctx;
}
