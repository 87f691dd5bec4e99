import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { declareRoute, headerOf, requestContextOf, sendCommandResult } from '../../../platform/http.ts';
import type { PlatformRuntime } from '../../../platform/service.ts';
import { CURRICULUM_V1 } from '../paths.ts';
import { AppendKcVersionInput, CreateKcInput, ListKcsQuery, PageQuery, PublishKcInput } from './kcs.schema.ts';
import { appendKcVersion, createKc, getKc, getKcVersion, listKcVersions, listKcs, publishKc, retireKc } from './kcs.service.ts';
import type { CurriculumDeps } from '../deps.ts';

const KcParams = z.object({ kcId: z.string().min(1) });
const KcVersionParams = z.object({ kcId: z.string().min(1), versionId: z.string().min(1) });

export function kcRoutes(app: FastifyInstance, runtime: PlatformRuntime, deps: CurriculumDeps): void {
  const ctxOf = (request: Parameters<typeof requestContextOf>[1]) => requestContextOf(runtime.auth, request);
  const kcIdOf = (request: { params: unknown }) => (request.params as { kcId: string }).kcId;
  declareRoute(app, 'kcs', {
    method: 'POST',
    url: `${CURRICULUM_V1}/kcs`,
    summary: 'Create a registry KC (stored_as alpha.knowledge_component, no document_id); a retry by Idempotency-Key or exact kc_id creates nothing new',
    body: CreateKcInput,
    success: { status: 201, description: 'knowledge_component (200 for a retry)' },
    handler: async (request, reply) => {
      const result = await createKc(deps, await ctxOf(request), request.body, headerOf(request, 'idempotency-key'));
      return sendCommandResult(reply, result, { etag: result.value.etag });
    },
  });
  declareRoute(app, 'kcs', {
    method: 'GET',
    url: `${CURRICULUM_V1}/kcs`,
    summary: 'List registry KCs',
    querystring: ListKcsQuery,
    handler: async (request) => listKcs(deps, await ctxOf(request), request.query),
  });
  declareRoute(app, 'kcs', {
    method: 'GET',
    url: `${CURRICULUM_V1}/kcs/:kcId`,
    summary: 'Read a KC with its current version; the ETag feeds If-Match',
    params: KcParams,
    handler: async (request, reply) => {
      const kc = await getKc(deps, await ctxOf(request), kcIdOf(request));
      return reply.header('etag', kc.etag).send(kc);
    },
  });
  declareRoute(app, 'kcs', {
    method: 'PATCH',
    url: `${CURRICULUM_V1}/kcs/:kcId`,
    summary: 'Publish the KC identity (never firms a version)',
    params: KcParams,
    body: PublishKcInput,
    handler: async (request, reply) => {
      const result = await publishKc(deps, await ctxOf(request), kcIdOf(request), request.body, {
        ifMatch: headerOf(request, 'if-match'),
        idempotencyKey: headerOf(request, 'idempotency-key'),
      });
      return sendCommandResult(reply, result, { etag: result.value.etag });
    },
  });
  declareRoute(app, 'kcs', {
    method: 'DELETE',
    url: `${CURRICULUM_V1}/kcs/:kcId`,
    summary: 'Soft-retire a KC; refused while any reference is active',
    params: KcParams,
    handler: async (request, reply) => {
      const result = await retireKc(deps, await ctxOf(request), kcIdOf(request), {
        ifMatch: headerOf(request, 'if-match'),
        idempotencyKey: headerOf(request, 'idempotency-key'),
      });
      return sendCommandResult(reply, result, { etag: result.value.etag });
    },
  });
  declareRoute(app, 'kcs', {
    method: 'GET',
    url: `${CURRICULUM_V1}/kcs/:kcId/versions`,
    summary: 'The KC versions in version-number order',
    params: KcParams,
    querystring: PageQuery,
    handler: async (request) => listKcVersions(deps, await ctxOf(request), kcIdOf(request), request.query),
  });
  declareRoute(app, 'kcs', {
    method: 'POST',
    url: `${CURRICULUM_V1}/kcs/:kcId/versions`,
    summary: 'Append an immutable draft version (semantic edit)',
    params: KcParams,
    body: AppendKcVersionInput,
    success: { status: 201, description: 'knowledge_component_version' },
    handler: async (request, reply) =>
      sendCommandResult(reply, await appendKcVersion(deps, await ctxOf(request), kcIdOf(request), request.body ?? {}, headerOf(request, 'idempotency-key'))),
  });
  declareRoute(app, 'kcs', {
    method: 'GET',
    url: `${CURRICULUM_V1}/kcs/:kcId/versions/:versionId`,
    summary: 'Read one exact KC version',
    params: KcVersionParams,
    handler: async (request) => {
      const params = request.params as { kcId: string; versionId: string };
      return getKcVersion(deps, await ctxOf(request), params.kcId, params.versionId);
    },
  });
}
