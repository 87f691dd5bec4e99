import { registerProblems, type ProblemCode, type ProblemNamespace } from '../../platform/errors.ts';

export const EVENTS_NAMESPACE: ProblemNamespace = { prefix: 'events', separator: ':' };

declare module '../../platform/errors.ts' {
  interface ServiceProblemCodes {
    events: keyof typeof EVENTS_CODES;
  }
}

export const EVENTS_CODES = registerProblems({
  resource_conflict: { status: 409, title: 'The sourceIri is registered under another name' },
  'events:boundary_rejected': { status: 403, title: 'The request is outside the token identity boundary' },
  'events:unprocessable': { status: 422, title: 'Field values, kinds, timestamps or relationships are not acceptable' },
  'events:adapter_rejected': { status: 422, title: 'The source adapter rejected rows of the import' },
  'events:content_unavailable': { status: 503, title: 'The content service did not answer; nothing was resolved' },
  'events:content_answer_invalid': {
    status: 502,
    title: 'The content service answered outside its published contract; nothing was resolved',
  },
});

export const BOUNDARY_REJECTED = 'events:boundary_rejected' satisfies ProblemCode;
export const UNPROCESSABLE = 'events:unprocessable' satisfies ProblemCode;
export const ADAPTER_REJECTED = 'events:adapter_rejected' satisfies ProblemCode;
