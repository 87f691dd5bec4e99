import type { FastifyInstance } from 'fastify';
import { declareRoute } from '../../../platform/http.ts';
import { ACCESS } from '../access.ts';
import { TENANT_ROOT, TenantParams, VersionParams } from '../http.ts';
import type { ContentDeps } from '../deps.ts';
import {
  TestServeAuthorizationInput,
  TestServeEligibilityQuery,
  authorizeTestServe,
  readTestServeEligibility,
} from './test-serve.service.ts';
import { TestServeAuthorizationResponse, TestServeEligibilityResponse } from './test-serve.responses.ts';

export function testServeRoutes(app: FastifyInstance, deps: ContentDeps): void {
  declareRoute(app, 'test-serve', {
    method: 'GET',
    url: `${TENANT_ROOT}/items/:contentId/versions/:versionId/test-serve-eligibility`,
    access: ACCESS.read,
    summary:
      'Demo/test-cohort serve eligibility of an exact bank or form version, or the problem content.test_serve_not_authorized',
    response: TestServeEligibilityResponse,
    errors: [409, 503],
    params: VersionParams,
    querystring: TestServeEligibilityQuery,
    handler: async ({ ctx, params, query }) => readTestServeEligibility(deps, ctx, { ...params, query }),
  });
  declareRoute(app, 'test-serve', {
    method: 'POST',
    url: `${TENANT_ROOT}/test-serve-authorizations`,
    access: ACCESS.read,
    summary: 'Revalidate one exact draft bank-to-form selection and append its immutable receipt',
    response: TestServeAuthorizationResponse,
    errors: [404, 409, 503],
    params: TenantParams,
    body: TestServeAuthorizationInput,
    success: { status: 201, description: 'content_test_serve_authorization' },
    handler: async (request, reply) =>
      reply.code(201).send(await authorizeTestServe(deps, request.ctx, { body: request.body })),
  });
}
