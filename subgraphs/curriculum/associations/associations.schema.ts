import { z } from 'zod';
import { MAX_PAGE_SIZE } from '../../../platform/cursor.ts';
import { nullMeansAbsent, queryBoolean, queryInstant, queryInteger } from '../../../platform/validation.ts';
import { siblingPosition } from '../components/components.schema.ts';

/** CASE association types: isChildOf is containment, the others align a component to a framework item. */
export const ASSOCIATION_TYPES = [
  'isChildOf',
  'exactMatchOf',
  'isRelatedTo',
  'isPartOf',
  'isPeerOf',
  'precedes',
  'exemplar',
  'hasSkillLevel',
  'replacedBy',
] as const;

export const CreateAssociationInput = nullMeansAbsent(
  z
    .object({
      associationType: z.enum(ASSOCIATION_TYPES),
      originId: z.string().min(1).describe('The component (the child, for isChildOf)'),
      destinationId: z.string().min(1).describe('The parent component for isChildOf; the framework item otherwise'),
      sequence_number: siblingPosition.optional(),
    })
    .strict(),
);

export const PatchAssociationInput = z.object({ sequence_number: siblingPosition }).strict();

export const ListAssociationsQuery = z
  .object({
    associationType: z.enum(ASSOCIATION_TYPES).optional(),
    originId: z.string().min(1).optional(),
    destinationId: z.string().min(1).optional(),
    componentId: z.string().min(1).optional().describe('Either end'),
    updated_since: queryInstant().optional(),
    includeRetired: queryBoolean.optional(),
    limit: queryInteger(0, MAX_PAGE_SIZE).optional(),
    cursor: z.string().min(1).optional(),
    sort: z.enum(['association_id', 'updated_at']).optional(),
    order: z.enum(['asc', 'desc']).optional(),
  })
  .strict();
