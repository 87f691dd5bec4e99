import { z } from 'zod';
import { Timestamp } from '../../../platform/openapi.ts';
import { TRUST_STATUSES } from '../vocabulary.ts';

export const TestServeEligibilityResponse = z.strictObject({
  content_id: z.string(),
  content_version_id: z.string(),
  content_kind: z.string(),
  usage_scope: z.string(),
  trust_status: z.enum(TRUST_STATUSES).nullable(),
  test_serve_eligible: z.boolean(),
  problem_code: z.string().nullable(),
  reasons: z.array(z.string()),
});

export const TestServeAuthorizationResponse = z.strictObject({
  authorization_id: z.string(),
  bank_content_id: z.string(),
  bank_version_id: z.string(),
  form_content_id: z.string(),
  form_version_id: z.string(),
  test_identity_id: z.string(),
  person_reality: z.string(),
  grant_policy_id: z.string(),
  authorized_by: z.string(),
  authorized_at: Timestamp,
});
