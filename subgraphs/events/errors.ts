import { registerProblems, type ProblemNamespace } from '../../platform/errors.ts';

export const EVENTS_NAMESPACE: ProblemNamespace = { prefix: 'events', separator: ':' };

registerProblems({
  resource_conflict: { status: 409, title: 'The sourceIri is registered under another name' },
});
