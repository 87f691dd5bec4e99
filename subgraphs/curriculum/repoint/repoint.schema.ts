import { z } from 'zod';
import { TargetRefInput } from '../components/components.schema.ts';

export const RepointInput = z
  .object({
    operation: z.enum(['repoint', 'attach']),
    expected_target_ref: TargetRefInput.nullable()
      .optional()
      .describe('The exact current pin (absent or null for attach)'),
    target_ref: TargetRefInput,
  })
  .strict()
  .superRefine((input, issues) => {
    if (input.operation === 'repoint' && !input.expected_target_ref) {
      issues.addIssue({
        code: 'custom',
        path: ['expected_target_ref'],
        message: 'a repoint names the exact current pin',
      });
    }
  });
export type RepointInput = z.infer<typeof RepointInput>;

export const RendererQuery = z
  .object({
    renderer_ref: z
      .string()
      .min(1)
      .optional()
      .describe('Only the row of this renderer_ref (renderer:interactive-lesson, ...); none when unknown'),
    renderer_kind: z
      .string()
      .min(1)
      .optional()
      .describe('Only the row of this alias (interactive_lesson, qti_test); with renderer_ref, both must name it'),
  })
  .strict();
