import type { FastifyInstance } from 'fastify';
import type { PlatformRuntime } from '../../../platform/service.ts';
import type { ContentDeps } from '../deps.ts';
import { declareRoute } from '../../../platform/http.ts';
import { ItemParams, TENANT_ROOT, tenantContext } from '../http.ts';
import { CompositionInput, getComposition, putComposition } from './composition.service.ts';

export function compositionRoutes(app: FastifyInstance, runtime: PlatformRuntime, deps: ContentDeps): void {
  const { db } = deps;
  const contentIdOf = (request: { params: unknown }) => (request.params as { contentId: string }).contentId;
  declareRoute(app, 'interactive-composition', {
    method: 'GET',
    url: `${TENANT_ROOT}/items/:contentId/interactive-composition`,
    summary: 'The ordered question bindings of an interactive item',
    params: ItemParams,
    handler: async (request) => getComposition(db, await tenantContext(runtime, request), contentIdOf(request)),
  });
  declareRoute(app, 'interactive-composition', {
    method: 'PUT',
    url: `${TENANT_ROOT}/items/:contentId/interactive-composition`,
    summary: 'Replace the ordered bindings: increasing cues inside the video, ordered segments, question refs that resolve',
    params: ItemParams,
    body: CompositionInput,
    handler: async (request) => putComposition(db, await tenantContext(runtime, request), contentIdOf(request), request.body),
  });
}
