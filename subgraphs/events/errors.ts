import { registerProblems, type ProblemDefinition, type ProblemNamespace } from '../../platform/errors.ts';

export const EVENTS_NAMESPACE: ProblemNamespace = { prefix: 'events', separator: ':' };

const EVENTS_CODES = {
  resource_conflict: { status: 409, title: 'The sourceIri is registered under another name' },
  'events:boundary_rejected': { status: 403, title: 'The request is outside the token identity boundary' },
  'events:unprocessable': { status: 422, title: 'Field values, kinds, timestamps or relationships are not acceptable' },
  'events:adapter_rejected': { status: 422, title: 'The source adapter rejected rows of the import' },
} as const satisfies Record<string, ProblemDefinition>;

export type EventsCode = keyof typeof EVENTS_CODES;

declare module '../../platform/errors.ts' {
  interface ServiceProblemCodes {
    events: EventsCode;
  }
}

registerProblems(EVENTS_CODES);

export const BOUNDARY_REJECTED: EventsCode = 'events:boundary_rejected';
export const UNPROCESSABLE: EventsCode = 'events:unprocessable';
export const ADAPTER_REJECTED: EventsCode = 'events:adapter_rejected';
