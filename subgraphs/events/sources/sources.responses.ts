import { z } from 'zod';
import { Timestamp } from '../../../platform/openapi.ts';

export const SourceResponse = z.strictObject({
  id: z.string(),
  sourceIri: z.string(),
  name: z.string(),
  status: z.string(),
  createdAt: Timestamp,
});

export const SourcePageResponse = z.strictObject({ data: z.array(SourceResponse), nextCursor: z.string().nullable() });
export const OneSourceResponse = z.strictObject({ data: SourceResponse });
