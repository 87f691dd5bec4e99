import { z } from 'zod';
import { Timestamp } from '../../../platform/openapi.ts';
import { EventsPage, One } from '../envelopes.ts';

export const SourceResponse = z.strictObject({
  id: z.string(),
  sourceIri: z.string(),
  name: z.string(),
  status: z.string(),
  createdAt: Timestamp,
});

export const SourcePageResponse = EventsPage(SourceResponse);
export const OneSourceResponse = One(SourceResponse);
