import { z } from 'zod';
import { JsonObject, PageResponse, Timestamp } from '../../../platform/openapi.ts';

export const FacetResponse = z.strictObject({
  facet_key: z.string(),
  value_type: z.string(),
  grain: z.string(),
  status: z.string(),
  allowed_values: z.array(z.string()).nullable(),
  created_at: Timestamp,
});

export const AssignmentResponse = z.strictObject({
  assignment_id: z.string(),
  content_id: z.string(),
  facet_key: z.string(),
  facet_value: z.union([z.string(), z.number(), z.boolean()]),
  provenance: JsonObject.nullable(),
  created_by: z.string(),
  created_at: Timestamp,
});

export const FacetPageResponse = PageResponse(FacetResponse);
export const AssignmentPageResponse = PageResponse(AssignmentResponse);
