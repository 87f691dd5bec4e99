import { z } from 'zod';
import { PageResponse } from '../../../platform/openapi.ts';
import { GovernedRowFields } from '../governed.responses.ts';

export const AssociationResponse = z.strictObject({
  association_id: z.string(),
  associationType: z.string(),
  originId: z.string(),
  destinationId: z.string(),
  sequence_number: z.number().int().nullable(),
  status: z.string(),
  ...GovernedRowFields,
});

export const AssociationPageResponse = PageResponse(AssociationResponse);
