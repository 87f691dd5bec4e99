import { registerProblems, type ProblemNamespace } from '../../platform/errors.ts';

export const EVENTS_NAMESPACE: ProblemNamespace = { prefix: 'events', separator: ':' };

registerProblems({
  resource_conflict: { status: 409, title: 'The sourceIri is registered under another name' },
  'events:boundary_rejected': { status: 403, title: 'The request is outside the token identity boundary' },
  'events:unprocessable': { status: 422, title: 'Field values, kinds, timestamps or relationships are not acceptable' },
  'events:adapter_rejected': { status: 422, title: 'The source adapter rejected rows of the import' },
});

export const BOUNDARY_REJECTED = 'events:boundary_rejected';
export const UNPROCESSABLE = 'events:unprocessable';
export const ADAPTER_REJECTED = 'events:adapter_rejected';
