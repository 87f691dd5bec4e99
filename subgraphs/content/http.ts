import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { RequestContext } from '../../platform/context.ts';
import { DomainError } from '../../platform/errors.ts';
import { headerOf, requestContextOf, sendCommandResult } from '../../platform/http.ts';
import type { ContentDeps, ItemCommand } from './deps.ts';
import { idAsStored, parseInput } from '../../platform/validation.ts';
import type { PlatformRuntime } from '../../platform/service.ts';

/** Paths under {tenant_root}, relative to content's root. */
export const TENANT_ROOT = '/tenants/:tenantId/alpha/content';

/**
 * A path id: a uuid is read in its lower-case form, the form the database answers. Compared as sent, an upper-case
 * id found an item but not its versions' eligibility, which compare the stored id with the path's.
 */
const pathId = z.string().min(1).transform(idAsStored);

export const TenantParams = z.object({ tenantId: z.string().min(1) });
export const ItemParams = TenantParams.extend({ contentId: pathId });
export const VersionParams = ItemParams.extend({ versionId: pathId });

/** The caller's context; the {tenantId} path segment must be the token's tenant. */
export async function tenantContext(runtime: PlatformRuntime, request: FastifyRequest): Promise<RequestContext> {
  const ctx = await requestContextOf(runtime.auth, request);
  const { tenantId } = parseInput(TenantParams, request.params);
  if (tenantId !== ctx.tenantId) {
    throw new DomainError('tenant_mismatch', `The token is for tenant ${ctx.tenantId}, not ${tenantId}.`);
  }
  return ctx;
}

/** The handler of a POST that runs one item command: the path's item, the body and the Idempotency-Key. */
export function itemCommandHandler<T>(deps: ContentDeps, command: ItemCommand<T>) {
  return async (
    request: FastifyRequest<{ Params: { contentId: string } }> & { ctx: RequestContext },
    reply: FastifyReply,
  ) =>
    sendCommandResult(
      reply,
      await command(deps, request.ctx, {
        contentId: request.params.contentId,
        body: request.body,
        idempotencyKey: headerOf(request, 'idempotency-key'),
      }),
    );
}
