import { z } from 'zod';
import { PageResponse, Timestamp } from '../../../platform/openapi.ts';

export const KcTagResponse = z.strictObject({
  content_id: z.string(),
  kc_id: z.string(),
  weight: z.number(),
  status: z.string(),
  tagged_by: z.string(),
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const KcTagPageResponse = PageResponse(KcTagResponse);
