import { z } from 'zod';
import { PageResponse, Timestamp } from '../../../platform/openapi.ts';

export const FrameworkResponse = z.strictObject({
  standards_framework_id: z.string(),
  framework_identifier: z.string(),
  title: z.string(),
  creator: z.string().nullable(),
  subject_ids: z.array(z.string()),
  language: z.string().nullable(),
  version: z.string().nullable(),
  case_version: z.string().nullable(),
  current_release_id: z.string(),
  current_checksum_sha256: z.string(),
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const StandardKcMapResponse = z.strictObject({
  map_id: z.string(),
  source_release_id: z.string(),
  standard_id: z.string(),
  kc_id: z.string(),
  relationship: z.string(),
  status: z.enum(['active', 'retired']),
  updated_at: Timestamp,
});

export const ImportJobResponse = z.strictObject({
  import_job_id: z.string(),
  status: z.literal('completed'),
  standards_framework_id: z.string(),
  framework_identifier: z.string(),
  release_id: z.string(),
  checksum_sha256: z.string(),
  item_count: z.number().int(),
  association_count: z.number().int(),
  map_count: z.number().int(),
  created_at: Timestamp,
});

export const FrameworkPageResponse = PageResponse(FrameworkResponse);
export const StandardKcMapPageResponse = PageResponse(StandardKcMapResponse);
