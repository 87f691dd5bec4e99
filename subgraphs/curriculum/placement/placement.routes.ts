import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { declareRoute, requestContextOf } from '../../../platform/http.ts';
import type { PlatformRuntime } from '../../../platform/service.ts';
import { CURRICULUM_V1 } from '../paths.ts';
import type { CurriculumDeps } from '../deps.ts';
import { PlacementQuery } from './placement.schema.ts';
import { placementCandidates } from './placement.service.ts';

export function placementRoutes(app: FastifyInstance, runtime: PlatformRuntime, deps: CurriculumDeps): void {
  declareRoute(app, 'routing', {
    method: 'GET',
    url: `${CURRICULUM_V1}/tracks/:trackId/placement-candidates`,
    summary: "The track's candidate courses, routed on numeric grade levels (rule 16)",
    params: z.object({ trackId: z.string().min(1) }),
    querystring: PlacementQuery,
    handler: async (request) =>
      placementCandidates(deps, await requestContextOf(runtime.auth, request), { trackId: (request.params as { trackId: string }).trackId, query: request.query }),
  });
}
