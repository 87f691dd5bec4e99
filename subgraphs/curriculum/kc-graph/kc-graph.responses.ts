import { z } from 'zod';
import { JsonObject, PageResponse, Timestamp } from '../../../platform/openapi.ts';

export const PrerequisiteResponse = z.strictObject({
  prerequisite_id: z.string(),
  prerequisite_kc_id: z.string(),
  dependent_kc_id: z.string(),
  status: z.string(),
  created_by: z.string(),
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const RelationResponse = z.strictObject({
  relation_id: z.string(),
  relation_type: z.string(),
  from_kc_id: z.string(),
  to_kc_id: z.string(),
  status: z.string(),
  created_by: z.string(),
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const ReviewDecisionResponse = z.strictObject({
  decision_id: z.string(),
  kc_id: z.string(),
  kc_version_id: z.string(),
  decision: z.string(),
  reason: z.string().nullable(),
  reviewer_ref: z.string(),
  created_at: Timestamp,
});

export const FirmingEventResponse = z.strictObject({
  firming_event_id: z.string(),
  kc_id: z.string(),
  kc_version_id: z.string(),
  source: z.string(),
  evidence: JsonObject,
  recorded_by: z.string(),
  created_at: Timestamp,
});

export const PrerequisitePageResponse = PageResponse(PrerequisiteResponse);
export const RelationPageResponse = PageResponse(RelationResponse);
export const ReviewDecisionPageResponse = PageResponse(ReviewDecisionResponse);
export const FirmingEventPageResponse = PageResponse(FirmingEventResponse);
