import type { FastifyInstance } from 'fastify';
import type { ContentDeps } from '../deps.ts';
import { declareRoute } from '../../../platform/http.ts';
import { ACCESS } from '../access.ts';
import { TENANT_ROOT, VersionParams } from '../http.ts';
import { EligibilityQuery, readReleaseEligibility } from './eligibility.service.ts';
import { ReleaseEligibilityResponse } from './eligibility.responses.ts';

export function eligibilityRoutes(app: FastifyInstance, deps: ContentDeps): void {
  declareRoute(app, 'eligibility', {
    method: 'GET',
    url: `${TENANT_ROOT}/items/:contentId/versions/:versionId/release-eligibility`,
    access: ACCESS.read,
    summary: 'Release eligibility of one exact version, or the problem content.version_not_serveable',
    response: ReleaseEligibilityResponse,
    errors: [409],
    params: VersionParams,
    querystring: EligibilityQuery,
    handler: async (request) => {
      const { ctx } = request;
      const { contentId, versionId } = request.params;
      return readReleaseEligibility(deps, ctx, { contentId, versionId, query: request.query });
    },
  });
}
