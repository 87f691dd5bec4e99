import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { declareRoute, headerOf, sendCommandResult } from '../../../platform/http.ts';
import { ACCESS } from '../access.ts';
import { CURRICULUM_V1 } from '../paths.ts';
import type { CurriculumDeps } from '../deps.ts';
import { RendererQuery, RepointInput } from './repoint.schema.ts';
import { readRendererRegistry, repointComponent } from './repoint.service.ts';
import { RendererRegistryResponse, RepointResponse } from './repoint.responses.ts';

const ComponentParams = z.object({ componentId: z.string().min(1) });

export function repointRoutes(app: FastifyInstance, deps: CurriculumDeps): void {
  declareRoute(app, 'components', {
    method: 'POST',
    url: `${CURRICULUM_V1}/components/:componentId/repoint`,
    access: ACCESS.write,
    summary:
      'Repoint a pin to another exact version of the same content, or attach a first pin, from the exact current pin',
    response: RepointResponse,
    etag: true,
    idempotencyKey: 'required',
    errors: [409, 422, 502, 503],
    params: ComponentParams,
    body: RepointInput,
    success: { status: 201, description: 'component_target_repoint' },
    handler: async (request, reply) => {
      const { ctx } = request;
      const result = await repointComponent(deps, ctx, {
        ...request.params,
        body: request.body,
        idempotencyKey: headerOf(request, 'idempotency-key'),
      });
      return sendCommandResult(reply, result, { etag: result.value.component.etag });
    },
  });
  declareRoute(app, 'renderers', {
    method: 'GET',
    url: `${CURRICULUM_V1}/renderer-registry`,
    access: ACCESS.read,
    summary: 'The renderer registry; renderer_kind is an alias of renderer_ref',
    response: RendererRegistryResponse,
    querystring: RendererQuery,
    handler: async (request) => readRendererRegistry(deps, request.ctx, { query: request.query }),
  });
}
