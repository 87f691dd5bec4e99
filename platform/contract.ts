import { z } from 'zod';

/**
 * Vocabulary that crosses service boundaries through the published APIs (a curriculum pin names
 * a content kind), written once so both sides of the contract agree.
 */
export const CONTENT_KINDS = [
  'question',
  'test',
  'test_spec',
  'test_bank',
  'article',
  'video',
  'audio',
  'image',
  'interactive',
  'media_asset',
  'external_link',
  'script',
] as const;
export type ContentKind = (typeof CONTENT_KINDS)[number];

export const TRUST_STATUSES = ['trusted', 'degraded', 'failed', 'unknown'] as const;
export type TrustStatus = (typeof TRUST_STATUSES)[number];

/** The trust under which content serves an exact version; failed and unknown never serve. */
export const SERVEABLE_TRUST: ReadonlySet<TrustStatus> = new Set(['trusted', 'degraded']);

/**
 * Content's published release-eligibility answer (GET .../versions/{id}/release-eligibility, and
 * the `eligibility` member of its content.version_not_serveable problem): the eight fields.
 */
export const ReleaseEligibilityAnswer = z.object({
  content_id: z.string(),
  content_version_id: z.string(),
  content_kind: z.string(),
  usage_scope: z.string(),
  trust_status: z.enum(TRUST_STATUSES),
  serveable: z.boolean(),
  release_eligible: z.boolean(),
  problem_code: z.string().nullable(),
});
export type ReleaseEligibility = z.infer<typeof ReleaseEligibilityAnswer>;

/** What the answer says as a whole: eligible only when no field of it says otherwise. */
export function answersReleaseEligible(answer: ReleaseEligibility): boolean {
  return (
    answer.release_eligible &&
    answer.serveable &&
    answer.problem_code === null &&
    SERVEABLE_TRUST.has(answer.trust_status)
  );
}
