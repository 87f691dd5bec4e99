import { z } from 'zod';
import { nullMeansAbsent, uuidRef, listQueryMembers } from '../../../platform/validation.ts';

export const CreatePrerequisiteInput = z
  .object({
    prerequisite_kc_id: uuidRef().describe('The KC to learn first'),
    dependent_kc_id: uuidRef().describe('The KC that needs it'),
  })
  .strict()
  .refine((input) => input.prerequisite_kc_id !== input.dependent_kc_id, {
    path: ['dependent_kc_id'],
    message: 'a KC cannot be its own prerequisite',
  });

export const ListPrerequisitesQuery = z
  .object({
    kcId: uuidRef().optional().describe('Either endpoint'),
    prerequisiteKcId: uuidRef().optional().describe('Only edges whose prerequisite (the KC learned first) is this KC'),
    dependentKcId: uuidRef().optional().describe('Only edges whose dependent KC (the one that needs it) is this KC'),
    updated_since: listQueryMembers.updated_since,
    limit: listQueryMembers.limit,
    cursor: listQueryMembers.cursor,
  })
  .strict();

export const REVIEW_DECISIONS = ['approved', 'rejected', 'changes_requested'] as const;

export const CreateReviewDecisionInput = nullMeansAbsent(
  z
    .object({
      kc_version_id: uuidRef(),
      decision: z.enum(REVIEW_DECISIONS),
      reason: z.string().trim().min(1).max(5000).optional(),
    })
    .strict(),
);

/** course_approval is a source too, but only the course approval command writes it. */
export const FIRMING_SOURCES = ['first_genuine_response', 'course_approval'] as const;

export const CreateFirmingEventInput = nullMeansAbsent(
  z
    .object({
      kc_version_id: uuidRef(),
      source: z
        .enum(FIRMING_SOURCES)
        .describe('first_genuine_response; course_approval events come only from course approval'),
      evidence: z.record(z.string(), z.unknown()).optional(),
    })
    .strict(),
);

export const ListByVersionQuery = z
  .object({
    kc_version_id: uuidRef().optional().describe('Exact version filter'),
    limit: listQueryMembers.limit,
    cursor: listQueryMembers.cursor,
  })
  .strict();

/** Typed relations besides prerequisites; a prerequisite is never a relation type. */
export const KC_RELATION_TYPES = ['related_to', 'confusable_with', 'part_of'] as const;
/** Types that read the same in both directions: A related_to B is B related_to A. */
export const SYMMETRIC_RELATION_TYPES: ReadonlySet<string> = new Set(['related_to', 'confusable_with']);

export const CreateRelationInput = z
  .object({
    relation_type: z
      .enum(KC_RELATION_TYPES)
      .describe('related_to and confusable_with are symmetric; from_kc_id part_of to_kc_id is directed'),
    from_kc_id: uuidRef(),
    to_kc_id: uuidRef(),
  })
  .strict()
  .refine((input) => input.from_kc_id !== input.to_kc_id, {
    path: ['to_kc_id'],
    message: 'a KC cannot relate to itself',
  });

export const ListRelationsQuery = z
  .object({
    kcId: uuidRef().optional().describe('Either end'),
    fromKcId: uuidRef().optional().describe('Only relations from this KC'),
    toKcId: uuidRef().optional().describe('Only relations to this KC'),
    relationType: z.enum(KC_RELATION_TYPES).optional().describe('related_to, confusable_with or part_of'),
    updated_since: listQueryMembers.updated_since,
    limit: listQueryMembers.limit,
    cursor: listQueryMembers.cursor,
  })
  .strict();
