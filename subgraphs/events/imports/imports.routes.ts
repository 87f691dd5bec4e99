import type { FastifyInstance } from 'fastify';
import { declareRoute, headerOf, sendCommandResult } from '../../../platform/http.ts';
import { ACCESS } from '../access.ts';
import type { EventsDeps } from '../deps.ts';
import { SourceImportInput, runSourceImport } from './imports.service.ts';
import { ImportResponse } from './imports.responses.ts';

export function importRoutes(app: FastifyInstance, deps: EventsDeps): void {
  declareRoute(app, 'source-imports', {
    method: 'POST',
    url: '/source-imports',
    access: ACCESS.sourceImport,
    summary: 'Import 1..1000 source-shaped rows through an adapter, all or nothing',
    response: ImportResponse,
    idempotencyKey: 'optional',
    errors: [409, 422],
    description:
      'Idempotency-Key advised (importId is the retry label otherwise). dryRun validates and writes nothing.',
    body: SourceImportInput,
    success: {
      status: 200,
      description: 'acceptedCount, materializedCount, import.status and links to the readable rows',
    },
    handler: async (request, reply) =>
      sendCommandResult(
        reply,
        await runSourceImport(deps, request.ctx, {
          body: request.body,
          idempotencyKey: headerOf(request, 'idempotency-key'),
        }),
      ),
  });
}
