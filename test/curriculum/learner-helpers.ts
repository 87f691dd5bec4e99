import { expect } from 'vitest';
import { curriculumV1, eligibleVersion, http, type Caller, type Reply } from '../kit.ts';
import type { RunningPlatform } from '../../gateway/platform.ts';
import { createComponent, createKc, key, pinOf } from './helpers.ts';

/** Builders of the learner path (approve, route, place), every call through the documented paths. */

export interface AuthoredCourse {
  courseId: string;
  kcId: string;
  pin: ReturnType<typeof pinOf>;
  lessonIds: string[];
}

/**
 * A published course root with one published unit of published, pinned, KC-scoped lessons (one
 * eligible content version and one published KC shared by all), ready to approve.
 */
export async function authorCourse(
  platform: RunningPlatform,
  caller: Caller,
  options: {
    courseId?: string;
    lessons?: number;
    studentId?: string;
    coursePublished?: boolean;
    pin?: ReturnType<typeof pinOf>;
    /** A published KC to scope the lessons to instead of a new one. */
    kcId?: string;
  } = {},
): Promise<AuthoredCourse> {
  const courseId = options.courseId ?? 'course';
  const [pin, kc] = await Promise.all([
    options.pin ?? eligibleVersion(platform, caller).then(pinOf),
    options.kcId ? { kc_id: options.kcId } : createKc(platform, caller, { publication_status: 'published' }),
  ]);
  const published = { publication_status: 'published' };
  await createComponent(platform, caller, {
    component_id: courseId,
    kind: 'course',
    ...(options.studentId ? { student_id: options.studentId } : {}),
    alpha: { subject_id: 'math', publication_status: options.coursePublished === false ? 'draft' : 'published' },
  });
  await createComponent(platform, caller, {
    component_id: `${courseId}.u1`,
    kind: 'unit',
    parent_component_id: courseId,
    alpha: published,
  });
  const lessonIds = Array.from({ length: options.lessons ?? 2 }, (_, index) => `${courseId}.u1.l${index + 1}`);
  for (const [index, lessonId] of lessonIds.entries()) {
    await createComponent(platform, caller, {
      component_id: lessonId,
      kind: 'lesson',
      parent_component_id: `${courseId}.u1`,
      position: index,
      alpha: { ...published, target_ref: pin, scope_kc_refs: [kc.kc_id] },
    });
  }
  return { courseId, kcId: kc.kc_id, pin, lessonIds };
}

export async function approve(
  platform: RunningPlatform,
  caller: Caller,
  courseId: string,
  body: Record<string, unknown> = {},
  headers: Record<string, string> = key(),
): Promise<Reply> {
  return http(platform, 'POST', `${curriculumV1}/courses/${courseId}/approvals`, {
    token: caller.token,
    headers,
    body: { approved_by: 'reviewer:ada', provenance: { source: 'authoring_ui', course_ref: courseId }, ...body },
  });
}

export async function approveOk(
  platform: RunningPlatform,
  caller: Caller,
  courseId: string,
  body: Record<string, unknown> = {},
): Promise<any> {
  const reply = await approve(platform, caller, courseId, body);
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body;
}

export async function nextLesson(
  platform: RunningPlatform,
  caller: Caller,
  courseId: string,
  query = '',
): Promise<Reply> {
  return http(platform, 'GET', `${curriculumV1}/courses/${courseId}/next-lesson${query ? `?${query}` : ''}`, {
    token: caller.token,
  });
}

/** PATCH a component with the ETag of a fresh read. */
export async function patchComponent(
  platform: RunningPlatform,
  caller: Caller,
  componentId: string,
  body: Record<string, unknown>,
): Promise<Reply> {
  const read = await http(platform, 'GET', `${curriculumV1}/components/${componentId}`, { token: caller.token });
  return http(platform, 'PATCH', `${curriculumV1}/components/${componentId}`, {
    token: caller.token,
    headers: { ...key(), 'x-curriculum-if-match': read.headers.get('etag') as string },
    body,
  });
}
