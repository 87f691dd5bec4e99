import { z } from 'zod';
import { Timestamp } from '../../../platform/openapi.ts';

export const CompositionResponse = z.strictObject({
  content_id: z.string(),
  type: z.enum(['interactive_article', 'interactive_video']),
  duration_seconds: z.number().optional(),
  bindings: z.array(
    z.strictObject({
      at_seconds: z.number().optional(),
      segment: z.number().int().optional(),
      question_ref: z.strictObject({
        content_id: z.string(),
        version_id: z.string().optional(),
        assessment_component_id: z.string().optional(),
      }),
      tests_prior_content: z.boolean(),
    }),
  ),
  revision: z.number().int(),
  updated_by: z.string(),
  updated_at: Timestamp,
});
