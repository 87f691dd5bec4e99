import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { declareRoute } from '../../../platform/http.ts';
import { ACCESS } from '../access.ts';
import { CURRICULUM_V1 } from '../paths.ts';
import type { CurriculumDeps } from '../deps.ts';
import { PlacementQuery } from './placement.schema.ts';
import { placementCandidates } from './placement.service.ts';
import { PlacementCandidatesResponse } from '../learner.responses.ts';

export function placementRoutes(app: FastifyInstance, deps: CurriculumDeps): void {
  declareRoute(app, 'routing', {
    method: 'GET',
    url: `${CURRICULUM_V1}/tracks/:trackId/placement-candidates`,
    access: ACCESS.read,
    summary: "The track's candidate courses, routed on numeric grade levels, never CASE grade ids",
    params: z.object({ trackId: z.string().min(1) }),
    querystring: PlacementQuery,
    response: PlacementCandidatesResponse,
    handler: async (request) =>
      placementCandidates(deps, request.ctx, { trackId: request.params.trackId, query: request.query }),
  });
}
