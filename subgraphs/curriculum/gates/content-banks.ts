import { z } from 'zod';
import type { RequestContext } from '../../../platform/context.ts';
import { DomainError } from '../../../platform/errors.ts';
import type { ServiceClientOptions } from '../../../platform/service-client.ts';
import { contentCalls, invalidAnswer, refusalOf, unanswered, type TargetRef } from '../content-client.ts';

/**
 * The two content reads a mastery gate needs besides release eligibility: the bank-members read of
 * one exact bank version, and the test-serve authorization that alone launches a draft gate. Same
 * transport rules as the eligibility call: timeout, service token of the caller's tenant, typed
 * fail-closed problems.
 */

const BankMember = z.object({
  ordinal: z.number().int(),
  form_content_id: z.string(),
  form_version_id: z.string(),
  usage_scope: z.string(),
  practice_eligible: z.boolean(),
  ready: z.boolean(),
});
export type BankMember = z.infer<typeof BankMember>;

const BankMembers = z.object({ content_id: z.string(), version_id: z.string(), members: z.array(BankMember) });
export type BankMembers = z.infer<typeof BankMembers>;

const Authorization = z.object({
  authorization_id: z.string(),
  bank_version_id: z.string(),
  form_version_id: z.string(),
});
export type TestServeAuthorization = z.infer<typeof Authorization>;

const Problem = z.object({
  code: z.string(),
  fieldErrors: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
});

export interface TestServeSelection {
  bank: TargetRef;
  form: TargetRef;
  testIdentityId: string;
}

export interface ContentBanksClient {
  /** The bank_member rows of exactly this bank version, as content answered them. */
  members(ctx: RequestContext, bank: TargetRef): Promise<BankMembers>;
  /** Content's receipt for one exact draft bank-to-form selection, or the refusal as a typed problem. */
  authorizeTestServe(ctx: RequestContext, selection: TestServeSelection): Promise<TestServeAuthorization>;
}

export function httpContentBanksClient(options: ServiceClientOptions): ContentBanksClient {
  const content = contentCalls(options);
  return {
    async members(ctx, bank) {
      const path = `/items/${encodeURIComponent(bank.content_id)}/bank-members?version_id=${encodeURIComponent(bank.content_version_id)}`;
      const result = await content.get(ctx, path);
      if (!result.ok || result.status >= 500) throw unanswered(result, 'the bank-members read');
      if (result.status === 200) {
        const answer = BankMembers.safeParse(result.body);
        if (!answer.success) throw invalidAnswer('The content service answered bank members without their fields.');
        return answer.data;
      }
      const problem = refusalOf(Problem, result.status, result.body);
      throw new DomainError(
        'curriculum:target_not_serveable',
        `Content refused the members of bank version ${bank.content_version_id} (${problem.code}).`,
        {
          fieldErrors: [{ field: 'alpha.target_ref.content_version_id', message: problem.code }],
          extensions: { target_ref: bank },
        },
      );
    },
    async authorizeTestServe(ctx, { bank, form, testIdentityId }) {
      const result = await content.post(ctx, '/test-serve-authorizations', {
        bank_content_id: bank.content_id,
        bank_version_id: bank.content_version_id,
        form_content_id: form.content_id,
        form_version_id: form.content_version_id,
        test_identity_id: testIdentityId,
      });
      if (!result.ok || result.status >= 500) throw unanswered(result, 'the test-serve authorization');
      if (result.status === 201) {
        const answer = Authorization.safeParse(result.body);
        if (
          !answer.success ||
          answer.data.bank_version_id !== bank.content_version_id ||
          answer.data.form_version_id !== form.content_version_id
        ) {
          throw invalidAnswer('The content service answered a test-serve receipt for another selection.');
        }
        return answer.data;
      }
      const problem = refusalOf(Problem, result.status, result.body);
      throw new DomainError(
        'curriculum:gate_not_launchable',
        `Content did not authorize test-serving this draft gate (${problem.code}).`,
        {
          fieldErrors: problem.fieldErrors,
        },
      );
    },
  };
}
