import type { FastifyInstance } from 'fastify';
import { declareRoute, headerOf, sendCommandResult } from '../../../platform/http.ts';
import { ACCESS } from '../access.ts';
import { ItemParams, TENANT_ROOT, TenantParams } from '../http.ts';
import {
  CreateItemInput,
  ListItemsQuery,
  PatchItemInput,
  createItem,
  getItem,
  listItems,
  patchItem,
} from './items.service.ts';
import { getBlueprint } from '../blueprints/blueprint.service.ts';
import type { ContentDeps } from '../deps.ts';
import { BlueprintResponse, ItemPageResponse, ItemResponse } from './items.responses.ts';

export function itemRoutes(app: FastifyInstance, deps: ContentDeps): void {
  declareRoute(app, 'items', {
    method: 'POST',
    url: `${TENANT_ROOT}/items`,
    access: ACCESS.author,
    summary: 'Create a content item (metadata) with its initial version',
    response: ItemResponse,
    etag: true,
    idempotencyKey: 'required',
    errors: [409, 422],
    params: TenantParams,
    body: CreateItemInput,
    success: {
      status: 201,
      description: 'content_item; an identical replay answers 200 with Idempotency-Replayed: true',
    },
    handler: async (request, reply) => {
      const { ctx } = request;
      const result = await createItem(deps, ctx, {
        body: request.body,
        idempotencyKey: headerOf(request, 'idempotency-key'),
      });
      return sendCommandResult(reply, result, { etag: result.value.etag });
    },
  });
  declareRoute(app, 'items', {
    method: 'GET',
    url: `${TENANT_ROOT}/items/:contentId`,
    access: ACCESS.service,
    summary: 'Read a content item; the ETag header feeds If-Match',
    response: ItemResponse,
    etag: true,
    params: ItemParams,
    handler: async (request, reply) => {
      const item = await getItem(deps, request.ctx, request.params);
      return reply.header('etag', item.etag).send(item);
    },
  });
  declareRoute(app, 'items', {
    method: 'PATCH',
    url: `${TENANT_ROOT}/items/:contentId`,
    access: ACCESS.author,
    summary: 'Change item metadata under If-Match (body, blocks and composition fields are refused)',
    response: ItemResponse,
    etag: true,
    precondition: { header: 'if-match', required: true },
    params: ItemParams,
    body: PatchItemInput,
    handler: async (request, reply) => {
      const { contentId } = request.params;
      const ifMatch = headerOf(request, 'if-match');
      const item = await patchItem(deps, request.ctx, { contentId, body: request.body, ifMatch });
      return reply.header('etag', item.etag).send(item);
    },
  });
  declareRoute(app, 'items', {
    method: 'GET',
    url: `${TENANT_ROOT}/items`,
    access: ACCESS.service,
    summary: 'List content items with the documented filters, oldest change first',
    response: ItemPageResponse,
    errors: [503],
    params: TenantParams,
    querystring: ListItemsQuery,
    handler: async ({ ctx, query }) => listItems(deps, ctx, { query }),
  });
  declareRoute(app, 'items', {
    method: 'GET',
    url: `${TENANT_ROOT}/items/:contentId/blueprint`,
    access: ACCESS.read,
    summary: 'The seven blueprint fields of a test_spec, with spec_id',
    response: BlueprintResponse,
    params: ItemParams,
    handler: async ({ ctx, params }) => getBlueprint(deps, ctx, params),
  });
}
