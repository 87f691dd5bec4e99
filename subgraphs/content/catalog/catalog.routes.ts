import type { FastifyInstance } from 'fastify';
import type { ContentDeps } from '../deps.ts';
import { declareRoute } from '../../../platform/http.ts';
import { ACCESS } from '../access.ts';
import { ItemParams, itemCommandHandler, TENANT_ROOT, TenantParams } from '../http.ts';
import {
  FacetAssignmentInput,
  FacetInput,
  assignFacet,
  defineFacet,
  listAssignments,
  listFacets,
} from './catalog.service.ts';
import { AssignmentPageResponse, AssignmentResponse, FacetPageResponse, FacetResponse } from './catalog.responses.ts';

export function catalogRoutes(app: FastifyInstance, deps: ContentDeps): void {
  declareRoute(app, 'catalog', {
    method: 'GET',
    url: `${TENANT_ROOT}/catalog-facets`,
    access: ACCESS.read,
    summary: "The tenant's catalog facet definitions",
    response: FacetPageResponse,
    params: TenantParams,
    handler: async (request) => listFacets(deps, request.ctx),
  });
  declareRoute(app, 'catalog', {
    method: 'POST',
    url: `${TENANT_ROOT}/catalog-facets`,
    access: ACCESS.author,
    summary: 'Define one of the twelve catalog facets for this tenant',
    response: FacetResponse,
    errors: [409],
    params: TenantParams,
    body: FacetInput,
    success: { status: 201, description: 'content_catalog_facet' },
    handler: async (request, reply) =>
      reply.code(201).send(await defineFacet(deps, request.ctx, { body: request.body })),
  });
  declareRoute(app, 'catalog', {
    method: 'GET',
    url: `${TENANT_ROOT}/items/:contentId/catalog-facets`,
    access: ACCESS.read,
    summary: 'Facet assignments of an item, with provenance',
    response: AssignmentPageResponse,
    params: ItemParams,
    handler: async (request) => listAssignments(deps, request.ctx, request.params),
  });
  declareRoute(app, 'catalog', {
    method: 'POST',
    url: `${TENANT_ROOT}/items/:contentId/catalog-facets`,
    access: ACCESS.author,
    summary: 'Assign a facet value to an item (Idempotency-Key required)',
    response: AssignmentResponse,
    idempotencyKey: 'required',
    errors: [409, 422],
    params: ItemParams,
    body: FacetAssignmentInput,
    success: {
      status: 201,
      description: 'content_catalog_facet_assignment (200 when the same value was already assigned)',
    },
    handler: itemCommandHandler(deps, assignFacet),
  });
}
