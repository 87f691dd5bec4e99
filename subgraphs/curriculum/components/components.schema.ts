import { z } from 'zod';
import { CONTENT_KINDS } from '../../../platform/contract.ts';
import { nullMeansAbsent, queryBoolean, uuidRef, listQueryMembers } from '../../../platform/validation.ts';
import { GATE_RENDERER, resolveRenderer } from '../renderers.ts';

/** Input schemas of components: the shape rules, checked before any I/O. */

export const COMPONENT_KINDS = ['track', 'course', 'unit', 'lesson', 'practice', 'review', 'mastery_gate'] as const;
export const CONTENT_BEARING_KINDS: ReadonlySet<string> = new Set(['lesson', 'practice', 'review', 'mastery_gate']);

const gradeLevel = z.number().int().min(-1).max(12);

/** The highest sibling order (position, sequence_number): the column is a PostgreSQL integer. */
export const MAX_POSITION = 2_147_483_647;
export const siblingPosition = z.number().int().min(0).max(MAX_POSITION);
/** XP a component is worth: GraphQL serves it as an Int, which holds 32 bits. */
export const expectedXp = z.int32().min(0);

export const TargetRefInput = z
  .object({
    module: z.literal('content').optional(),
    content_kind: z.enum(CONTENT_KINDS),
    content_id: uuidRef(),
    content_version_id: uuidRef(),
  })
  .strict()
  .describe('Exact content pin; never carries assessment_role');

export const AlphaInput = z
  .object({
    subject_id: z.string().min(1).optional(),
    engine_ref: z.string().min(1).optional(),
    entry_policy_ref: z.string().min(1).optional(),
    exit_policy_ref: z.string().min(1).optional(),
    publication_status: z.enum(['draft', 'published']).optional(),
    standards_framework_refs: z.array(uuidRef()).optional(),
    audience: z.string().min(1).optional(),
    course_kind: z.string().min(1).optional(),
    course_grade_mode: z.enum(['single_grade', 'multi_grade']).optional(),
    course_grade_levels: z.array(gradeLevel).optional(),
    grade_level: gradeLevel.optional(),
    expected_xp: expectedXp.optional(),
    scope_kc_refs: z.array(uuidRef()).optional(),
    kc_scope_decision: z.enum(['authoritative_no_kc']).optional(),
    target_ref: TargetRefInput.optional(),
    renderer_ref: z.string().min(1).optional(),
    renderer_kind: z.string().min(1).optional(),
    remediation_entries: z.array(z.object({ kc_ref: uuidRef() }).catchall(z.unknown())).optional(),
    source_course_ref: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .describe("The producer's own reference of the course this component came from; provenance only"),
  })
  .strict();

export const ComponentInput = nullMeansAbsent(
  z
    .object({
      component_id: z
        .string()
        .regex(/^[A-Za-z0-9][A-Za-z0-9._:-]{0,199}$/, 'letters, digits and . _ : - (at most 200)'),
      kind: z.enum(COMPONENT_KINDS),
      document_id: uuidRef().optional(),
      parent_component_id: z.string().min(1).optional(),
      position: siblingPosition.optional(),
      name: z.string().trim().min(1).max(500).optional(),
      human_coding_scheme: z.string().min(1).max(200).optional(),
      student_id: z.string().min(1).optional(),
      alpha: nullMeansAbsent(AlphaInput).default({}),
    })
    .strict(),
).superRefine((input, issues) => {
  const alpha = input.alpha;
  const at = (...path: string[]) => ['alpha', ...path];
  if (input.student_id !== undefined && (input.kind !== 'course' || input.parent_component_id !== undefined)) {
    issues.addIssue({
      code: 'custom',
      path: ['student_id'],
      message: 'only a personalized course root carries student_id',
    });
  }
  if (input.parent_component_id === input.component_id) {
    issues.addIssue({ code: 'custom', path: ['parent_component_id'], message: 'a component cannot contain itself' });
  }
  if (input.kind === 'mastery_gate' && alpha.publication_status === undefined) {
    issues.addIssue({
      code: 'custom',
      path: at('publication_status'),
      message: 'a mastery_gate must declare publication_status',
    });
  }
  if (input.kind === 'mastery_gate' && alpha.publication_status === 'published') {
    // Rule 17: a published gate always names its exact bank and the QTI test renderer.
    if (!alpha.target_ref)
      issues.addIssue({
        code: 'custom',
        path: at('target_ref'),
        message: 'a published mastery_gate pins its exact test_bank',
      });
    // Either field may name the renderer by its canonical ref or its alias; the registry decides.
    const named = alpha.renderer_ref ?? alpha.renderer_kind;
    if (named === undefined || resolveRenderer(named)?.renderer_ref !== GATE_RENDERER) {
      issues.addIssue({
        code: 'custom',
        path: at('renderer_ref'),
        message: `a published mastery_gate uses ${GATE_RENDERER}`,
      });
    }
  }
  if (alpha.course_grade_mode === 'single_grade' && alpha.course_grade_levels?.length !== 1) {
    issues.addIssue({
      code: 'custom',
      path: at('course_grade_levels'),
      message: 'single_grade needs exactly one course_grade_levels value',
    });
  }
  // Distinct levels: [3, 3] is one grade, which placement would route as a single-grade course.
  if (alpha.course_grade_mode === 'multi_grade' && new Set(alpha.course_grade_levels).size < 2) {
    issues.addIssue({
      code: 'custom',
      path: at('course_grade_levels'),
      message: 'multi_grade needs at least two distinct course_grade_levels values',
    });
  }
  if (alpha.course_grade_levels && !alpha.course_grade_mode) {
    issues.addIssue({
      code: 'custom',
      path: at('course_grade_mode'),
      message: 'course_grade_levels needs course_grade_mode',
    });
  }
  if (alpha.target_ref && !CONTENT_BEARING_KINDS.has(input.kind)) {
    issues.addIssue({ code: 'custom', path: at('target_ref'), message: `a ${input.kind} carries no content pin` });
  }
  if (input.kind === 'mastery_gate' && alpha.target_ref && alpha.target_ref.content_kind !== 'test_bank') {
    issues.addIssue({
      code: 'custom',
      path: at('target_ref', 'content_kind'),
      message: 'a mastery_gate targets content_kind test_bank',
    });
  }
  if (alpha.scope_kc_refs?.length === 0) {
    const exactLesson = input.kind === 'lesson' && alpha.target_ref !== undefined;
    if (!exactLesson || alpha.kc_scope_decision !== 'authoritative_no_kc') {
      issues.addIssue({
        code: 'custom',
        path: at('scope_kc_refs'),
        message: '[] is allowed only on an exact content-bearing lesson with kc_scope_decision=authoritative_no_kc',
      });
    }
  }
  if (alpha.kc_scope_decision === 'authoritative_no_kc' && (alpha.scope_kc_refs?.length ?? 0) > 0) {
    issues.addIssue({
      code: 'custom',
      path: at('kc_scope_decision'),
      message: 'authoritative_no_kc contradicts a non-empty scope_kc_refs',
    });
  }
});
export type ComponentInput = z.infer<typeof ComponentInput>;

export const ListComponentsQuery = z
  .object({
    kind: z
      .enum(COMPONENT_KINDS)
      .optional()
      .describe('Only this kind: track, course, unit, lesson, practice, review or mastery_gate'),
    parentId: z.string().min(1).optional().describe('Only the direct children of this component'),
    courseId: z.string().min(1).optional().describe('Only this component and its descendants, the whole subtree'),
    studentId: z.string().min(1).optional().describe('Exact match on personalized course roots only'),
    sourceCourseRef: z.string().min(1).optional().describe('Exact match on alpha.source_course_ref'),
    subjectId: z.string().min(1).optional().describe('Exact match on alpha.subject_id'),
    publicationStatus: z.enum(['draft', 'published']).optional().describe('draft or published'),
    updated_since: listQueryMembers.updated_since,
    includeRetired: listQueryMembers.includeRetired,
    limit: listQueryMembers.limit,
    cursor: listQueryMembers.cursor,
    sort: z
      .enum(['component_id', 'updated_at'])
      .optional()
      .describe('component_id (the default) or updated_at; ties broken by component_id'),
    order: listQueryMembers.order,
  })
  .strict();
export type ListComponentsQuery = z.infer<typeof ListComponentsQuery>;

export const TreeQuery = z
  .object({
    includeRetired: queryBoolean
      .optional()
      .describe('true includes retired children too; active ones only when omitted'),
  })
  .strict();
