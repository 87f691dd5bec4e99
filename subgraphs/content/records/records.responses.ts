import { z } from 'zod';
import { PageResponse, Timestamp } from '../../../platform/openapi.ts';
import { TRUST_STATUSES } from '../vocabulary.ts';
import { EFFECTIVENESS_STATUSES } from './effectiveness.ts';

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
  content_version_id: z.string().describe('The exact version derived for'),
  effectiveness_status: z.enum(EFFECTIVENESS_STATUSES),
  evidence_count: z.number().int().describe('Graded results (assessment_graded events) of the exact version'),
  served_count: z.number().int().describe('Other events naming the exact version: it was served'),
  last_evidence_at: Timestamp.nullable(),
  last_served_at: Timestamp.nullable(),
  minimum_evidence: z.number().int().describe('Graded results needed before fresh or stale'),
  freshness_window_days: z
    .number()
    .int()
    .describe('How recent the last graded result (or any event, for pending) must be'),
  derived_at: Timestamp,
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
