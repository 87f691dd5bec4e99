import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { declareRoute } from '../../../platform/http.ts';
import { ACCESS } from '../access.ts';
import { CURRICULUM_V1 } from '../paths.ts';
import type { CurriculumDeps } from '../deps.ts';
import { GateNextFormQuery, GateStatusQuery } from './gates.schema.ts';
import { readGateContract, readGateNextForm, readGateRemediation, readGateStatus } from './gates.service.ts';
import {
  GateContractResponse,
  GateNextFormResponse,
  GateRemediationResponse,
  GateStatusResponse,
} from '../learner.responses.ts';

const GateParams = z.object({ componentId: z.string().min(1) });

export function gateRoutes(app: FastifyInstance, deps: CurriculumDeps): void {
  const inputOf = (request: { params: { componentId: string }; query: object }) => ({
    ...request.query,
    ...request.params,
  });
  declareRoute(app, 'gates', {
    method: 'GET',
    url: `${CURRICULUM_V1}/gates/:componentId`,
    access: ACCESS.read,
    summary:
      'The gate contract: bank pin, launch mode, selection and remediation rules; no scores, thresholds or content body',
    params: GateParams,
    response: GateContractResponse,
    handler: async (request) => readGateContract(deps, request.ctx, request.params),
  });
  declareRoute(app, 'gates', {
    method: 'GET',
    url: `${CURRICULUM_V1}/gates/:componentId/status`,
    access: ACCESS.read,
    summary:
      "A student's gate status from the events service's graded results (one named by resultRecordId, or the latest)",
    params: GateParams,
    querystring: GateStatusQuery,
    response: GateStatusResponse,
    errors: [502, 503],
    handler: async (request) => readGateStatus(deps, request.ctx, inputOf(request)),
  });
  declareRoute(app, 'gates', {
    method: 'GET',
    url: `${CURRICULUM_V1}/gates/:componentId/next-form`,
    access: ACCESS.read,
    summary: 'The next eligible unseen form of the exact gate bank version; bank_exhausted when none is left',
    params: GateParams,
    querystring: GateNextFormQuery,
    response: GateNextFormResponse,
    errors: [409, 502, 503],
    handler: async (request) => readGateNextForm(deps, request.ctx, inputOf(request)),
  });
  declareRoute(app, 'gates', {
    method: 'GET',
    url: `${CURRICULUM_V1}/gates/:componentId/remediation`,
    access: ACCESS.read,
    summary: 'Where a failed result leads: never_learned to the lesson, forgot to review, careless to practice',
    params: GateParams,
    querystring: GateStatusQuery,
    response: GateRemediationResponse,
    errors: [409, 502, 503],
    handler: async (request) => readGateRemediation(deps, request.ctx, inputOf(request)),
  });
}
