import { z } from 'zod';
import { JsonObject, PageResponse, Timestamp } from '../../../platform/openapi.ts';

/** Answer schemas of items: they describe the REST answers and check them before they are sent. */

export const ItemResponse = z.strictObject({
  content_id: z.string(),
  content_kind: z.string(),
  subtype: z.string().nullable(),
  title: z.string(),
  language: z.string().nullable(),
  subject_id: z.string().nullable(),
  target_grade_id: z.string().nullable(),
  expected_xp: z.number().int().nullable(),
  status: z.string(),
  dok: z.string().nullable(),
  assessment_role: z.string().nullable(),
  usage_scope: z.string(),
  test_type: z.string().nullable(),
  is_mastery_gate: z.boolean(),
  source_identifier: z.string().nullable(),
  source_system: z.string().nullable(),
  source_table: z.string().nullable(),
  source_record_id: z.string().nullable(),
  source_activity_ref: z.string().nullable(),
  membership_rule: z.string().nullable(),
  latest_version_id: z.string().nullable(),
  latest_version_number: z.number().int(),
  etag: z.string(),
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const ItemPageResponse = PageResponse(ItemResponse);

export const BlueprintResponse = z.strictObject({
  spec_id: z.string(),
  content_id: z.string(),
  kc_coverage: z
    .record(z.string(), z.record(z.string(), z.number().int()))
    .describe('KC reference to counts by DOK level'),
  item_type_mix: z.record(z.string(), z.number().int()),
  difficulty_constraints: JsonObject,
  passing_rule: JsonObject,
  min_forms: z.number().int(),
  max_item_overlap: z.number(),
  enemy_item_rule: JsonObject,
});
