import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { declareRoute } from '../../../platform/http.ts';
import { ACCESS } from '../access.ts';
import { CURRICULUM_V1 } from '../paths.ts';
import { declareResourceRoutes, resourceHandlers } from '../route-handlers.ts';
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
  declareResourceRoutes(app, deps, {
    tag: 'kcs',
    path: 'kcs',
    params: KcParams,
    response: KcResponse,
    precondition: 'if-match',
    create: {
      summary:
        'Create a registry KC (stored_as alpha.knowledge_component, with a definition); a retry by Idempotency-Key or exact kc_id creates nothing new',
      errors: [409, 422],
      body: CreateKcInput,
      success: 'knowledge_component (200 for a retry)',
      access: ACCESS.write,
      rule: createKc,
    },
    list: {
      summary: 'List registry KCs',
      page: KcPageResponse,
      query: ListKcsQuery,
      access: ACCESS.read,
      rule: listKcs,
    },
    read: { summary: 'Read a KC with its current version; the ETag feeds If-Match', access: ACCESS.read, rule: getKc },
    edit: {
      summary: 'Publish the KC identity (never firms a version)',
      errors: [409],
      body: PublishKcInput,
      access: ACCESS.write,
      rule: publishKc,
    },
    retire: {
      summary: 'Soft-retire a KC; refused while any reference is active',
      errors: [409],
      access: ACCESS.write,
      rule: retireKc,
    },
  });
  declareRoute(app, 'kcs', {
    method: 'GET',
    url: `${CURRICULUM_V1}/kcs/:kcId/versions`,
    access: ACCESS.read,
    summary: 'The KC versions in version-number order',
    response: KcVersionPageResponse,
    params: KcParams,
    querystring: PageQuery,
    handler: resourceHandlers(deps).list(listKcVersions),
  });
  declareRoute(app, 'kcs', {
    method: 'POST',
    url: `${CURRICULUM_V1}/kcs/:kcId/versions`,
    access: ACCESS.write,
    summary: 'Append an immutable draft version (semantic edit)',
    response: KcVersionResponse,
    idempotencyKey: 'required',
    errors: [409],
    params: KcParams,
    body: AppendKcVersionInput,
    success: { status: 201, description: 'knowledge_component_version' },
    handler: resourceHandlers(deps).command(appendKcVersion),
  });
  declareRoute(app, 'kcs', {
    method: 'GET',
    url: `${CURRICULUM_V1}/kcs/:kcId/versions/:versionId`,
    access: ACCESS.read,
    summary: 'Read one exact KC version',
    response: KcVersionResponse,
    params: KcVersionParams,
    handler: async (request) => getKcVersion(deps, request.ctx, request.params),
  });
}
