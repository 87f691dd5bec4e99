import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { declareRoute, writeHeaders, headerOf, sendCommandResult } from '../../../platform/http.ts';
import { CURRICULUM_V1 } from '../paths.ts';
import { AppendKcVersionInput, CreateKcInput, ListKcsQuery, PageQuery, PublishKcInput } from './kcs.schema.ts';
import {
  appendKcVersion,
  createKc,
  getKc,
  getKcVersion,
  listKcVersions,
  listKcs,
  publishKc,
  retireKc,
} from './kcs.service.ts';
import type { CurriculumDeps } from '../deps.ts';
import { KcPageResponse, KcResponse, KcVersionPageResponse, KcVersionResponse } from './kcs.responses.ts';

const KcParams = z.object({ kcId: z.string().min(1) });
const KcVersionParams = z.object({ kcId: z.string().min(1), versionId: z.string().min(1) });

export function kcRoutes(app: FastifyInstance, deps: CurriculumDeps): void {
  declareRoute(app, 'kcs', {
    method: 'POST',
    url: `${CURRICULUM_V1}/kcs`,
    summary:
      'Create a registry KC (stored_as alpha.knowledge_component, with a definition); a retry by Idempotency-Key or exact kc_id creates nothing new',
    response: KcResponse,
    etag: true,
    idempotencyKey: 'optional',
    errors: [409, 422],
    body: CreateKcInput,
    success: { status: 201, description: 'knowledge_component (200 for a retry)' },
    handler: async (request, reply) => {
      const result = await createKc(deps, request.ctx, {
        body: request.body,
        idempotencyKey: headerOf(request, 'idempotency-key'),
      });
      return sendCommandResult(reply, result, { etag: result.value.etag });
    },
  });
  declareRoute(app, 'kcs', {
    method: 'GET',
    url: `${CURRICULUM_V1}/kcs`,
    summary: 'List registry KCs',
    response: KcPageResponse,
    querystring: ListKcsQuery,
    handler: async (request) => listKcs(deps, request.ctx, { query: request.query }),
  });
  declareRoute(app, 'kcs', {
    method: 'GET',
    url: `${CURRICULUM_V1}/kcs/:kcId`,
    summary: 'Read a KC with its current version; the ETag feeds If-Match',
    response: KcResponse,
    etag: true,
    params: KcParams,
    handler: async (request, reply) => {
      const kc = await getKc(deps, request.ctx, request.params);
      return reply.header('etag', kc.etag).send(kc);
    },
  });
  declareRoute(app, 'kcs', {
    method: 'PATCH',
    url: `${CURRICULUM_V1}/kcs/:kcId`,
    summary: 'Publish the KC identity (never firms a version)',
    response: KcResponse,
    etag: true,
    idempotencyKey: 'required',
    precondition: { header: 'if-match', required: true },
    errors: [409],
    params: KcParams,
    body: PublishKcInput,
    handler: async (request, reply) => {
      const result = await publishKc(deps, request.ctx, {
        ...request.params,
        body: request.body,
        ...writeHeaders(request, 'if-match'),
      });
      return sendCommandResult(reply, result, { etag: result.value.etag });
    },
  });
  declareRoute(app, 'kcs', {
    method: 'DELETE',
    url: `${CURRICULUM_V1}/kcs/:kcId`,
    summary: 'Soft-retire a KC; refused while any reference is active',
    response: KcResponse,
    etag: true,
    idempotencyKey: 'required',
    precondition: { header: 'if-match', required: true },
    errors: [409],
    params: KcParams,
    handler: async (request, reply) => {
      const result = await retireKc(deps, request.ctx, {
        ...request.params,
        ...writeHeaders(request, 'if-match'),
      });
      return sendCommandResult(reply, result, { etag: result.value.etag });
    },
  });
  declareRoute(app, 'kcs', {
    method: 'GET',
    url: `${CURRICULUM_V1}/kcs/:kcId/versions`,
    summary: 'The KC versions in version-number order',
    response: KcVersionPageResponse,
    params: KcParams,
    querystring: PageQuery,
    handler: async (request) => listKcVersions(deps, request.ctx, { ...request.params, query: request.query }),
  });
  declareRoute(app, 'kcs', {
    method: 'POST',
    url: `${CURRICULUM_V1}/kcs/:kcId/versions`,
    summary: 'Append an immutable draft version (semantic edit)',
    response: KcVersionResponse,
    idempotencyKey: 'required',
    errors: [409],
    params: KcParams,
    body: AppendKcVersionInput,
    success: { status: 201, description: 'knowledge_component_version' },
    handler: async (request, reply) =>
      sendCommandResult(
        reply,
        await appendKcVersion(deps, request.ctx, {
          ...request.params,
          body: request.body ?? {},
          idempotencyKey: headerOf(request, 'idempotency-key'),
        }),
      ),
  });
  declareRoute(app, 'kcs', {
    method: 'GET',
    url: `${CURRICULUM_V1}/kcs/:kcId/versions/:versionId`,
    summary: 'Read one exact KC version',
    response: KcVersionResponse,
    params: KcVersionParams,
    handler: async (request) => {
      const params = request.params;
      return getKcVersion(deps, request.ctx, params);
    },
  });
}
