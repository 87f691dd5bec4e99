import { z } from 'zod';
import { PageResponse, Timestamp } from '../../../platform/openapi.ts';
import { TRUST_STATUSES } from '../vocabulary.ts';

export const ExternalLinkResponse = z.strictObject({
  content_id: z.string(),
  url: z.string(),
  external_open_policy: z.string(),
  provider: z.string().nullable(),
  title: z.string().nullable(),
  updated_by: z.string(),
  updated_at: Timestamp,
});

export const CurriculumLinkPageResponse = PageResponse(
  z.strictObject({
    link_id: z.string(),
    content_id: z.string(),
    curriculum_node_id: z.string(),
    curriculum_link_kind: z.string(),
    archived_at: Timestamp,
    frozen: z.literal(true),
  }),
);

export const EffectivenessResponse = z.strictObject({
  content_id: z.string(),
  content_version_id: z.string().nullable(),
  effectiveness_status: z.literal('insufficient_data'),
  evidence_count: z.number().int(),
  derived_at: Timestamp.nullable(),
});

export const PolicyPageResponse = PageResponse(
  z.strictObject({
    policy_id: z.string(),
    policy_key: z.string(),
    status: z.string(),
    value: z.unknown(),
    provisioned_at: Timestamp,
  }),
);

export const TrustStatusPageResponse = PageResponse(
  z.strictObject({
    content_id: z.string(),
    version_id: z.string(),
    version_number: z.number().int(),
    trust_status: z.enum(TRUST_STATUSES),
  }),
);
