import { z } from 'zod';
import { Timestamp } from '../../../platform/openapi.ts';
import { TRUST_STATUSES } from '../vocabulary.ts';

export const TrustEvidenceResponse = z.strictObject({
  evidence_id: z.string(),
  content_id: z.string(),
  version_id: z.string(),
  trust_status: z.enum(TRUST_STATUSES),
  source: z.string(),
  decided_by: z.string(),
  reason: z.string().nullable(),
  recorded_at: Timestamp,
});

export const TrustResponse = z.strictObject({
  content_id: z.string(),
  version_id: z.string(),
  trust_status: z.enum(TRUST_STATUSES),
  evidence: z.array(TrustEvidenceResponse),
});
