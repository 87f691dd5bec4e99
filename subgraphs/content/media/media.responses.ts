import { z } from 'zod';
import { PageResponse, Timestamp } from '../../../platform/openapi.ts';

export const MediaResponse = z.strictObject({
  media_id: z.string(),
  content_id: z.string(),
  media_kind: z.string(),
  mime_type: z.string(),
  file_name: z.string().nullable(),
  byte_size: z.number().int(),
  sha256: z.string(),
  delivery_url: z.string().describe('GET with a bearer token of the tenant'),
  created_at: Timestamp,
});

export const MediaPageResponse = PageResponse(MediaResponse);
