import type { FastifyRequest } from 'fastify';
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
  const vendorTenant = headerOf(request, 'x-vendor-tenant');
  if (vendorTenant === '') {
    throw new DomainError(
      'validation_failed',
      'X-Vendor-Tenant is empty: send the tenant id, or leave the header out.',
      {
        fieldErrors: [{ field: 'X-Vendor-Tenant', message: 'must not be empty' }],
      },
    );
  }
  if (vendorTenant !== undefined && vendorTenant !== ctx.tenantId) {
    throw new DomainError('tenant_mismatch', `The token is for tenant ${ctx.tenantId}, not ${vendorTenant}.`, {
      fieldErrors: [{ field: 'X-Vendor-Tenant', message: 'does not match the token tenant' }],
    });
  }
  return ctx;
}
