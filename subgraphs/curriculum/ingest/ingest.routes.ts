import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { declareRoute, requestContextOf, sendCommandResult } from '../../../platform/http.ts';
import type { PlatformRuntime } from '../../../platform/service.ts';
import { CURRICULUM_V1 } from '../paths.ts';
import type { CurriculumDeps } from '../deps.ts';
import { IngestInput } from './ingest.schema.ts';
import { getIngestJob, ingestVendorCourse } from './ingest.service.ts';

const JobParams = z.object({ jobId: z.string().min(1) });

export function ingestRoutes(app: FastifyInstance, runtime: PlatformRuntime, deps: CurriculumDeps): void {
  declareRoute(app, 'ingest', {
    method: 'POST',
    url: `${CURRICULUM_V1}/ingest/vendor-course-refs`,
    summary: 'Ingest vendor course rows as curriculum trees: eligible pins first, staged as draft, read back, published bottom-up',
    description: 'Scope curriculum:import. A retry of the same source_system and producer_batch_id answers the same source_ingest_job (200).',
    body: IngestInput,
    success: { status: 201, description: 'source_ingest_job (200 for a same-run retry)' },
    handler: async (request, reply) =>
      sendCommandResult(reply, await ingestVendorCourse(deps, await requestContextOf(runtime.auth, request), request.body)),
  });
  declareRoute(app, 'ingest', {
    method: 'GET',
    url: `${CURRICULUM_V1}/ingest/vendor-course-refs/:jobId`,
    summary: 'Read a source_ingest_job back with its per-row outcome',
    params: JobParams,
    handler: async (request) => getIngestJob(deps, await requestContextOf(runtime.auth, request), request.params as { jobId: string }),
  });
}
