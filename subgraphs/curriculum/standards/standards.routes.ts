import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { declareRoute } from '../../../platform/http.ts';
import { ACCESS } from '../access.ts';
import { CURRICULUM_V1 } from '../paths.ts';
import { resourceHandlers } from '../route-handlers.ts';
import type { CurriculumDeps } from '../deps.ts';
import { ImportStandardsInput, ListFrameworksQuery, ListMapsQuery } from './standards.schema.ts';
import { getFramework, importStandards, listFrameworks, listStandardKcMaps } from './standards.service.ts';
import {
  FrameworkPageResponse,
  FrameworkResponse,
  ImportJobResponse,
  StandardKcMapPageResponse,
} from './standards.responses.ts';

const FrameworkParams = z.object({ frameworkId: z.string().min(1) });

export function standardsRoutes(app: FastifyInstance, deps: CurriculumDeps): void {
  declareRoute(app, 'standards', {
    method: 'GET',
    url: `${CURRICULUM_V1}/standards-frameworks`,
    access: ACCESS.read,
    summary: 'List imported standards frameworks',
    response: FrameworkPageResponse,
    querystring: ListFrameworksQuery,
    handler: async (request) => listFrameworks(deps, request.ctx, { query: request.query }),
  });
  declareRoute(app, 'standards', {
    method: 'GET',
    url: `${CURRICULUM_V1}/standards-frameworks/:frameworkId`,
    access: ACCESS.read,
    summary: 'Read one framework by standards_framework_id or CFDocument identifier',
    response: FrameworkResponse,
    params: FrameworkParams,
    handler: async (request) => getFramework(deps, request.ctx, request.params),
  });
  declareRoute(app, 'standards', {
    method: 'POST',
    url: `${CURRICULUM_V1}/standards-frameworks/import`,
    access: ACCESS.import,
    summary: 'Import a CASE package as a frozen, checksum-addressed release with its standard-to-KC maps',
    response: ImportJobResponse,
    idempotencyKey: 'optional',
    errors: [409, 422],
    description:
      'Never creates KCs. The same checksum answers its release (200); a new checksum of the framework retires the previous maps.',
    body: ImportStandardsInput,
    success: { status: 201, description: 'standards_import_job (200 for the same checksum)' },
    handler: resourceHandlers(deps).command(importStandards),
  });
  declareRoute(app, 'standards', {
    method: 'GET',
    url: `${CURRICULUM_V1}/standard-kc-maps`,
    access: ACCESS.read,
    summary:
      "The live standard-to-KC maps (each framework's newest release), or with source_release_id every map of that release",
    response: StandardKcMapPageResponse,
    querystring: ListMapsQuery,
    handler: async (request) => listStandardKcMaps(deps, request.ctx, { query: request.query }),
  });
}
