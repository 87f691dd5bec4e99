import type { FastifyInstance } from 'fastify';
import type { ContentDeps } from '../deps.ts';
import { declareRoute } from '../../../platform/http.ts';
import { ACCESS } from '../access.ts';
import { ItemParams, TENANT_ROOT } from '../http.ts';
import { CompositionInput, getComposition, putComposition } from './composition.service.ts';
import { CompositionResponse } from './composition.responses.ts';

export function compositionRoutes(app: FastifyInstance, deps: ContentDeps): void {
  declareRoute(app, 'interactive-composition', {
    method: 'GET',
    url: `${TENANT_ROOT}/items/:contentId/interactive-composition`,
    access: ACCESS.read,
    summary: 'The ordered question bindings of an interactive item',
    response: CompositionResponse,
    params: ItemParams,
    handler: async (request) => getComposition(deps, request.ctx, request.params),
  });
  declareRoute(app, 'interactive-composition', {
    method: 'PUT',
    url: `${TENANT_ROOT}/items/:contentId/interactive-composition`,
    access: ACCESS.author,
    summary: 'Replace the ordered bindings: cues strictly increasing within the duration, segments ordered',
    response: CompositionResponse,
    params: ItemParams,
    body: CompositionInput,
    handler: async (request) => putComposition(deps, request.ctx, { ...request.params, body: request.body }),
  });
}
