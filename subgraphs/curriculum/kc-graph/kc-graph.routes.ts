import type { FastifyInstance } from 'fastify';
import { declareRoute, headerOf, requestContextOf, sendCommandResult } from '../../../platform/http.ts';
import type { PlatformRuntime } from '../../../platform/service.ts';
import { CURRICULUM_V1 } from '../paths.ts';
import type { KcDeps } from '../kcs/kcs.service.ts';
import { CreateFirmingEventInput, CreatePrerequisiteInput, CreateReviewDecisionInput, ListByVersionQuery, ListPrerequisitesQuery } from './kc-graph.schema.ts';
import {
  createFirmingEvent,
  createPrerequisite,
  createReviewDecision,
  listFirmingEvents,
  listPrerequisites,
  listReviewDecisions,
} from './kc-graph.service.ts';

export function kcGraphRoutes(app: FastifyInstance, runtime: PlatformRuntime, deps: KcDeps): void {
  const ctxOf = (request: Parameters<typeof requestContextOf>[1]) => requestContextOf(runtime.auth, request);
  const collections = [
    { path: 'kc-prerequisites', tag: 'kc prerequisites', body: CreatePrerequisiteInput, query: ListPrerequisitesQuery, create: createPrerequisite, list: listPrerequisites, what: 'one acyclic prerequisite edge between active KCs' },
    { path: 'kc-review-decisions', tag: 'kc review', body: CreateReviewDecisionInput, query: ListByVersionQuery, create: createReviewDecision, list: listReviewDecisions, what: 'an immutable review decision on an exact KC version' },
    { path: 'kc-firming-events', tag: 'kc review', body: CreateFirmingEventInput, query: ListByVersionQuery, create: createFirmingEvent, list: listFirmingEvents, what: 'immutable evidence that firms an exact draft KC version' },
  ] as const;
  for (const collection of collections) {
    declareRoute(app, collection.tag, {
      method: 'POST',
      url: `${CURRICULUM_V1}/${collection.path}`,
      summary: `Record ${collection.what}`,
      body: collection.body,
      success: { status: 201, description: collection.path },
      handler: async (request, reply) =>
        sendCommandResult(reply, await collection.create(deps, await ctxOf(request), request.body, headerOf(request, 'idempotency-key'))),
    });
    declareRoute(app, collection.tag, {
      method: 'GET',
      url: `${CURRICULUM_V1}/${collection.path}`,
      summary: `List ${collection.path}`,
      querystring: collection.query,
      handler: async (request) => collection.list(deps, await ctxOf(request), request.query),
    });
  }
}
