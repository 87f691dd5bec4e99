import { z } from 'zod';
import type { RequestContext } from './context.ts';
import { callService, serviceTokens, type ServiceClientOptions } from './service-client.ts';

/**
 * The people service's published read, GET {people_root}/people/{personId}, with a timeout and a
 * service token of the caller's tenant. It never throws: callers decide what "no answer" means
 * (content: no test-serve authorization; events: no name).
 */

const PersonAnswer = z.object({
  personId: z.string(),
  givenName: z.string().optional(),
  familyName: z.string().optional(),
  reality: z.enum(['real', 'test', 'synthetic']).optional(),
  status: z.string().optional(),
});
export type Person = z.infer<typeof PersonAnswer>;

export type PersonLookup =
  { outcome: 'found'; person: Person } | { outcome: 'not_found' } | { outcome: 'failed'; reason: string };

export interface PeopleClient {
  lookup(ctx: RequestContext, personId: string): Promise<PersonLookup>;
}

/** `baseUrl` is read per call: the embedded process learns its own port only once it listens. */
export function httpPeopleClient(options: ServiceClientOptions & { caller: string }): PeopleClient {
  const serviceToken = serviceTokens(options.auth, options.caller, ['people_orgs:read']);
  return {
    async lookup(ctx, personId) {
      const result = await callService(
        `${options.baseUrl()}/people/${encodeURIComponent(personId)}`,
        {
          timeoutMs: options.timeoutMs,
          headers: { authorization: `Bearer ${await serviceToken(ctx.tenantId)}`, 'x-request-id': ctx.requestId },
        },
        options.local?.(),
      );
      if (!result.ok) return { outcome: 'failed', reason: result.kind };
      if (result.status === 404) return { outcome: 'not_found' };
      if (result.status !== 200) return { outcome: 'failed', reason: `status ${result.status}` };
      const person = PersonAnswer.safeParse(result.body);
      if (!person.success || person.data.personId !== personId)
        return { outcome: 'failed', reason: 'malformed answer' };
      return { outcome: 'found', person: person.data };
    },
  };
}
