import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { declareRoute } from '../../../platform/http.ts';
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
      rule: createKc,
    },
    list: { summary: 'List registry KCs', page: KcPageResponse, query: ListKcsQuery, rule: listKcs },
    read: { summary: 'Read a KC with its current version; the ETag feeds If-Match', rule: getKc },
    edit: {
      summary: 'Publish the KC identity (never firms a version)',
      errors: [409],
      body: PublishKcInput,
      rule: publishKc,
    },
    retire: { summary: 'Soft-retire a KC; refused while any reference is active', errors: [409], rule: retireKc },
  });
  declareRoute(app, 'kcs', {
    method: 'GET',
    url: `${CURRICULUM_V1}/kcs/:kcId/versions`,
    summary: 'The KC versions in version-number order',
    response: KcVersionPageResponse,
    params: KcParams,
    querystring: PageQuery,
    handler: resourceHandlers(deps).list(listKcVersions),
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
    handler: resourceHandlers(deps).command(appendKcVersion),
  });
  declareRoute(app, 'kcs', {
    method: 'GET',
    url: `${CURRICULUM_V1}/kcs/:kcId/versions/:versionId`,
    summary: 'Read one exact KC version',
    response: KcVersionResponse,
    params: KcVersionParams,
    handler: async (request) => getKcVersion(deps, request.ctx, request.params),
  });
}
