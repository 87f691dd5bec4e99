import { registerProblems, type ProblemNamespace } from '../../platform/errors.ts';

export const CURRICULUM_NAMESPACE: ProblemNamespace = { prefix: 'curriculum', separator: ':' };

declare module '../../platform/errors.ts' {
  interface ServiceProblemCodes {
    curriculum:
      keyof typeof CURRICULUM_CODES | keyof typeof GATE_CODES | keyof typeof INGEST_CODES | keyof typeof LEARNER_CODES;
  }
}

/** Curriculum's own codes; platform codes (not_found, precondition_failed ...) render as curriculum:<code>. */
export const CURRICULUM_CODES = registerProblems({
  'curriculum:target_not_serveable': { status: 409, title: 'The pinned exact content version is not release eligible' },
  'curriculum:content_unavailable': {
    status: 503,
    title: 'The content service could not answer the eligibility check',
  },
  'curriculum:content_answer_invalid': {
    status: 502,
    title: 'The content service gave an answer that cannot be trusted',
  },
  'curriculum:component_exists': { status: 409, title: 'An active component with this component_id already exists' },
  'curriculum:component_retired': { status: 409, title: 'The component is soft-retired; re-POST it to reactivate' },
  'curriculum:parent_not_found': { status: 422, title: 'The parent component does not exist or is retired' },
  'curriculum:origin_not_found': {
    status: 422,
    title: 'The origin component of the association does not exist or is retired',
  },
  'curriculum:association_retired': {
    status: 409,
    title: 'The association is soft-retired and cannot be reordered',
  },
  'curriculum:second_parent': {
    status: 409,
    title: 'The component already has an active parent; reparent it with PATCH',
  },
  'curriculum:association_exists': {
    status: 409,
    title: 'The association exists with another sequence_number; reorder it with PATCH',
  },
  'curriculum:containment_cycle': { status: 409, title: 'The containment would make a component its own ancestor' },
  'curriculum:kc_not_active': { status: 422, title: 'A referenced KC is not an active registry KC of this tenant' },
  'curriculum:renderer_unknown': { status: 422, title: 'The renderer is not in the renderer registry' },
  'curriculum:kc_exists': { status: 409, title: 'A KC with this kc_id already exists with another definition' },
  'curriculum:source_kc_id_taken': { status: 409, title: 'This source_kc_id is the provenance of another kc_id' },
  'curriculum:kc_retired': { status: 409, title: 'The KC is soft-retired' },
  'curriculum:kc_in_use': { status: 409, title: 'The KC still has active references and cannot be retired' },
  'curriculum:prerequisite_cycle': { status: 409, title: 'The prerequisite edge would close a cycle in the KC graph' },
  'curriculum:kc_version_already_firm': { status: 409, title: 'This exact KC version is already firm' },
  'curriculum:firming_source_refused': {
    status: 422,
    title: 'Course-approval firming events come only from a course approval',
  },
  'curriculum:checksum_mismatch': { status: 422, title: 'checksum_sha256 does not address the package sent' },
  'curriculum:standards_release_frozen': {
    status: 409,
    title: 'This package is already a frozen release with other maps',
  },
  'curriculum:standards_framework_unknown': {
    status: 422,
    title: 'A standards_framework_refs value is not an imported framework of this tenant',
  },
  'curriculum:repoint_pin_stale': { status: 409, title: 'expected_target_ref differs from the current pin' },
  'curriculum:repoint_identity_mismatch': { status: 409, title: 'A repoint cannot change content_id or content_kind' },
  'curriculum:repoint_target_not_serveable': {
    status: 409,
    title: 'The new exact version is not release eligible for practice',
  },
  'curriculum:approved_chain_repoint_frozen': {
    status: 409,
    title: 'A published component pinning an assessment chain is frozen',
  },
});

/** Mastery gates: rule 12's three distinct next-form outcomes, and the events service's failures. */
export const GATE_CODES = registerProblems({
  'curriculum:bank_exhausted': { status: 409, title: 'The student consumed every eligible form of the gate bank' },
  'curriculum:bank_forms_ineligible': {
    status: 409,
    title: 'No form of the exact gate bank version is eligible for practice',
  },
  'curriculum:bank_version_mismatch': {
    status: 409,
    title: 'Content answered for another bank version than the exact pinned one',
  },
  'curriculum:gate_not_launchable': { status: 409, title: 'The gate cannot be launched for this caller' },
  'curriculum:result_not_found': { status: 404, title: 'No such graded result of this student on this gate' },
  'curriculum:remediation_target_missing': {
    status: 409,
    title: 'The gate has no published component for this remediation',
  },
  'curriculum:events_unavailable': {
    status: 503,
    title: 'The events service could not answer the learner-history read',
  },
  'curriculum:events_answer_invalid': {
    status: 502,
    title: 'The events service gave an answer that cannot be trusted',
  },
});

/** Vendor course ingest (rule 14). */
export const INGEST_CODES = registerProblems({
  'curriculum:ingest_parent_conflict': {
    status: 409,
    title: 'An ingest never replaces the parent of an existing component',
  },
  'curriculum:ingest_batch_conflict': {
    status: 409,
    title: 'This producer batch was already ingested with other rows',
  },
  'curriculum:ingest_readback_mismatch': {
    status: 409,
    title: 'The staged tree did not read back as planned; nothing was written',
  },
});

/** Course approvals and learner routing (rules 9-11). */
export const LEARNER_CODES = registerProblems({
  'curriculum:course_not_published': { status: 409, title: 'The course root is not published' },
  'curriculum:course_graph_incomplete': {
    status: 409,
    title: 'A KC-scoped content-bearing component has no exact content pin',
  },
  'curriculum:kc_not_approvable': {
    status: 409,
    title: 'A referenced KC is not active, published and with an exact current version',
  },
  'curriculum:approval_digest_mismatch': {
    status: 409,
    title: 'The course graph or KC snapshot differs from the expected SHA-256',
  },
  'curriculum:lesson_structure_missing': {
    status: 409,
    title: 'The course has no ordered, KC-scoped, pinned lesson, review, practice or gate',
  },
  'curriculum:course_not_approved': { status: 409, title: 'The course has no approval to route on' },
  'curriculum:approval_stale': {
    status: 409,
    title: 'The course graph or its KC versions changed since the latest approval',
  },
  'curriculum:route_not_published': {
    status: 409,
    title: 'The next lesson or one of its containment ancestors is not published',
  },
});
