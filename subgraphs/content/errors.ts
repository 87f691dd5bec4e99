import { registerProblems, type ProblemNamespace } from '../../platform/errors.ts';

export const CONTENT_NAMESPACE: ProblemNamespace = { prefix: 'content', separator: '.' };

declare module '../../platform/errors.ts' {
  interface ServiceProblemCodes {
    content: keyof typeof CONTENT_CODES;
  }
}

/** Content's own codes; platform codes render as content.<code>. */
export const CONTENT_CODES = registerProblems({
  'content.version_not_serveable': { status: 409, title: 'The exact content version is not release eligible' },
  'content.trust_transition_refused': {
    status: 409,
    title: 'Trust is set once and afterwards only moves trusted or degraded to failed',
  },
  'content.qc_self_review': { status: 403, title: 'The author of a version cannot record its QC decision' },
  'content.item_exists': { status: 409, title: 'A content item with this content_id already exists' },
  'content.publication_refused': { status: 409, title: 'The exact version fails the server-owned publication checks' },
  'content.bank_membership_frozen': {
    status: 409,
    title: 'Bank membership can change only while the bank is an unretired draft with unknown trust',
  },
  'content.invalid_test_bank_member_contract': {
    status: 409,
    title: 'The bank_member reference breaks the test bank member contract',
  },
  'content.bank_kc_attribution_incomplete': {
    status: 409,
    title: 'The question graph of the form is missing, ambiguous or lacks an active KC tag',
  },
  'content.catalog_facet_exists': { status: 409, title: 'This tenant already defines that catalog facet' },
  'content.kc_not_active': { status: 409, title: 'The KC is not an active KC of the governed registry' },
  'content.curriculum_unavailable': {
    status: 503,
    title: 'The curriculum service did not answer; nothing was read or written',
  },
  'content.kc_registry_unavailable': {
    status: 503,
    title: 'The curriculum KC registry did not answer; nothing was written',
  },
  'content.events_unavailable': {
    status: 503,
    title: 'The events service did not answer; nothing was derived',
  },
  'content.events_answer_invalid': {
    status: 502,
    title: 'The events service answered outside its published contract; nothing was derived',
  },
  'content.test_serve_not_authorized': { status: 409, title: 'The test-serve selection is not authorized' },
});
