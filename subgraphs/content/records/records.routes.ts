import type { FastifyInstance } from 'fastify';
import type { ContentDeps } from '../deps.ts';
import { declareRoute, sendCommandResult } from '../../../platform/http.ts';
import { ACCESS } from '../access.ts';
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
  declareRoute(app, 'external-link', {
    method: 'GET',
    url: `${TENANT_ROOT}/items/:contentId/external-link`,
    access: ACCESS.read,
    summary: 'The governed external link of an external_link item',
    response: ExternalLinkResponse,
    params: ItemParams,
    handler: async (request) => getExternalLink(deps, request.ctx, request.params),
  });
  declareRoute(app, 'external-link', {
    method: 'POST',
    url: `${TENANT_ROOT}/items/:contentId/external-link`,
    access: ACCESS.author,
    summary: 'Set the external link (no secrets; an open policy)',
    response: ExternalLinkResponse,
    replays: true,
    params: ItemParams,
    body: ExternalLinkInput,
    success: { status: 201, description: 'external_link (200 when replaced)' },
    handler: async (request, reply) => {
      const result = await putExternalLink(deps, request.ctx, { ...request.params, body: request.body });
      return sendCommandResult(reply, { ...result, replayed: false });
    },
  });
  declareRoute(app, 'curriculum-links', {
    method: 'GET',
    url: `${TENANT_ROOT}/items/:contentId/curriculum-links`,
    access: ACCESS.read,
    summary: 'Frozen read-only archive of legacy curriculum links',
    response: CurriculumLinkPageResponse,
    params: ItemParams,
    handler: async (request) => listCurriculumLinks(deps, request.ctx, request.params),
  });
  declareRoute(app, 'effectiveness', {
    method: 'GET',
    url: `${TENANT_ROOT}/items/:contentId/effectiveness`,
    access: ACCESS.read,
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
    access: ACCESS.read,
    summary: 'Provisioned tenant policy rows (read projection)',
    response: PolicyPageResponse,
    params: TenantParams,
    handler: async (request) => listPolicies(deps, request.ctx),
  });
  declareRoute(app, 'trust', {
    method: 'GET',
    url: `${TENANT_ROOT}/trust-status`,
    access: ACCESS.read,
    summary: 'Current trust of exact versions, filterable by trust_status',
    response: TrustStatusPageResponse,
    params: TenantParams,
    querystring: TrustStatusQuery,
    handler: async (request) => listTrustStatus(deps, request.ctx, { query: request.query }),
  });
}
