import type { FastifyInstance } from 'fastify';
import type { ContentDeps } from '../deps.ts';
import { z } from 'zod';
import { declareRoute } from '../../../platform/http.ts';
import { ItemParams, itemCommandHandler, TENANT_ROOT } from '../http.ts';
import { MediaInput, listMedia, readMediaBytes, uploadMedia } from './media.service.ts';
import { MediaPageResponse, MediaResponse } from './media.responses.ts';

export function mediaRoutes(app: FastifyInstance, deps: ContentDeps): void {
  declareRoute(app, 'media', {
    method: 'GET',
    url: `${TENANT_ROOT}/items/:contentId/media`,
    summary: 'Media assets of an item, each with its authenticated delivery_url',
    response: MediaPageResponse,
    params: ItemParams,
    handler: async (request) => listMedia(deps, request.ctx, request.params),
  });
  declareRoute(app, 'media', {
    method: 'POST',
    url: `${TENANT_ROOT}/items/:contentId/media`,
    summary: 'Upload a media asset (JSON with base64 bytes)',
    response: MediaResponse,
    idempotencyKey: 'optional',
    errors: [409, 413],
    params: ItemParams,
    body: MediaInput,
    success: { status: 201, description: 'media_asset' },
    handler: itemCommandHandler(deps, uploadMedia),
  });
  declareRoute(app, 'media', {
    method: 'GET',
    url: `${TENANT_ROOT}/items/:contentId/media/:mediaId`,
    summary: 'The bytes of a delivery_url (bearer token of the tenant, read:content)',
    response: { bytes: '*/*' },
    etag: true,
    params: ItemParams.extend({ mediaId: z.string() }),
    success: { status: 200, description: 'media bytes' },
    handler: async (request, reply) => {
      const { ctx } = request;
      const { contentId, mediaId } = request.params;
      const media = await readMediaBytes(deps, ctx, { contentId, mediaId });
      return reply
        .header('content-type', media.mimeType)
        .header('content-length', String(media.bytes.length))
        .header('etag', `"${media.sha256}"`)
        .header('cache-control', 'private, max-age=300')
        .header('x-content-type-options', 'nosniff')
        .header(
          'content-disposition',
          media.fileName ? `inline; filename="${media.fileName.replace(/["\\\r\n]/g, '_')}"` : 'inline',
        )
        .send(media.bytes);
    },
  });
}
