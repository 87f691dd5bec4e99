import { z } from 'zod';
import { nullMeansAbsent, listQueryMembers } from '../../../platform/validation.ts';
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
    associationType: z
      .enum(ASSOCIATION_TYPES)
      .optional()
      .describe('A CASE association type: isChildOf, exactMatchOf, ...'),
    originId: z.string().min(1).optional().describe('Only associations from this component (the child, for isChildOf)'),
    destinationId: z.string().min(1).optional().describe('Only associations to this component or framework item'),
    componentId: z.string().min(1).optional().describe('Either end'),
    updated_since: listQueryMembers.updated_since,
    includeRetired: listQueryMembers.includeRetired,
    limit: listQueryMembers.limit,
    cursor: listQueryMembers.cursor,
    sort: z
      .enum(['association_id', 'updated_at'])
      .optional()
      .describe('association_id (the default) or updated_at; ties broken by association_id'),
    order: listQueryMembers.order,
  })
  .strict();
