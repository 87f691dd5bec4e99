import type { FastifyInstance } from 'fastify';
import type { PlatformRuntime } from '../../../platform/service.ts';
import { declareRoute, headerOf, sendCommandResult } from '../../../platform/http.ts';
import { ItemParams, TENANT_ROOT } from '../http.ts';
import { PublishInput, publishVersion } from './publish.service.ts';
import { PublicationResponse } from './publish.responses.ts';

export function publishRoutes(app: FastifyInstance, runtime: PlatformRuntime): void {
  const { db } = runtime.database;
  declareRoute(app, 'publish', {
    method: 'POST',
    url: `${TENANT_ROOT}/items/:contentId/publish`,
    summary: 'Publish one exact test_spec or test_bank version after server-owned checks',
    response: PublicationResponse,
    idempotencyKey: 'optional',
    errors: [409],
    params: ItemParams,
    body: PublishInput,
    success: { status: 201, description: 'content_publication; an already published version answers 200 with the first publication' },
    handler: async (request, reply) => {
      const { ctx } = request;
      const { contentId } = request.params;
      return sendCommandResult(reply, await publishVersion(db, ctx, contentId, request.body, headerOf(request, 'idempotency-key')));
    },
  });
}
