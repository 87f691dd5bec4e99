import { z } from 'zod';
import type { Authenticator } from '../../platform/auth.ts';
import type { RequestContext } from '../../platform/context.ts';
import { callService } from '../../platform/service-client.ts';

/**
 * Content's only way to the governed KC registry: curriculum's published read
 * GET {curriculum_root}/alpha/curriculum/v1/kcs/{kcId}, with a service token of the caller's tenant
 * and a timeout. It never throws: the caller turns "no answer" into a refusal (fail closed).
 */

const KcAnswer = z.object({
  kc_id: z.string(),
  stored_as: z.string(),
  publication_status: z.string().optional(),
  status: z.string().optional(),
  retired_at: z.string().nullable().optional(),
});

export type KcLookup = { outcome: 'active' } | { outcome: 'inactive'; reason: string } | { outcome: 'failed'; reason: string };

export interface KcRegistryClient {
  lookup(ctx: RequestContext, kcId: string): Promise<KcLookup>;
}

const TOKEN_TTL_SECONDS = 300;
const RETIRED = new Set(['retired', 'soft_retired', 'soft-retired']);

/** `baseUrl` is read per call: the embedded process learns its own port only once it listens. */
export function httpKcRegistryClient(options: { baseUrl: () => string; timeoutMs: number; auth: Authenticator }): KcRegistryClient {
  const tokens = new Map<string, { token: string; renewAtMs: number }>();
  async function serviceToken(tenantId: string): Promise<string> {
    const cached = tokens.get(tenantId);
    if (cached && cached.renewAtMs > Date.now()) return cached.token;
    const token = await options.auth.sign({
      tenantId,
      subject: 'service:content',
      scopes: ['curriculum:read'],
      roles: ['service'],
      ttlSeconds: TOKEN_TTL_SECONDS,
    });
    tokens.set(tenantId, { token, renewAtMs: Date.now() + (TOKEN_TTL_SECONDS - 60) * 1000 });
    return token;
  }
  return {
    async lookup(ctx, kcId) {
      const result = await callService(`${options.baseUrl()}/alpha/curriculum/v1/kcs/${encodeURIComponent(kcId)}`, {
        timeoutMs: options.timeoutMs,
        headers: { authorization: `Bearer ${await serviceToken(ctx.tenantId)}`, 'x-request-id': ctx.requestId },
      });
      if (!result.ok) return { outcome: 'failed', reason: result.kind };
      if (result.status === 404 || result.status === 410) return { outcome: 'inactive', reason: 'not a KC of the registry' };
      if (result.status !== 200) return { outcome: 'failed', reason: `status ${result.status}` };
      const kc = KcAnswer.safeParse(result.body);
      if (!kc.success || kc.data.kc_id !== kcId) return { outcome: 'failed', reason: 'malformed answer' };
      // A CASE KC (or anything not stored as a registry KC) never counts as one.
      if (kc.data.stored_as !== 'alpha.knowledge_component') return { outcome: 'inactive', reason: `stored_as ${kc.data.stored_as} is not a registry KC` };
      const state = [kc.data.status, kc.data.publication_status].filter((value): value is string => value !== undefined);
      if ((kc.data.retired_at ?? null) !== null || state.some((value) => RETIRED.has(value))) return { outcome: 'inactive', reason: 'the KC is retired' };
      return { outcome: 'active' };
    },
  };
}
