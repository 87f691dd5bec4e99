import { z } from 'zod';
import { uuidRef } from '../../../platform/validation.ts';
import { AlphaInput, siblingPosition } from './components.schema.ts';

/**
 * PATCH /components/{id}: either mutable fields, or an isolated reparent (parent_component_id with
 * an optional position and nothing else). kind, component_id and student_id never change.
 */
export const PatchComponentInput = z
  .object({
    name: z.string().trim().min(1).max(500).optional(),
    human_coding_scheme: z.string().min(1).max(200).optional(),
    document_id: uuidRef().optional(),
    position: siblingPosition.optional(),
    parent_component_id: z.string().min(1).optional(),
    alpha: AlphaInput.optional().describe('Fields given replace the stored ones; the rest are kept'),
  })
  .strict()
  .superRefine((patch, issues) => {
    const fields = Object.keys(patch).filter((field) => patch[field as keyof typeof patch] !== undefined);
    if (fields.length === 0) issues.addIssue({ code: 'custom', path: [], message: 'send at least one mutable field' });
    if (patch.parent_component_id !== undefined) {
      for (const field of fields.filter((name) => name !== 'parent_component_id' && name !== 'position')) {
        issues.addIssue({
          code: 'custom',
          path: [field],
          message: 'a reparent patch carries only parent_component_id and position',
        });
      }
    }
  });
export type PatchComponentInput = z.infer<typeof PatchComponentInput>;
