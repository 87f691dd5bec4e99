import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { declareRoute, sendCommandResult } from '../../../platform/http.ts';
import type { PlatformRuntime } from '../../../platform/service.ts';
import { eventsContext } from '../http.ts';
import type { EventsDeps } from '../deps.ts';
import { ListSourcesQuery, RegisterSourceInput, getSource, listSources, registerSource } from './sources.service.ts';

export function sourceRoutes(app: FastifyInstance, runtime: PlatformRuntime, deps: EventsDeps): void {
  const { db } = deps;
  declareRoute(app, 'activity-sources', {
    method: 'POST',
    url: '/activity-sources',
    summary: 'Register an activity source (create-or-replay on sourceIri)',
    body: RegisterSourceInput,
    success: { status: 201, description: 'activity source; 200 with Idempotency-Replayed: true on identical replay' },
    handler: async (request, reply) => sendCommandResult(reply, await registerSource(deps, await eventsContext(runtime, request), { body: request.body })),
  });
  declareRoute(app, 'activity-sources', {
    method: 'GET',
    url: '/activity-sources',
    summary: 'List activity sources',
    querystring: ListSourcesQuery,
    handler: async (request) => listSources(db, runtime.cursors, await eventsContext(runtime, request), request.query),
  });
  declareRoute(app, 'activity-sources', {
    method: 'GET',
    url: '/activity-sources/:sourceId',
    summary: 'Read an activity source',
    params: z.object({ sourceId: z.string() }),
    handler: async (request) => getSource(db, await eventsContext(runtime, request), (request.params as { sourceId: string }).sourceId),
  });
}
