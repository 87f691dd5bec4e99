import type { FastifyInstance } from 'fastify';
import type { PlatformRuntime } from '../../../platform/service.ts';
import { declareRoute } from '../../../platform/http.ts';
import { TENANT_ROOT, TenantParams, VersionParams, tenantContext } from '../http.ts';
import type { ContentDeps } from '../deps.ts';
import { TestServeAuthorizationInput, TestServeEligibilityQuery, authorizeTestServe, readTestServeEligibility } from './test-serve.service.ts';

export function testServeRoutes(app: FastifyInstance, runtime: PlatformRuntime, deps: ContentDeps): void {
  declareRoute(app, 'test-serve', {
    method: 'GET',
    url: `${TENANT_ROOT}/items/:contentId/versions/:versionId/test-serve-eligibility`,
    summary: 'Demo/test-cohort serve eligibility of an exact bank or form version, or the problem content.test_serve_not_authorized',
    params: VersionParams,
    querystring: TestServeEligibilityQuery,
    handler: async (request) => {
      const ctx = await tenantContext(runtime, request);
      const { contentId, versionId } = request.params as { contentId: string; versionId: string };
      return readTestServeEligibility(deps, ctx, contentId, versionId, request.query);
    },
  });
  declareRoute(app, 'test-serve', {
    method: 'POST',
    url: `${TENANT_ROOT}/test-serve-authorizations`,
    summary: 'Revalidate one exact draft bank-to-form selection and append its immutable receipt',
    params: TenantParams,
    body: TestServeAuthorizationInput,
    success: { status: 201, description: 'content_test_serve_authorization' },
    handler: async (request, reply) => reply.code(201).send(await authorizeTestServe(deps, await tenantContext(runtime, request), request.body)),
  });
}
