import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { declareRoute, sendCommandResult } from '../../../platform/http.ts';
import { ACCESS } from '../access.ts';
import { CURRICULUM_V1 } from '../paths.ts';
import type { CurriculumDeps } from '../deps.ts';
import { IngestInput } from './ingest.schema.ts';
import { INGEST_JOB_ACCESS, getIngestJob, ingestVendorCourse } from './ingest.service.ts';
import { SourceIngestJobResponse } from '../learner.responses.ts';

const JobParams = z.object({ jobId: z.string().min(1) });

export function ingestRoutes(app: FastifyInstance, deps: CurriculumDeps): void {
  declareRoute(app, 'ingest', {
    method: 'POST',
    url: `${CURRICULUM_V1}/ingest/vendor-course-refs`,
    access: ACCESS.import,
    summary:
      'Ingest vendor course rows as curriculum trees: eligible pins first, staged as draft, read back, published bottom-up',
    description:
      'Scope curriculum:import. A retry of the same source_system and producer_batch_id answers the same source_ingest_job (200).',
    body: IngestInput,
    response: SourceIngestJobResponse,
    replays: true,
    errors: [409, 422, 502, 503],
    success: { status: 201, description: 'source_ingest_job (200 for a same-run retry)' },
    handler: async (request, reply) =>
      sendCommandResult(reply, await ingestVendorCourse(deps, request.ctx, { body: request.body })),
  });
  declareRoute(app, 'ingest', {
    method: 'GET',
    url: `${CURRICULUM_V1}/ingest/vendor-course-refs/:jobId`,
    access: INGEST_JOB_ACCESS,
    summary: 'Read a source_ingest_job back with its per-row outcome',
    params: JobParams,
    response: SourceIngestJobResponse,
    handler: async (request) => getIngestJob(deps, request.ctx, request.params),
  });
}
