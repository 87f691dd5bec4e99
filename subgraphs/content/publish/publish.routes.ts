import type { FastifyInstance } from 'fastify';
import type { ContentDeps } from '../deps.ts';
import { declareRoute } from '../../../platform/http.ts';
import { ACCESS } from '../access.ts';
import { ItemParams, itemCommandHandler, TENANT_ROOT } from '../http.ts';
import { PublishInput, publishVersion } from './publish.service.ts';
import { PublicationResponse } from './publish.responses.ts';

export function publishRoutes(app: FastifyInstance, deps: ContentDeps): void {
  declareRoute(app, 'publish', {
    method: 'POST',
    url: `${TENANT_ROOT}/items/:contentId/publish`,
    access: ACCESS.publish,
    summary: 'Publish one exact test_spec or test_bank version after server-owned checks',
    response: PublicationResponse,
    idempotencyKey: 'optional',
    errors: [409],
    params: ItemParams,
    body: PublishInput,
    success: {
      status: 201,
      description: 'content_publication; an already published version answers 200 with the first publication',
    },
    handler: itemCommandHandler(deps, publishVersion),
  });
}
