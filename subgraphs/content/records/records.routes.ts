import type { FastifyInstance } from 'fastify';
import type { ContentDeps } from '../deps.ts';
import { declareRoute, sendCommandResult } from '../../../platform/http.ts';
import { ItemParams, TENANT_ROOT, TenantParams } from '../http.ts';
import {
  ExternalLinkInput,
  TrustStatusQuery,
  getExternalLink,
  listCurriculumLinks,
  listPolicies,
  listTrustStatus,
  putExternalLink,
  EffectivenessQuery,
  readEffectiveness,
} from './records.service.ts';
import {
  CurriculumLinkPageResponse,
  EffectivenessResponse,
  ExternalLinkResponse,
  PolicyPageResponse,
  TrustStatusPageResponse,
} from './records.responses.ts';

export function recordRoutes(app: FastifyInstance, deps: ContentDeps): void {
  const { db } = deps;
  declareRoute(app, 'external-link', {
    method: 'GET',
    url: `${TENANT_ROOT}/items/:contentId/external-link`,
    summary: 'The governed external link of an external_link item',
    response: ExternalLinkResponse,
    params: ItemParams,
    handler: async (request) => getExternalLink(db, request.ctx, request.params.contentId),
  });
  declareRoute(app, 'external-link', {
    method: 'POST',
    url: `${TENANT_ROOT}/items/:contentId/external-link`,
    summary: 'Set the external link (no secrets; an open policy)',
    response: ExternalLinkResponse,
    replays: true,
    params: ItemParams,
    body: ExternalLinkInput,
    success: { status: 201, description: 'external_link (200 when replaced)' },
    handler: async (request, reply) => {
      const result = await putExternalLink(db, request.ctx, request.params.contentId, request.body);
      return sendCommandResult(reply, { ...result, replayed: false });
    },
  });
  declareRoute(app, 'curriculum-links', {
    method: 'GET',
    url: `${TENANT_ROOT}/items/:contentId/curriculum-links`,
    summary: 'Frozen read-only archive of legacy curriculum links',
    response: CurriculumLinkPageResponse,
    params: ItemParams,
    handler: async (request) => listCurriculumLinks(db, request.ctx, request.params.contentId),
  });
  declareRoute(app, 'effectiveness', {
    method: 'GET',
    url: `${TENANT_ROOT}/items/:contentId/effectiveness`,
    summary: 'Derived, read-only effectiveness status of the newest (or the given) exact version',
    description:
      'Derived at read time from the events service (GET /event-tallies of the exact version): fresh, stale, pending or insufficient_data.',
    response: EffectivenessResponse,
    errors: [502, 503],
    params: ItemParams,
    querystring: EffectivenessQuery,
    handler: async (request) =>
      readEffectiveness(deps, request.ctx, { contentId: request.params.contentId, query: request.query }),
  });
  declareRoute(app, 'policies', {
    method: 'GET',
    url: `${TENANT_ROOT}/policies`,
    summary: 'Provisioned tenant policy rows (read projection)',
    response: PolicyPageResponse,
    params: TenantParams,
    handler: async (request) => listPolicies(db, request.ctx),
  });
  declareRoute(app, 'trust', {
    method: 'GET',
    url: `${TENANT_ROOT}/trust-status`,
    summary: 'Current trust of exact versions, filterable by trust_status',
    response: TrustStatusPageResponse,
    params: TenantParams,
    querystring: TrustStatusQuery,
    handler: async (request) => listTrustStatus(db, deps.cursors, request.ctx, request.query),
  });
}
