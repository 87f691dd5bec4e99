import { z } from 'zod';
import { Timestamp } from '../../platform/openapi.ts';

/** The answer fields of a governed, soft-retired row: its version, the ETag derived from it, and its times. */
export const GovernedRowFields = {
  version: z.number().int(),
  etag: z.string(),
  created_at: Timestamp,
  updated_at: Timestamp,
  retired_at: Timestamp.nullable(),
};
