import { describe, expect, it } from 'vitest';
import { caliperEventOf, contentIri, deriveCaliper, extensionErrors, studentIri } from './caliper.ts';
import { CALIPER_ACTIONS, KIND_CATALOGUE, PLAYER_EXTENSION_NAMESPACE, resolveDescriptor } from './vocabulary.ts';

const KINDS = Object.keys(KIND_CATALOGUE);

describe('deriveCaliper', () => {
  it('derives type, profile, action, actor and object of every student-acted kind from the kind alone', () => {
    // A grader-acted kind (a graded result) names its grader as actor, not the student: see below.
    for (const kind of KINDS.filter((candidate) => KIND_CATALOGUE[candidate].actor !== 'grader')) {
      const { value, errors } = deriveCaliper({ kind, studentId: 'stu 1', contentId: 'c/1' }, 'events[0]');
      expect(errors, kind).toEqual([]);
      const definition = KIND_CATALOGUE[kind];
      expect(value, kind).toEqual({
        eventType: definition.eventType,
        profile: definition.profile,
        action: definition.action,
        actorRef: { id: studentIri('stu 1'), type: 'Person' },
        objectRef: { id: contentIri('c/1'), type: definition.objectType },
      });
      // The stored event is a Caliper event whose action its type allows.
      expect(CALIPER_ACTIONS[definition.eventType], kind).toContain(definition.action);
    }
  });

  it('refuses a sent type, profile or action that the kind does not stand for, naming each field', () => {
    const { value, errors } = deriveCaliper(
      { kind: 'content_viewed', studentId: 's', contentId: 'c', eventType: 'GradeEvent', action: 'Graded' },
      'events[3]',
    );
    expect(value).toBeUndefined();
    expect(errors.map((error) => error.field)).toEqual(['events[3].eventType', 'events[3].action']);
  });

  it('needs an actor and an object, and refuses refs that contradict the ids', () => {
    expect(deriveCaliper({ kind: 'content_viewed' }, 'e').errors.map((error) => error.field)).toEqual([
      'e.studentId',
      'e.contentId',
    ]);
    const contradicting = deriveCaliper(
      {
        kind: 'content_viewed',
        studentId: 's',
        contentId: 'c',
        actorRef: { id: studentIri('other'), type: 'Person' },
        objectRef: { id: contentIri('c'), type: 'DigitalResource' },
      },
      'e',
    );
    expect(contradicting.errors.map((error) => error.field)).toEqual(['e.actorRef.id']);
  });

  it('names the unknown kind', () => {
    expect(deriveCaliper({ kind: 'dreamt' }, 'e').errors).toEqual([
      { field: 'e.kind', message: expect.stringContaining('unknown kind') },
    ]);
  });
});

describe('player extensions', () => {
  const key = (name: string) => `${PLAYER_EXTENSION_NAMESPACE}/${name}`;

  it('accept registry keys with valid values and refuse foreign keys and bad values', () => {
    expect(
      extensionErrors('assessment_started', { [key('first_attempt')]: true, [key('attempt_ordinal')]: 2 }, 'x'),
    ).toEqual([]);
    expect(
      extensionErrors(
        'assessment_started',
        { vendor_key: 1, [key('attempt_ordinal')]: 0, [key('occurred_at')]: 'yesterday' },
        'x',
      ).map((error) => error.field),
    ).toEqual(['x.vendor_key', `x.${key('attempt_ordinal')}`, `x.${key('occurred_at')}`]);
  });
});

describe('caliperEventOf', () => {
  it('is a Caliper 1.2 JSON-LD event, with edApp and extensions only when present', () => {
    const event = {
      id: '8b1c6f5e-2f0e-4a59-8a71-5b7f0c7f4c11',
      eventType: 'ViewEvent',
      profile: 'ReadingProfile',
      action: 'Viewed',
      actorRef: { id: studentIri('s'), type: 'Person' },
      objectRef: { id: contentIri('c'), type: 'DigitalResource' },
      happenedAt: '2026-09-01T10:00:00Z',
      edApp: null,
      extensions: {},
    };
    const caliper = caliperEventOf(event);
    expect(caliper).toMatchObject({ id: `urn:uuid:${event.id}`, type: 'ViewEvent', action: 'Viewed' });
    expect(caliper).not.toHaveProperty('edApp');
    expect(caliper).not.toHaveProperty('extensions');
    expect(caliperEventOf({ ...event, edApp: 'urn:app', extensions: { a: 1 } })).toMatchObject({
      edApp: { id: 'urn:app', type: 'SoftwareApplication' },
      extensions: { a: 1 },
    });
    expect(() => caliperEventOf({ ...event, action: 'Graded' })).toThrow(/catalogue defect/);
  });
});

describe('Ed-Fi descriptors', () => {
  it('resolve a code value in any case or a full descriptor URI to both forms', () => {
    const expected = {
      codeValue: 'In Attendance',
      descriptor: 'uri://ed-fi.org/AttendanceEventCategoryDescriptor#In Attendance',
    };
    expect(resolveDescriptor('AttendanceEventCategoryDescriptor', 'in attendance')).toEqual(expected);
    expect(resolveDescriptor('AttendanceEventCategoryDescriptor', expected.descriptor)).toEqual(expected);
    expect(resolveDescriptor('AttendanceEventCategoryDescriptor', 'Asleep')).toBeUndefined();
  });
});
