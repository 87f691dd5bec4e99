import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { declareRoute, sendCommandResult } from '../../../platform/http.ts';
import { ACCESS } from '../access.ts';
import type { EventsDeps } from '../deps.ts';
import { ListSourcesQuery, RegisterSourceInput, getSource, listSources, registerSource } from './sources.service.ts';
import { OneSourceResponse, SourcePageResponse, SourceResponse } from './sources.responses.ts';

export function sourceRoutes(app: FastifyInstance, deps: EventsDeps): void {
  declareRoute(app, 'activity-sources', {
    method: 'POST',
    url: '/activity-sources',
    access: ACCESS.registerSource,
    summary: 'Register an activity source (create-or-replay on sourceIri)',
    response: SourceResponse,
    replays: true,
    errors: [409],
    body: RegisterSourceInput,
    success: { status: 201, description: 'activity source; 200 with Idempotency-Replayed: true on identical replay' },
    handler: async (request, reply) =>
      sendCommandResult(reply, await registerSource(deps, request.ctx, { body: request.body })),
  });
  declareRoute(app, 'activity-sources', {
    method: 'GET',
    url: '/activity-sources',
    access: ACCESS.read,
    summary: 'List activity sources',
    response: SourcePageResponse,
    querystring: ListSourcesQuery,
    handler: async (request) => listSources(deps, request.ctx, { query: request.query }),
  });
  declareRoute(app, 'activity-sources', {
    method: 'GET',
    url: '/activity-sources/:sourceId',
    access: ACCESS.read,
    summary: 'Read an activity source',
    response: OneSourceResponse,
    params: z.object({ sourceId: z.string() }),
    handler: async (request) => getSource(deps, request.ctx, request.params),
  });
}
