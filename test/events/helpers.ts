import { randomUUID } from 'node:crypto';
import { http, newTenant, roots, type Caller } from '../kit.ts';
import type { RunningPlatform } from '../../gateway/platform.ts';

export const root = roots.events;

/** A tenant with an operator token (registers sources) and its first activity source. */
export async function producer(
  platform: RunningPlatform,
  grant: Parameters<typeof newTenant>[1] = {},
): Promise<Caller & { sourceId: string }> {
  const caller = await newTenant(platform, {
    roles: ['operator'],
    ...grant,
    scopes: [...(grant.scopes ?? ['events:read', 'events:write', 'people_orgs:read']), 'events:sources:write'],
  });
  const source = await http(platform, 'POST', `${root}/activity-sources`, {
    token: caller.token,
    body: { sourceIri: `https://vendor.example/${randomUUID()}`, name: 'Vendor player' },
  });
  if (source.status !== 201) throw new Error(`source registration failed: ${JSON.stringify(source.body)}`);
  return { ...caller, sourceId: source.body.id as string };
}

export function viewed(sourceId: string, overrides: Record<string, unknown> = {}) {
  return {
    kind: 'content_viewed',
    studentId: 'stu-1',
    contentId: 'c-1',
    activitySourceId: sourceId,
    happenedAt: '2026-09-01T10:00:00Z',
    ...overrides,
  };
}

export async function post(
  platform: RunningPlatform,
  caller: Caller,
  events: unknown[],
  headers: Record<string, string> = {},
) {
  return http(platform, 'POST', `${root}/events`, { token: caller.token, body: { events }, headers });
}

export const vendorRow = (index: number, overrides: Record<string, unknown> = {}) => ({
  id: `v-${index}`,
  user_id: `stu-${index % 7}`,
  date: '2026-09-0' + (1 + (index % 9)),
  subject: 'math',
  app: 'FractionQuest',
  course_id: 'course-1',
  activity_id: `act-${index % 5}`,
  total_questions: 10,
  correct_questions: 7,
  xp_earned: 40,
  mastered_units: 1,
  active_seconds: 600,
  source_system: 'vendor_production',
  score_type: 'percent',
  score_given: 70,
  max_score: 100,
  ...overrides,
});

/** Rows as a SIS flattens the Ed-Fi sample files (shared/fixtures/edfi/samples). */
export const attendanceRow = (overrides: Record<string, unknown> = {}) => ({
  id: `att-${randomUUID()}`,
  student_id: '604822',
  school_id: '255901001',
  class_id: 'ALG-1-01',
  event_date: '2021-08-31',
  attendance_event_category: 'uri://ed-fi.org/AttendanceEventCategoryDescriptor#Excused Absence',
  attendance_event_reason: 'Absent excused: family emergency',
  event_duration: 1,
  session_name: '2021-2022 Fall Semester',
  school_year: '2021-2022',
  ...overrides,
});

export const disciplineRow = (overrides: Record<string, unknown> = {}) => ({
  id: `dis-${randomUUID()}`,
  incident_id: '10',
  student_id: '604822',
  school_id: '255901001',
  incident_date: '2021-10-18',
  incident_time: '09:00:00',
  behavior: 'uri://ed-fi.org/BehaviorDescriptor#State Offense',
  behavior_detailed_description: 'State Offense Detailed Desciption',
  participation_code: 'Perpetrator',
  incident_location: 'uri://ed-fi.org/IncidentLocationDescriptor#Parking lot',
  discipline: 'In School Suspension',
  reporter_description: 'Staff',
  reporter_name: 'Hickman, Dewayne',
  incident_description: 'A narrative that must never be public',
  ...overrides,
});
