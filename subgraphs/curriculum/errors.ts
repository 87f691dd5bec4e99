import { registerProblems, type ProblemNamespace } from '../../platform/errors.ts';

export const CURRICULUM_NAMESPACE: ProblemNamespace = { prefix: 'curriculum', separator: ':' };

/** Curriculum's own codes; platform codes render as curriculum:<code>. */
registerProblems({
  'curriculum:target_not_serveable': { status: 409, title: 'The pinned exact content version is not release eligible' },
  'curriculum:content_unavailable': { status: 503, title: 'The content service could not answer the eligibility check' },
  'curriculum:content_answer_invalid': { status: 502, title: 'The content service gave an answer that cannot be trusted' },
  'curriculum:component_exists': { status: 409, title: 'An active component with this component_id already exists' },
  'curriculum:parent_not_found': { status: 422, title: 'The parent component does not exist or is retired' },
  'curriculum:kc_not_active': { status: 422, title: 'A referenced KC is not an active registry KC of this tenant' },
  'curriculum:renderer_unknown': { status: 422, title: 'The renderer is not in the renderer registry' },
});
