import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { declareRoute, headerOf, sendCommandResult } from '../../../platform/http.ts';
import { ACCESS } from '../access.ts';
import { CURRICULUM_V1 } from '../paths.ts';
import { resourceHandlers } from '../route-handlers.ts';
import type { CurriculumDeps } from '../deps.ts';
import {
  CreateFirmingEventInput,
  CreatePrerequisiteInput,
  CreateRelationInput,
  CreateReviewDecisionInput,
  ListByVersionQuery,
  ListPrerequisitesQuery,
  ListRelationsQuery,
} from './kc-graph.schema.ts';
import {
  createFirmingEvent,
  createPrerequisite,
  createReviewDecision,
  getPrerequisite,
  listFirmingEvents,
  listPrerequisites,
  listReviewDecisions,
  retirePrerequisite,
} from './kc-graph.service.ts';
import {
  FirmingEventPageResponse,
  FirmingEventResponse,
  PrerequisitePageResponse,
  PrerequisiteResponse,
  RelationPageResponse,
  RelationResponse,
  ReviewDecisionPageResponse,
  ReviewDecisionResponse,
} from './kc-graph.responses.ts';
import { createRelation, getRelation, listRelations, retireRelation } from './kc-relations.service.ts';

const EdgeParams = z.object({ id: z.string().min(1) });

export function kcGraphRoutes(app: FastifyInstance, deps: CurriculumDeps): void {
  const collections = [
    {
      path: 'kc-prerequisites',
      tag: 'kc prerequisites',
      body: CreatePrerequisiteInput,
      query: ListPrerequisitesQuery,
      response: PrerequisiteResponse,
      page: PrerequisitePageResponse,
      create: createPrerequisite,
      list: listPrerequisites,
      what: 'one acyclic prerequisite edge between active KCs',
    },
    {
      path: 'kc-relations',
      tag: 'kc relations',
      body: CreateRelationInput,
      query: ListRelationsQuery,
      response: RelationResponse,
      page: RelationPageResponse,
      create: createRelation,
      list: listRelations,
      what: 'one typed relation (not a prerequisite) between active KCs',
    },
    {
      path: 'kc-review-decisions',
      tag: 'kc review',
      body: CreateReviewDecisionInput,
      query: ListByVersionQuery,
      response: ReviewDecisionResponse,
      page: ReviewDecisionPageResponse,
      create: createReviewDecision,
      list: listReviewDecisions,
      what: 'an immutable review decision on an exact KC version',
    },
    {
      path: 'kc-firming-events',
      tag: 'kc review',
      body: CreateFirmingEventInput,
      query: ListByVersionQuery,
      response: FirmingEventResponse,
      page: FirmingEventPageResponse,
      create: createFirmingEvent,
      list: listFirmingEvents,
      what: 'immutable evidence that firms an exact draft KC version',
    },
  ] as const;
  for (const collection of collections) {
    declareRoute(app, collection.tag, {
      method: 'POST',
      url: `${CURRICULUM_V1}/${collection.path}`,
      access: ACCESS.write,
      summary: `Record ${collection.what}`,
      body: collection.body,
      success: { status: 201, description: collection.path },
      response: collection.response,
      idempotencyKey: 'required',
      errors: [404, 409, 422],
      handler: resourceHandlers(deps).command(collection.create),
    });
    declareRoute(app, collection.tag, {
      method: 'GET',
      url: `${CURRICULUM_V1}/${collection.path}`,
      access: ACCESS.read,
      summary: `List active ${collection.path}`,
      querystring: collection.query,
      response: collection.page,
      handler: async (request) => collection.list(deps, request.ctx, { query: request.query }),
    });
  }
  // Edges can be retired, so a KC can leave the graph before it is retired itself.
  const edges = [
    {
      path: 'kc-prerequisites',
      tag: 'kc prerequisites',
      get: getPrerequisite,
      retire: retirePrerequisite,
      response: PrerequisiteResponse,
    },
    { path: 'kc-relations', tag: 'kc relations', get: getRelation, retire: retireRelation, response: RelationResponse },
  ] as const;
  for (const edge of edges) {
    declareRoute(app, edge.tag, {
      method: 'GET',
      url: `${CURRICULUM_V1}/${edge.path}/:id`,
      access: ACCESS.read,
      summary: `Read one of ${edge.path} (retired ones too)`,
      response: edge.response,
      params: EdgeParams,
      handler: async (request) => edge.get(deps, request.ctx, request.params),
    });
    declareRoute(app, edge.tag, {
      method: 'DELETE',
      url: `${CURRICULUM_V1}/${edge.path}/:id`,
      access: ACCESS.write,
      summary: `Retire one of ${edge.path}; retiring a retired one answers it unchanged`,
      response: edge.response,
      idempotencyKey: 'required',
      params: EdgeParams,
      handler: async (request, reply) =>
        sendCommandResult(
          reply,
          await edge.retire(deps, request.ctx, {
            ...request.params,
            idempotencyKey: headerOf(request, 'idempotency-key'),
          }),
        ),
    });
  }
}
