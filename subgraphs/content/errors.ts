import { registerProblems, type ProblemNamespace } from '../../platform/errors.ts';

export const CONTENT_NAMESPACE: ProblemNamespace = { prefix: 'content', separator: '.' };

/** Content's own codes; platform codes render as content.<code>. */
registerProblems({
  'content.version_not_serveable': { status: 409, title: 'The exact content version is not release eligible' },
  'content.qc_self_review': { status: 403, title: 'The author of a version cannot record its QC decision' },
});
registerProblems({
  'content.item_exists': { status: 409, title: 'A content item with this content_id already exists' },
});
