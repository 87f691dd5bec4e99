import { z } from 'zod';
import { TRUST_STATUSES } from '../vocabulary.ts';

export const ReleaseEligibilityResponse = z.strictObject({
  content_id: z.string(),
  content_version_id: z.string(),
  content_kind: z.string(),
  usage_scope: z.string(),
  trust_status: z.enum(TRUST_STATUSES),
  serveable: z.boolean(),
  release_eligible: z.boolean(),
  problem_code: z.string().nullable(),
});
