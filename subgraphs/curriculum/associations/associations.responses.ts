import { z } from 'zod';
import { PageResponse, Timestamp } from '../../../platform/openapi.ts';

export const AssociationResponse = z.strictObject({
  association_id: z.string(),
  associationType: z.string(),
  originId: z.string(),
  destinationId: z.string(),
  sequence_number: z.number().int().nullable(),
  status: z.string(),
  version: z.number().int(),
  etag: z.string(),
  created_at: Timestamp,
  updated_at: Timestamp,
  retired_at: Timestamp.nullable(),
});

export const AssociationPageResponse = PageResponse(AssociationResponse);
