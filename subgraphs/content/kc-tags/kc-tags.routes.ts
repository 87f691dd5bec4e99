import type { FastifyInstance } from 'fastify';
import { declareRoute, sendCommandResult } from '../../../platform/http.ts';
import { ACCESS } from '../access.ts';
import { ItemParams, TENANT_ROOT } from '../http.ts';
import type { ContentDeps } from '../deps.ts';
import { KcTagInput, KcTagsQuery, listKcTags, tagKc } from './kc-tags.service.ts';
import { KcTagPageResponse, KcTagResponse } from './kc-tags.responses.ts';

export function kcTagRoutes(app: FastifyInstance, deps: ContentDeps): void {
  declareRoute(app, 'kc-tags', {
    method: 'GET',
    url: `${TENANT_ROOT}/items/:contentId/kc-tags`,
    access: ACCESS.read,
    summary: 'Weighted KC tags of an item',
    response: KcTagPageResponse,
    params: ItemParams,
    querystring: KcTagsQuery,
    handler: async (request) => {
      const { ctx } = request;
      return listKcTags(deps, ctx, { ...request.params, query: request.query });
    },
  });
  declareRoute(app, 'kc-tags', {
    method: 'POST',
    url: `${TENANT_ROOT}/items/:contentId/kc-tags`,
    access: ACCESS.linkKc,
    summary: 'Create or replace the weighted tag to an active registry KC (link:kc)',
    response: KcTagResponse,
    replays: true,
    errors: [409, 503],
    params: ItemParams,
    body: KcTagInput,
    success: { status: 201, description: 'content_kc_tag (200 when an existing tag was replaced)' },
    handler: async (request, reply) => {
      const { ctx } = request;
      const result = await tagKc(deps, ctx, { ...request.params, body: request.body });
      return sendCommandResult(reply, { ...result, replayed: false });
    },
  });
}
