import { z } from 'zod';
import { Timestamp } from '../../../platform/openapi.ts';

export const PublicationResponse = z.strictObject({
  content_id: z.string(),
  version_id: z.string(),
  content_kind: z.string(),
  publication_status: z.literal('published'),
  published_by: z.string(),
  published_at: Timestamp,
});
