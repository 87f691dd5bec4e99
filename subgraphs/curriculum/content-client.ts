import { z } from 'zod';
import type { RequestContext } from '../../platform/context.ts';
import { answersReleaseEligible, ReleaseEligibilityAnswer, type ReleaseEligibility } from '../../platform/contract.ts';
import { DomainError } from '../../platform/errors.ts';
import { serviceCalls, type ServiceCallResult, type ServiceClientOptions } from '../../platform/service-client.ts';

/**
 * Curriculum's only way to content: the published release-eligibility read, over HTTP with a
 * timeout, with the caller's tenant. Any anomaly fails closed with a typed problem; the answer is
 * used for one decision and never stored.
 */

export interface TargetRef {
  module?: 'content';
  content_kind: string;
  content_id: string;
  content_version_id: string;
}

const ProblemAnswer = z.object({ code: z.string(), eligibility: ReleaseEligibilityAnswer.optional() });

export interface ContentEligibilityClient {
  /** Resolves with the eligible answer, or throws the problem the caller should answer with. */
  requireEligible(
    ctx: RequestContext,
    target: TargetRef,
    options?: {
      practiceEligible?: boolean;
      /**
       * The test_bank pin of a draft mastery_gate: the exact version must exist with the pinned
       * identity and kind, practice_eligible and not failed trust, but need not be released (a draft
       * bank never is; publishing the gate demands release, launching it test-serve).
       */
      draftBank?: boolean;
    },
  ): Promise<ReleaseEligibility>;
}

export function httpContentClient(options: ServiceClientOptions): ContentEligibilityClient {
  const content = contentCalls(options);
  return {
    async requireEligible(ctx, target, { practiceEligible = false, draftBank = false } = {}) {
      const result = await content.get(
        ctx,
        `/items/${encodeURIComponent(target.content_id)}/versions/${encodeURIComponent(target.content_version_id)}/release-eligibility`,
      );
      if (!result.ok || result.status >= 500) throw unanswered(result, 'the eligibility check');
      if (result.status === 200) {
        const answer = ReleaseEligibilityAnswer.safeParse(result.body);
        if (!answer.success) throw invalidAnswer('The content service answered without the eight eligibility fields.');
        return draftBank ? judgeDraftBank(target, answer.data) : judge(target, answer.data, practiceEligible);
      }
      const problem = refusalOf(ProblemAnswer, result.status, result.body);
      if (result.status === 404 || problem.code === 'content.not_found') {
        throw notServeable(
          target,
          `Content version ${target.content_version_id} of ${target.content_id} does not exist in this tenant.`,
          'content.not_found',
        );
      }
      if (problem.code === 'content.version_not_serveable') {
        if (draftBank && problem.eligibility) return judgeDraftBank(target, problem.eligibility);
        if (problem.eligibility) checkIdentity(target, problem.eligibility);
        throw notServeable(
          target,
          `Content version ${target.content_version_id} is not release eligible.`,
          problem.code,
        );
      }
      throw new DomainError(
        'curriculum:content_unavailable',
        `The content service refused the eligibility check (${problem.code}); nothing was written.`,
      );
    },
  };
}

/**
 * Calls on content's published API for the request's tenant (paths below /alpha/content), as
 * curriculum's service: a service token with read:content.
 */
export function contentCalls(options: ServiceClientOptions) {
  const calls = serviceCalls(options, 'curriculum', ['read:content']);
  const root = (ctx: RequestContext) => `/tenants/${encodeURIComponent(ctx.tenantId)}/alpha/content`;
  return {
    get: (ctx: RequestContext, path: string) => calls.get(ctx, `${root(ctx)}${path}`),
    post: (ctx: RequestContext, path: string, body: unknown) => calls.post(ctx, `${root(ctx)}${path}`, body),
  };
}

/** The typed problem of a refusal content answered; a refusal without one is an answer off contract. */
export function refusalOf<T extends z.ZodType>(schema: T, status: number, body: unknown): z.output<T> {
  const problem = schema.safeParse(body);
  if (!problem.success) throw invalidAnswer(`The content service answered ${status} without a typed problem.`);
  return problem.data;
}

/** The problem of a call content did not answer usably: no answer, a body that is not JSON, or a 5xx. */
export function unanswered(result: ServiceCallResult, what: string): DomainError {
  if (!result.ok && result.kind === 'malformed')
    return invalidAnswer(`The content service answered ${result.status} with a body that is not JSON.`);
  if (result.ok)
    return new DomainError(
      'curriculum:content_unavailable',
      `The content service failed ${what} (${result.status}); nothing was written.`,
    );
  return new DomainError(
    'curriculum:content_unavailable',
    result.kind === 'timeout'
      ? `The content service did not answer ${what} in time; nothing was written.`
      : `The content service could not be reached for ${what}; nothing was written.`,
  );
}

function checkIdentity(target: TargetRef, answer: ReleaseEligibility): void {
  if (answer.content_id !== target.content_id || answer.content_version_id !== target.content_version_id) {
    throw invalidAnswer('The content service answered for another content version.');
  }
}

/** The decision on a well-formed answer: eligible, for the pinned identity, of the pinned kind. */
function judge(target: TargetRef, answer: ReleaseEligibility, practiceEligible: boolean): ReleaseEligibility {
  checkIdentity(target, answer);
  if (answer.content_kind !== target.content_kind) {
    throw notServeable(
      target,
      `The pinned version is a ${answer.content_kind}, not a ${target.content_kind}.`,
      'content_kind_mismatch',
    );
  }
  if (!answersReleaseEligible(answer)) {
    throw notServeable(
      target,
      `Content version ${target.content_version_id} is not release eligible (trust ${answer.trust_status}).`,
      answer.problem_code ?? 'content.version_not_serveable',
    );
  }
  if (practiceEligible && answer.usage_scope !== 'practice_eligible') {
    throw notServeable(
      target,
      `Content version ${target.content_version_id} has usage_scope ${answer.usage_scope}, not practice_eligible.`,
      'usage_scope',
    );
  }
  return answer;
}

/** The decision for a draft gate's bank pin: the pinned identity and kind, practice_eligible, trust not failed. */
function judgeDraftBank(target: TargetRef, answer: ReleaseEligibility): ReleaseEligibility {
  if (answersReleaseEligible(answer)) return judge(target, answer, true);
  checkIdentity(target, answer);
  const reason =
    answer.content_kind !== 'test_bank' || target.content_kind !== 'test_bank'
      ? 'content_kind_mismatch'
      : answer.trust_status === 'failed'
        ? 'trust failed'
        : answer.usage_scope !== 'practice_eligible'
          ? 'usage_scope'
          : undefined;
  if (reason)
    throw notServeable(target, `Content version ${target.content_version_id} cannot be a draft gate's bank.`, reason);
  return answer;
}

function notServeable(target: TargetRef, detail: string, reason: string): DomainError {
  return new DomainError('curriculum:target_not_serveable', detail, {
    fieldErrors: [{ field: 'alpha.target_ref.content_version_id', message: reason }],
    extensions: { target_ref: target },
  });
}

export function invalidAnswer(detail: string): DomainError {
  return new DomainError('curriculum:content_answer_invalid', `${detail} Nothing was written.`);
}
