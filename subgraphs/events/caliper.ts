import { DomainError, type FieldError, type ProblemCode } from '../../platform/errors.ts';
import { isTimestamp } from '../../platform/validation.ts';
import { UNPROCESSABLE } from './errors.ts';
import {
  CALIPER_ACTIONS,
  CALIPER_CONTEXT,
  GRADING_EXTENSION_NAMESPACE,
  GRADING_EXTENSION_VALUES,
  KIND_CATALOGUE,
  PLAYER_EXTENSION_KEYS,
  PLAYER_EXTENSION_NAMESPACE,
} from './vocabulary.ts';

/**
 * The Caliper 1.2 side of an event: what the server derives when the producer omits it, the
 * checks on what the producer sent, and the JSON-LD an event is as a Caliper event.
 */

export interface EntityRef {
  id: string;
  type: string;
  [property: string]: unknown;
}

/** What the caller sent about one event, after shape validation. */
export interface EventClaims {
  kind: string;
  studentId?: string;
  contentId?: string;
  activitySourceId?: string;
  eventType?: string;
  profile?: string;
  action?: string;
  actorRef?: EntityRef;
  objectRef?: EntityRef;
  extensions?: Record<string, unknown>;
}

export interface DerivedCaliper {
  eventType: string;
  profile: string;
  action: string;
  actorRef: EntityRef;
  objectRef: EntityRef;
}

export const studentIri = (studentId: string) => `urn:alpha:student:${encodeURIComponent(studentId)}`;
export const contentIri = (contentId: string) => `urn:alpha:content:${encodeURIComponent(contentId)}`;
export const activitySourceIri = (sourceId: string) =>
  `urn:alpha:activity-source:${encodeURIComponent(sourceId.toLowerCase())}`;

const PLAYER_KEYS: ReadonlySet<string> = new Set(PLAYER_EXTENSION_KEYS);
const PLAYER_PREFIX = `${PLAYER_EXTENSION_NAMESPACE}/`;
const GRADING_PREFIX = `${GRADING_EXTENSION_NAMESPACE}/`;

/** Value rules of the registry keys whose type the registry fixes; the others carry any JSON. */
const PLAYER_VALUE_RULES: Record<string, (value: unknown) => boolean> = {
  first_attempt: (value) => typeof value === 'boolean',
  attempt_ordinal: (value) => Number.isInteger(value) && (value as number) >= 1,
  attempt_count: (value) => Number.isInteger(value) && (value as number) >= 0,
  response_time_ms: (value) => Number.isInteger(value) && (value as number) >= 0,
  occurred_at: (value) => typeof value === 'string' && isTimestamp(value),
};

/** Field errors of one grading extension: a known key with one of its values, on a graded event only. */
function gradingErrors(kind: string, key: string, value: unknown, field: string): FieldError[] {
  const name = key.slice(GRADING_PREFIX.length) as keyof typeof GRADING_EXTENSION_VALUES;
  // Own keys only: a key named like an object's members (`constructor`) is no registry key.
  const allowed: readonly string[] | undefined = Object.hasOwn(GRADING_EXTENSION_VALUES, name)
    ? GRADING_EXTENSION_VALUES[name]
    : undefined;
  if (!allowed)
    return [
      {
        field: `${field}.${key}`,
        message: `not a key of ${GRADING_PREFIX}: ${Object.keys(GRADING_EXTENSION_VALUES).join(', ')}`,
      },
    ];
  if (kind !== 'assessment_graded')
    return [{ field: `${field}.${key}`, message: 'grading extensions belong to assessment_graded events' }];
  return allowed.includes(value as string)
    ? []
    : [{ field: `${field}.${key}`, message: `one of ${allowed.join(', ')}` }];
}

/**
 * Field errors of the extension object: every key must be a registry key in the player namespace,
 * or a grading key on a graded event.
 */
export function extensionErrors(
  kind: string,
  extensions: Record<string, unknown> | undefined,
  field: string,
): FieldError[] {
  const errors: FieldError[] = [];
  for (const [key, value] of Object.entries(extensions ?? {})) {
    if (key.startsWith(GRADING_PREFIX)) {
      errors.push(...gradingErrors(kind, key, value, field));
      continue;
    }
    const name = key.startsWith(PLAYER_PREFIX) ? key.slice(PLAYER_PREFIX.length) : undefined;
    if (name === undefined || !PLAYER_KEYS.has(name)) {
      errors.push({
        field: `${field}.${key}`,
        message: `not a key of ${PLAYER_PREFIX} in the governed player extension registry`,
      });
      continue;
    }
    const rule = PLAYER_VALUE_RULES[name];
    if (rule && !rule(value)) errors.push({ field: `${field}.${key}`, message: `invalid value for ${name}` });
  }
  return errors;
}

/**
 * Derives eventType, profile, action, actor and object from the kind; a sent value must be the one
 * the kind stands for, so an event is never two different Caliper events at once.
 */
export function deriveCaliper(claims: EventClaims, field: string): { value?: DerivedCaliper; errors: FieldError[] } {
  const definition = Object.hasOwn(KIND_CATALOGUE, claims.kind) ? KIND_CATALOGUE[claims.kind] : undefined;
  if (!definition) {
    return {
      errors: [
        { field: `${field}.kind`, message: `unknown kind; known kinds: ${Object.keys(KIND_CATALOGUE).join(', ')}` },
      ],
    };
  }
  const errors: FieldError[] = [];
  for (const property of ['eventType', 'profile', 'action'] as const) {
    const sent = claims[property];
    if (sent !== undefined && sent !== definition[property]) {
      errors.push({
        field: `${field}.${property}`,
        message: `kind ${claims.kind} is ${property} ${definition[property]}`,
      });
    }
  }
  const grader = definition.actor === 'grader';
  const student = claims.studentId ? { id: studentIri(claims.studentId), type: 'Person' } : undefined;
  const derivedActor = grader
    ? claims.activitySourceId && { id: activitySourceIri(claims.activitySourceId), type: 'SoftwareApplication' }
    : student;
  const actorRef = claims.actorRef ?? (derivedActor || undefined);
  const objectRef =
    claims.objectRef ??
    (claims.contentId
      ? {
          id: contentIri(claims.contentId),
          type: definition.objectType,
          ...(grader && student ? { assignee: student } : {}),
        }
      : undefined);
  if (!actorRef)
    errors.push({ field: `${field}.studentId`, message: 'send studentId or actorRef: a Caliper event needs an actor' });
  if (!objectRef)
    errors.push({
      field: `${field}.contentId`,
      message: 'send contentId or objectRef: a Caliper event needs an object',
    });
  if (!grader && claims.studentId && claims.actorRef && claims.actorRef.id !== studentIri(claims.studentId)) {
    errors.push({
      field: `${field}.actorRef.id`,
      message: `must be ${studentIri(claims.studentId)} for studentId ${claims.studentId}`,
    });
  }
  if (claims.contentId && claims.objectRef && claims.objectRef.id !== contentIri(claims.contentId)) {
    errors.push({
      field: `${field}.objectRef.id`,
      message: `must be ${contentIri(claims.contentId)} for contentId ${claims.contentId}`,
    });
  }
  errors.push(...extensionErrors(claims.kind, claims.extensions, `${field}.extensions`));
  if (errors.length > 0 || !actorRef || !objectRef) return { errors };
  return {
    value: {
      eventType: definition.eventType,
      profile: definition.profile,
      action: definition.action,
      actorRef,
      objectRef,
    },
    errors,
  };
}

export function requireNoErrors(
  errors: FieldError[],
  code: ProblemCode = UNPROCESSABLE,
  detail = 'Some events are not acceptable.',
): void {
  if (errors.length > 0) throw new DomainError(code, detail, { fieldErrors: errors });
}

/** The stored event as a Caliper 1.2 event (JSON-LD). */
export function caliperEventOf(event: {
  id: string;
  eventType: string;
  profile: string;
  action: string;
  actorRef: EntityRef;
  objectRef: EntityRef;
  happenedAt: string;
  edApp: string | null;
  extensions: Record<string, unknown>;
}): Record<string, unknown> {
  if (!(CALIPER_ACTIONS[event.eventType] ?? []).includes(event.action)) {
    throw new Error(`catalogue defect: ${event.eventType} has no action ${event.action}`);
  }
  return {
    '@context': CALIPER_CONTEXT,
    id: `urn:uuid:${event.id}`,
    type: event.eventType,
    profile: event.profile,
    actor: event.actorRef,
    action: event.action,
    object: event.objectRef,
    eventTime: event.happenedAt,
    ...(event.edApp ? { edApp: { id: event.edApp, type: 'SoftwareApplication' } } : {}),
    ...(Object.keys(event.extensions).length > 0 ? { extensions: event.extensions } : {}),
  };
}
