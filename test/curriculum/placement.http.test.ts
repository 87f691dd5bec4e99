import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { curriculumV1, http, newTenant, startTestPlatform, type Caller, type TestPlatform } from '../kit.ts';
import { createComponent, expectProblem } from './helpers.ts';

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform();
});
afterAll(async () => {
  await platform?.close();
});

const candidates = (caller: Caller, trackId: string, query = '') =>
  http(platform, 'GET', `${curriculumV1}/tracks/${trackId}/placement-candidates${query ? `?${query}` : ''}`, {
    token: caller.token,
  });

const published = { publication_status: 'published' };

describe('GET /tracks/{trackId}/placement-candidates (rule 16)', () => {
  it("answers the track's published courses of its subject whose numeric grade levels meet its band, never by grade_id strings", async () => {
    const caller = await newTenant(platform);
    await createComponent(platform, caller, {
      component_id: 'track',
      kind: 'track',
      alpha: {
        ...published,
        subject_id: 'math',
        course_grade_mode: 'multi_grade',
        course_grade_levels: [3, 4],
        engine_ref: 'engine:mastery',
        entry_policy_ref: 'policy:in',
        exit_policy_ref: 'policy:out',
      },
    });
    const course = (component_id: string, alpha: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
      createComponent(platform, caller, {
        component_id,
        kind: 'course',
        ...extra,
        alpha: { ...published, subject_id: 'math', ...alpha },
      });
    // Names and coding schemes carry CASE-style grade ids that disagree with the numeric levels: only the numbers count.
    await course('g2', { grade_level: 2 }, { human_coding_scheme: 'grade_3', name: 'grade_3 review' });
    await course(
      'g3',
      { course_grade_mode: 'single_grade', course_grade_levels: [3] },
      { human_coding_scheme: 'grade_5' },
    );
    await course('g45', { course_grade_mode: 'multi_grade', course_grade_levels: [4, 5] });
    await course('g4-level', { grade_level: 4 });
    await course(
      'g5',
      { course_grade_mode: 'single_grade', course_grade_levels: [5] },
      { human_coding_scheme: 'grade_3' },
    );
    await course('g3-draft', {
      course_grade_mode: 'single_grade',
      course_grade_levels: [3],
      publication_status: 'draft',
    });
    await course('g3-reading', { course_grade_mode: 'single_grade', course_grade_levels: [3], subject_id: 'reading' });
    await course('g3-ungraded', {});
    await course('g4-s1', { course_grade_mode: 'single_grade', course_grade_levels: [4] }, { student_id: 's1' });
    await course('g3-s2', { course_grade_mode: 'single_grade', course_grade_levels: [3] }, { student_id: 's2' });
    await createComponent(platform, caller, {
      component_id: 'g3-unit',
      kind: 'unit',
      parent_component_id: 'g3',
      alpha: { ...published, grade_level: 3 },
    });

    const shared = await candidates(caller, 'track', 'asOfDate=2026-09-01');
    expect(shared.status, JSON.stringify(shared.body)).toBe(200);
    expect(shared.body).toMatchObject({
      track_id: 'track',
      subject_id: 'math',
      student_id: null,
      as_of_date: '2026-09-01',
      grade_levels: [3, 4],
      engine_ref: 'engine:mastery',
      entry_policy_ref: 'policy:in',
      exit_policy_ref: 'policy:out',
    });
    expect(shared.body.candidates.map((item: any) => item.component_id)).toEqual(['g3', 'g4-level', 'g45']);
    const forStudent = await candidates(caller, 'track', 'studentId=s1&subjectId=math');
    expect(forStudent.body.candidates.map((item: any) => item.component_id)).toEqual([
      'g3',
      'g4-level',
      'g4-s1',
      'g45',
    ]);
    expect((await candidates(caller, 'track', 'subjectId=reading')).body.candidates).toEqual([]);
  });

  it('a track without subject or band takes subjectId and every graded course', async () => {
    const caller = await newTenant(platform);
    await createComponent(platform, caller, { component_id: 'open', kind: 'track', alpha: published });
    await createComponent(platform, caller, {
      component_id: 'k',
      kind: 'course',
      alpha: { ...published, subject_id: 'reading', grade_level: 0 },
    });
    await createComponent(platform, caller, {
      component_id: 'prek',
      kind: 'course',
      alpha: { ...published, subject_id: 'reading', grade_level: -1 },
    });
    await createComponent(platform, caller, {
      component_id: 'm',
      kind: 'course',
      alpha: { ...published, subject_id: 'math', grade_level: 0 },
    });
    const reply = await candidates(caller, 'open', 'subjectId=reading');
    expect([
      reply.body.subject_id,
      reply.body.grade_levels,
      reply.body.candidates.map((item: any) => item.component_id),
    ]).toEqual(['reading', [], ['prek', 'k']]);
  });

  it('answers curriculum:not_found for unknown tracks and non-tracks, and refuses bad queries and missing scope', async () => {
    const caller = await newTenant(platform);
    await createComponent(platform, caller, { component_id: 'course', kind: 'course' });
    await createComponent(platform, caller, { component_id: 'track', kind: 'track' });
    expectProblem(await candidates(caller, 'nope'), 404, 'curriculum:not_found');
    expectProblem(await candidates(caller, 'course'), 404, 'curriculum:not_found');
    expectProblem(await candidates(await newTenant(platform), 'track'), 404, 'curriculum:not_found');
    expectProblem(await candidates(caller, 'track', 'grade=3'), 400, 'curriculum:validation_failed');
    expectProblem(await candidates(caller, 'track', 'asOfDate=soon'), 400, 'curriculum:validation_failed');
    const writer = await newTenant(platform, { tenantId: caller.tenantId, scopes: ['curriculum:write'] });
    expectProblem(await candidates(writer, 'track'), 403, 'curriculum:forbidden');
  });
});
