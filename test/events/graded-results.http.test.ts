import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, startTestPlatform, type TestPlatform } from '../kit.ts';
import { post, producer, root } from './helpers.ts';
import { GRADING_EXTENSION_NAMESPACE, PLAYER_EXTENSION_NAMESPACE } from '../../subgraphs/events/vocabulary.ts';

/** Served forms and graded results as events, and the componentId read the curriculum gates use. */

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform();
});
afterAll(async () => {
  await platform?.close();
});

const component = (id: string) => ({ [`${PLAYER_EXTENSION_NAMESPACE}/component_id`]: id });
const grading = (values: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(values).map(([key, value]) => [`${GRADING_EXTENSION_NAMESPACE}/${key}`, value]));

describe('assessment_graded events', () => {
  it('are Caliper GradeEvents carrying the verdict in the grading extensions', async () => {
    const caller = await producer(platform);
    const accepted = await post(platform, caller, [
      {
        kind: 'assessment_graded',
        studentId: 's-1',
        contentId: 'form-1',
        activitySourceId: caller.sourceId,
        happenedAt: '2026-09-01T10:00:00Z',
        extensions: { ...component('gate-1'), ...grading({ outcome: 'failed', remediation_category: 'forgot' }) },
      },
    ]);
    expect(accepted.status).toBe(202);
    expect(accepted.body.data[0]).toMatchObject({
      studentId: 's-1',
      eventType: 'GradeEvent',
      profile: 'GradingProfile',
      action: 'Graded',
      // As in Caliper's GradeEvent: the grader acts, the student is the attempt's assignee.
      actorRef: { type: 'SoftwareApplication' },
      objectRef: { type: 'Attempt', assignee: { id: 'urn:alpha:student:s-1', type: 'Person' } },
    });
    expect(accepted.body.data[0].caliperEvent).toMatchObject({ type: 'GradeEvent', action: 'Graded' });
  });

  it('refuses unknown grading keys, values outside the vocabulary and grading keys on other kinds', async () => {
    const caller = await producer(platform);
    const base = {
      studentId: 's-1',
      contentId: 'form-1',
      activitySourceId: caller.sourceId,
      happenedAt: '2026-09-01T10:00:00Z',
    };
    const cases: Array<[Record<string, unknown>, string]> = [
      [
        { ...base, kind: 'assessment_graded', extensions: grading({ score: 90 }) },
        `events.0.extensions.${GRADING_EXTENSION_NAMESPACE}/score`,
      ],
      [
        { ...base, kind: 'assessment_graded', extensions: grading({ outcome: 'maybe' }) },
        `events.0.extensions.${GRADING_EXTENSION_NAMESPACE}/outcome`,
      ],
      [
        { ...base, kind: 'content_viewed', extensions: grading({ outcome: 'passed' }) },
        `events.0.extensions.${GRADING_EXTENSION_NAMESPACE}/outcome`,
      ],
    ];
    for (const [event, field] of cases) {
      const refused = await post(platform, caller, [event]);
      expect([refused.status, refused.body.code, refused.body.fieldErrors[0].field]).toEqual([
        422,
        'events:unprocessable',
        field,
      ]);
    }
  });
});

describe('GET /events?componentId=', () => {
  it('lists only the events of that curriculum component, combined with the other filters', async () => {
    const caller = await producer(platform);
    const event = (studentId: string, componentId: string, kind = 'assessment_started') => ({
      kind,
      studentId,
      contentId: 'form-1',
      activitySourceId: caller.sourceId,
      happenedAt: '2026-09-01T10:00:00Z',
      extensions: component(componentId),
    });
    expect(
      (
        await post(platform, caller, [
          event('s-1', 'gate-a'),
          event('s-1', 'gate-b'),
          event('s-2', 'gate-a'),
          event('s-1', 'gate-a', 'content_viewed'),
        ])
      ).status,
    ).toBe(202);
    const listed = await http(
      platform,
      'GET',
      `${root}/events?studentId=s-1&componentId=gate-a&kind=assessment_started`,
      { token: caller.token },
    );
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((row: { studentId: string; kind: string }) => [row.studentId, row.kind])).toEqual([
      ['s-1', 'assessment_started'],
    ]);
    const all = await http(platform, 'GET', `${root}/events?componentId=gate-a`, { token: caller.token });
    expect(all.body.data).toHaveLength(3);
    const empty = await http(platform, 'GET', `${root}/events?componentId=`, { token: caller.token });
    expect(empty.status).toBe(400);
  });
});
