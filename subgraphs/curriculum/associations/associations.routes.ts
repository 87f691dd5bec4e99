import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ACCESS } from '../access.ts';
import { declareResourceRoutes } from '../route-handlers.ts';
import { CreateAssociationInput, ListAssociationsQuery, PatchAssociationInput } from './associations.schema.ts';
import { createAssociation, getAssociation, listAssociations, patchAssociation } from './associations.service.ts';
import type { CurriculumDeps } from '../deps.ts';
import { AssociationPageResponse, AssociationResponse } from './associations.responses.ts';

export function associationRoutes(app: FastifyInstance, deps: CurriculumDeps): void {
  declareResourceRoutes(app, deps, {
    tag: 'associations',
    path: 'associations',
    params: z.object({ associationId: z.string().min(1) }),
    response: AssociationResponse,
    precondition: 'x-curriculum-if-match',
    create: {
      summary: 'Initial containment (isChildOf) or framework alignment',
      errors: [409, 422],
      body: CreateAssociationInput,
      success: 'curriculum_association (200 when it already exists)',
      access: ACCESS.write,
      rule: createAssociation,
    },
    list: {
      summary: 'List associations',
      page: AssociationPageResponse,
      query: ListAssociationsQuery,
      access: ACCESS.read,
      rule: listAssociations,
    },
    read: {
      summary: 'Read an association with its sequence_number; the ETag feeds X-Curriculum-If-Match',
      access: ACCESS.read,
      rule: getAssociation,
    },
    edit: {
      summary: 'Reorder siblings by sequence_number',
      errors: [409],
      body: PatchAssociationInput,
      access: ACCESS.write,
      rule: patchAssociation,
    },
  });
}
