import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { declareRoute, writeHeaders, headerOf, sendCommandResult } from '../../../platform/http.ts';
import { CURRICULUM_V1 } from '../paths.ts';
import { CreateAssociationInput, ListAssociationsQuery, PatchAssociationInput } from './associations.schema.ts';
import { createAssociation, getAssociation, listAssociations, patchAssociation } from './associations.service.ts';
import type { CurriculumDeps } from '../deps.ts';
import { AssociationPageResponse, AssociationResponse } from './associations.responses.ts';

const AssociationParams = z.object({ associationId: z.string().min(1) });

export function associationRoutes(app: FastifyInstance, deps: CurriculumDeps): void {
  declareRoute(app, 'associations', {
    method: 'POST',
    url: `${CURRICULUM_V1}/associations`,
    summary: 'Initial containment (isChildOf) or framework alignment',
    response: AssociationResponse,
    etag: true,
    idempotencyKey: 'optional',
    errors: [409, 422],
    body: CreateAssociationInput,
    success: { status: 201, description: 'curriculum_association (200 when it already exists)' },
    handler: async (request, reply) => {
      const result = await createAssociation(deps, request.ctx, {
        body: request.body,
        idempotencyKey: headerOf(request, 'idempotency-key'),
      });
      return sendCommandResult(reply, result, { etag: result.value.etag });
    },
  });
  declareRoute(app, 'associations', {
    method: 'GET',
    url: `${CURRICULUM_V1}/associations`,
    summary: 'List associations',
    response: AssociationPageResponse,
    querystring: ListAssociationsQuery,
    handler: async (request) => listAssociations(deps, request.ctx, { query: request.query }),
  });
  declareRoute(app, 'associations', {
    method: 'GET',
    url: `${CURRICULUM_V1}/associations/:associationId`,
    summary: 'Read an association with its sequence_number; the ETag feeds X-Curriculum-If-Match',
    response: AssociationResponse,
    etag: true,
    params: AssociationParams,
    handler: async (request, reply) => {
      const association = await getAssociation(deps, request.ctx, request.params);
      return reply.header('etag', association.etag).send(association);
    },
  });
  declareRoute(app, 'associations', {
    method: 'PATCH',
    url: `${CURRICULUM_V1}/associations/:associationId`,
    summary: 'Reorder siblings by sequence_number',
    response: AssociationResponse,
    etag: true,
    idempotencyKey: 'required',
    precondition: { header: 'x-curriculum-if-match', required: true },
    errors: [409],
    params: AssociationParams,
    body: PatchAssociationInput,
    handler: async (request, reply) => {
      const result = await patchAssociation(deps, request.ctx, {
        ...request.params,
        body: request.body,
        ...writeHeaders(request, 'x-curriculum-if-match'),
      });
      return sendCommandResult(reply, result, { etag: result.value.etag });
    },
  });
}
