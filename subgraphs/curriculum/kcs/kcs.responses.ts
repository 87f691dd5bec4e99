import { z } from 'zod';
import { JsonObject, PageResponse, Timestamp } from '../../../platform/openapi.ts';
import { GovernedRowFields } from '../governed.responses.ts';

export const KcVersionResponse = z.strictObject({
  version_id: z.string(),
  kc_id: z.string(),
  version_number: z.number().int(),
  state: z.enum(['draft', 'firm']),
  firming_event_id: z.string().nullable(),
  definition: z.string(),
  alpha: JsonObject,
  created_by: z.string(),
  created_at: Timestamp,
});

export const KcResponse = z.strictObject({
  kc_id: z.string(),
  stored_as: z.string(),
  definition: z.string(),
  source_kc_id: z.string().nullable(),
  alpha: JsonObject,
  publication_status: z.string(),
  status: z.string(),
  current_version_id: z.string().nullable(),
  current_version: KcVersionResponse.optional(),
  ...GovernedRowFields,
});

export const KcPageResponse = PageResponse(KcResponse);
export const KcVersionPageResponse = PageResponse(KcVersionResponse);
