import { z } from 'zod';
import { ReleaseEligibilityAnswer } from '../../platform/contract.ts';
import { JsonObject, PageResponse, Timestamp } from '../../platform/openapi.ts';
import { ComponentResponse } from './components/components.responses.ts';

/** Answer schemas of the learner side (approvals, routing, placement, gates, ingest). */

const TargetRefResponse = z.object({
  module: z.string(),
  content_id: z.string(),
  content_kind: z.string(),
  content_version_id: z.string(),
});

export const CourseApprovalResponse = z.strictObject({
  approval_id: z.string(),
  course_id: z.string(),
  sequence: z.number().int(),
  approved_by: z.string(),
  provenance: JsonObject,
  course_graph_sha256: z.string(),
  kc_snapshot_sha256: z.string(),
  expected_course_graph_sha256: z.string().nullable(),
  expected_kc_snapshot_sha256: z.string().nullable(),
  kc_snapshot: z.array(
    z.strictObject({
      kc_id: z.string(),
      kc_version_id: z.string(),
      version_number: z.number().int(),
      state: z.literal('firm'),
      firming_event_id: z.string(),
      firmed_by_approval: z.boolean(),
    }),
  ),
  recorded_by: z.string(),
  created_at: Timestamp,
});
export const CourseApprovalPageResponse = PageResponse(CourseApprovalResponse);

export const NextLessonResponse = z.strictObject({
  course_id: z.string(),
  student_id: z.string().nullable(),
  as_of_date: z.string().nullable(),
  component: ComponentResponse,
  ancestor_ids: z.array(z.string()),
  eligibility: z
    .strictObject(ReleaseEligibilityAnswer.shape)
    .describe("Content's release-eligibility answer for the pinned exact version, read at launch"),
  approval: CourseApprovalResponse.describe('The approval routed on: its id, both digests and the firm KC snapshot'),
});

export const PlacementCandidatesResponse = z.strictObject({
  track_id: z.string(),
  subject_id: z.string().nullable(),
  student_id: z.string().nullable(),
  as_of_date: z.string().nullable(),
  grade_levels: z.array(z.number()),
  engine_ref: z.string().nullable(),
  entry_policy_ref: z.string().nullable(),
  exit_policy_ref: z.string().nullable(),
  candidates: z.array(ComponentResponse),
});

export const GateContractResponse = z.strictObject({
  component_id: z.string(),
  kind: z.string(),
  name: z.string().nullable(),
  parent_component_id: z.string().nullable(),
  publication_status: z.string(),
  launch: z.enum(['release', 'test_serve_only']),
  bank_ref: TargetRefResponse.nullable(),
  renderer_ref: z.string().nullable(),
  scope_kc_refs: z.array(z.string()),
  remediation_kc_refs: z.array(z.string()),
  form_selection: z.string(),
  max_bank_members: z.number().int(),
  remediation_map: z.record(z.string(), z.string()),
  etag: z.string(),
});

const gateStatusFields = {
  component_id: z.string(),
  student_id: z.string(),
  as_of: z.string(),
  gate_status: z.enum(['not_attempted', 'awaiting_result', 'passed', 'failed']),
  result_record_id: z.string().nullable(),
  graded_at: z.string().nullable(),
  remediation_category: z.string().nullable(),
  served_form_count: z.number().int(),
};
export const GateStatusResponse = z.strictObject(gateStatusFields);

export const GateRemediationResponse = z.strictObject({
  ...gateStatusFields,
  remediation_kc_refs: z.array(z.string()),
  remediation: z
    .strictObject({
      category: z.string(),
      kind: z.string(),
      component_id: z.string(),
      target_ref: TargetRefResponse.nullable(),
    })
    .nullable(),
});

export const GateNextFormResponse = z.strictObject({
  component_id: z.string(),
  student_id: z.string(),
  as_of: z.string(),
  launch: z.enum(['release', 'test_serve']),
  bank_ref: TargetRefResponse,
  selected_form_ref: TargetRefResponse,
  bank_member_ordinal: z.number().int(),
  test_serve_authorization_id: z.string().nullable(),
  seen_form_count: z.number().int(),
  validated_member_count: z.number().int(),
});

export const SourceIngestJobResponse = z.strictObject({
  job_id: z.string(),
  source_system: z.string(),
  producer_batch_id: z.string(),
  status: z.string(),
  courses: z.array(
    z.strictObject({
      sourced_id: z.string(),
      component_id: z.string(),
      routable: z.boolean(),
      anchor_reason: z.string().nullable(),
    }),
  ),
  rows: z.array(
    z.strictObject({
      source_table: z.string(),
      sourced_id: z.string(),
      field: z.string(),
      component_id: z.string(),
      kind: z.string(),
      parent_component_id: z.string().nullable(),
      outcome: z.enum(['created', 'unchanged', 'updated', 'reactivated']),
    }),
  ),
  created_by: z.string(),
  created_at: z.string(),
});
