import { z } from 'zod';
import { PageResponse } from '../../../platform/openapi.ts';

const AnswerSlot = z.strictObject({
  content_id: z.string(),
  version_id: z.string(),
  response_identifier: z.string(),
  ordinal: z.number().int(),
  interaction_type: z.string(),
  qti_cardinality: z.string(),
  qti_base_type: z.string().nullable(),
  choices: z.array(z.strictObject({ identifier: z.string(), text: z.string() })),
  correct_response: z
    .strictObject({ values: z.array(z.string()) })
    .nullable()
    .optional()
    .describe('Only with includeAnswerKeys=true'),
});

export const StudentViewResponse = z.strictObject({
  content_id: z.string(),
  version_id: z.string(),
  version_number: z.number().int(),
  content_kind: z.string(),
  title: z.string(),
  blocks: z.array(z.unknown()),
  answer_slots: z.array(AnswerSlot),
  answer_keys_included: z.boolean(),
});

export const AnswerSlotPageResponse = PageResponse(AnswerSlot);

export const AnswerKeyPageResponse = PageResponse(
  z.strictObject({
    content_id: z.string(),
    version_id: z.string(),
    response_identifier: z.string(),
    qti_cardinality: z.string(),
    qti_base_type: z.string().nullable(),
    correct_response: z.strictObject({ values: z.array(z.string()) }),
  }),
);

export const AssessmentComponentPageResponse = PageResponse(
  z.strictObject({
    component_id: z.string(),
    content_id: z.string(),
    version_id: z.string(),
    ordinal: z.number().int(),
    component_role: z.string(),
    identifier: z.string(),
    parent_identifier: z.string().nullable(),
    text: z
      .string()
      .nullable()
      .describe(
        'Null for a distractor, or a rubric whose view names neither candidate nor proctor, unless the caller may ' +
          'read answer keys.',
      ),
  }),
);

export const ScoringPlanPageResponse = PageResponse(
  z.strictObject({
    content_id: z.string(),
    version_id: z.string(),
    ordinal: z.number().int(),
    scoring_rule_scope: z.string(),
    identifier: z.string(),
    qti_cardinality: z.string().nullable(),
    qti_base_type: z.string().nullable(),
    template: z.string().nullable(),
  }),
);
