import type { FastifyInstance } from 'fastify';
import type { ContentDeps } from '../deps.ts';
import { declareRoute, headerOf, sendCommandResult } from '../../../platform/http.ts';
import { ACCESS } from '../access.ts';
import { ItemParams, TENANT_ROOT, VersionParams } from '../http.ts';
import { QcDecisionInput, TrustQuery, readTrust, recordQcDecision } from './trust.service.ts';
import { TrustEvidenceResponse, TrustResponse } from './trust.responses.ts';

export function trustRoutes(app: FastifyInstance, deps: ContentDeps): void {
  declareRoute(app, 'trust', {
    method: 'GET',
    url: `${TENANT_ROOT}/items/:contentId/trust`,
    access: ACCESS.read,
    summary: 'Trust evidence of the newest (or the version_id) exact version',
    response: TrustResponse,
    params: ItemParams,
    querystring: TrustQuery,
    handler: async (request) => {
      const { ctx } = request;
      return readTrust(deps, ctx, { ...request.params, query: request.query });
    },
  });
  declareRoute(app, 'trust', {
    method: 'POST',
    url: `${TENANT_ROOT}/items/:contentId/versions/:versionId/qc-decisions`,
    access: ACCESS.publish,
    summary: 'Record a QC decision (trust) on an exact version; reviewer, never the author',
    response: TrustEvidenceResponse,
    idempotencyKey: 'optional',
    errors: [409],
    description: 'Trust is set only at import or by this QC decision; see docs/decisions.md.',
    params: VersionParams,
    body: QcDecisionInput,
    success: { status: 201, description: 'content_trust_evidence row' },
    handler: async (request, reply) => {
      const { ctx } = request;
      const { contentId, versionId } = request.params;
      return sendCommandResult(
        reply,
        await recordQcDecision(deps, ctx, {
          contentId,
          versionId,
          body: request.body,
          idempotencyKey: headerOf(request, 'idempotency-key'),
        }),
      );
    },
  });
}
