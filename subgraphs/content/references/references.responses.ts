import { z } from 'zod';
import { PageResponse, Timestamp } from '../../../platform/openapi.ts';

export const ReferenceResponse = z.strictObject({
  reference_id: z.string(),
  content_id: z.string(),
  relationship_kind: z.string(),
  referenced_content_id: z.string(),
  parent_version_id: z.string().nullable(),
  referenced_version_id: z.string().nullable(),
  ordinal: z.number().int().nullable(),
  status: z.string(),
  created_by: z.string(),
  created_at: Timestamp,
  retired_by: z.string().nullable(),
  retired_at: Timestamp.nullable(),
});

export const ReferencePageResponse = PageResponse(ReferenceResponse);

export const BankMembersResponse = z.strictObject({
  content_id: z.string(),
  version_id: z.string(),
  membership_rule: z.string().nullable(),
  members: z.array(
    z.strictObject({
      reference_id: z.string(),
      ordinal: z.number().int(),
      form_content_id: z.string(),
      form_version_id: z.string(),
      usage_scope: z.string(),
      practice_eligible: z.boolean(),
      ready: z.boolean(),
      question_count: z.number().int(),
      not_ready_reason: z.string().nullable(),
    }),
  ),
  readiness: z.strictObject({
    member_count: z.number().int(),
    ready_count: z.number().int(),
    practice_eligible_ready_count: z.number().int(),
    question_count: z.number().int(),
  }),
});
