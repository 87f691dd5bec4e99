import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { RequestContext } from '../../platform/context.ts';
import { DomainError } from '../../platform/errors.ts';
import { requestContextOf } from '../../platform/http.ts';
import { parseInput } from '../../platform/validation.ts';
import type { PlatformRuntime } from '../../platform/service.ts';

/** Paths under {tenant_root}, relative to content's root. */
export const TENANT_ROOT = '/tenants/:tenantId/alpha/content';

export const TenantParams = z.object({ tenantId: z.string().min(1) });
export const ItemParams = TenantParams.extend({ contentId: z.string().min(1) });
export const VersionParams = ItemParams.extend({ versionId: z.string().min(1) });

/** The caller's context; the {tenantId} path segment must be the token's tenant. */
export async function tenantContext(runtime: PlatformRuntime, request: FastifyRequest): Promise<RequestContext> {
  const ctx = await requestContextOf(runtime.auth, request);
  const { tenantId } = parseInput(TenantParams, request.params);
  if (tenantId !== ctx.tenantId) {
    throw new DomainError('tenant_mismatch', `The token is for tenant ${ctx.tenantId}, not ${tenantId}.`);
  }
  return ctx;
}
