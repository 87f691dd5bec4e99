import type { FastifyInstance } from 'fastify';
import type { ContentDeps } from '../deps.ts';
import { z } from 'zod';
import { declareRoute } from '../../../platform/http.ts';
import { ACCESS } from '../access.ts';
import { ItemParams, itemCommandHandler, TENANT_ROOT } from '../http.ts';
import { MediaInput, listMedia, readMediaBytes, uploadMedia } from './media.service.ts';
import { MediaPageResponse, MediaResponse } from './media.responses.ts';

export function mediaRoutes(app: FastifyInstance, deps: ContentDeps): void {
  declareRoute(app, 'media', {
    method: 'GET',
    url: `${TENANT_ROOT}/items/:contentId/media`,
    access: ACCESS.read,
    summary: 'Media assets of an item, each with its authenticated delivery_url',
    response: MediaPageResponse,
    params: ItemParams,
    handler: async (request) => listMedia(deps, request.ctx, request.params),
  });
  declareRoute(app, 'media', {
    method: 'POST',
    url: `${TENANT_ROOT}/items/:contentId/media`,
    access: ACCESS.author,
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
    access: ACCESS.read,
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
        .header('content-disposition', inlineDisposition(media.fileName))
        .send(media.bytes);
    },
  });
}

/**
 * RFC 6266: the file name as printable ASCII in `filename`, and as sent in `filename*` (RFC 8187) when that differs.
 * Node refuses a header value with a control character or past Latin-1, so such a name (图片.png) answered a 500.
 */
function inlineDisposition(fileName: string | null): string {
  if (!fileName) return 'inline';
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  if (ascii === fileName) return `inline; filename="${ascii}"`;
  const encoded = encodeURIComponent(fileName).replace(
    /['()*]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `inline; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
