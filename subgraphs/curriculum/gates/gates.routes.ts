import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { declareRoute, requestContextOf } from '../../../platform/http.ts';
import type { PlatformRuntime } from '../../../platform/service.ts';
import { CURRICULUM_V1 } from '../paths.ts';
import type { CurriculumDeps } from '../deps.ts';
import { GateNextFormQuery, GateStatusQuery } from './gates.schema.ts';
import { readGateContract, readGateNextForm, readGateRemediation, readGateStatus } from './gates.service.ts';

const GateParams = z.object({ componentId: z.string().min(1) });

export function gateRoutes(app: FastifyInstance, runtime: PlatformRuntime, deps: CurriculumDeps): void {
  const inputOf = (request: { params: unknown; query: unknown }) => ({ ...(request.query as object), ...(request.params as { componentId: string }) });
  declareRoute(app, 'gates', {
    method: 'GET',
    url: `${CURRICULUM_V1}/gates/:componentId`,
    summary: 'The gate contract: bank pin, launch mode, selection and remediation rules; no scores, thresholds or content body',
    params: GateParams,
    handler: async (request) => readGateContract(deps, await requestContextOf(runtime.auth, request), request.params as { componentId: string }),
  });
  declareRoute(app, 'gates', {
    method: 'GET',
    url: `${CURRICULUM_V1}/gates/:componentId/status`,
    summary: "A student's gate status from the events service's graded results (one named by resultRecordId, or the latest)",
    params: GateParams,
    querystring: GateStatusQuery,
    handler: async (request) => readGateStatus(deps, await requestContextOf(runtime.auth, request), inputOf(request)),
  });
  declareRoute(app, 'gates', {
    method: 'GET',
    url: `${CURRICULUM_V1}/gates/:componentId/next-form`,
    summary: 'The next eligible unseen form of the exact gate bank version (rule 12); bank_exhausted when none is left',
    params: GateParams,
    querystring: GateNextFormQuery,
    handler: async (request) => readGateNextForm(deps, await requestContextOf(runtime.auth, request), inputOf(request)),
  });
  declareRoute(app, 'gates', {
    method: 'GET',
    url: `${CURRICULUM_V1}/gates/:componentId/remediation`,
    summary: 'Where a failed result leads (rule 13): never_learned to the lesson, forgot to review, careless to practice',
    params: GateParams,
    querystring: GateStatusQuery,
    handler: async (request) => readGateRemediation(deps, await requestContextOf(runtime.auth, request), inputOf(request)),
  });
}
