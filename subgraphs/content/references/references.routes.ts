import type { FastifyInstance } from 'fastify';
import type { ContentDeps } from '../deps.ts';
import { z } from 'zod';
import { declareRoute } from '../../../platform/http.ts';
import { ACCESS } from '../access.ts';
import { ItemParams, itemCommandHandler, TENANT_ROOT } from '../http.ts';
import { VersionQuery } from '../questions/questions.service.ts';
import {
  ReferenceInput,
  ReferencesQuery,
  createReference,
  listReferences,
  retireReference,
} from './references.service.ts';
import { readBankMembers } from './bank-members.service.ts';
import { BankMembersResponse, ReferencePageResponse, ReferenceResponse } from './references.responses.ts';

export function referenceRoutes(app: FastifyInstance, deps: ContentDeps): void {
  declareRoute(app, 'references', {
    method: 'GET',
    url: `${TENANT_ROOT}/items/:contentId/references`,
    access: ACCESS.read,
    summary: 'References of an item, active and retired (the audit)',
    response: ReferencePageResponse,
    params: ItemParams,
    querystring: ReferencesQuery,
    handler: async (request) => listReferences(deps, request.ctx, { ...request.params, query: request.query }),
  });
  declareRoute(app, 'references', {
    method: 'POST',
    url: `${TENANT_ROOT}/items/:contentId/references`,
    access: ACCESS.author,
    summary: 'Create a typed reference; bank_member rows follow the test bank member contract',
    response: ReferenceResponse,
    idempotencyKey: 'optional',
    errors: [409, 422, 503],
    params: ItemParams,
    body: ReferenceInput,
    success: { status: 201, description: 'content_reference' },
    handler: itemCommandHandler(deps, createReference),
  });
  declareRoute(app, 'references', {
    method: 'DELETE',
    url: `${TENANT_ROOT}/items/:contentId/references/:referenceId`,
    access: ACCESS.author,
    summary: 'Soft-retire a reference; the row stays as the audit',
    response: ReferenceResponse,
    errors: [409],
    params: ItemParams.extend({ referenceId: z.string() }),
    handler: async (request) => {
      const { ctx } = request;
      return retireReference(deps, ctx, request.params);
    },
  });
  declareRoute(app, 'bank-members', {
    method: 'GET',
    url: `${TENANT_ROOT}/items/:contentId/bank-members`,
    access: ACCESS.read,
    summary: 'bank_member rows of an exact bank version in graph order and multiplicity, with readiness counts',
    response: BankMembersResponse,
    errors: [409, 503],
    params: ItemParams,
    querystring: VersionQuery,
    handler: async (request) => readBankMembers(deps, request.ctx, { ...request.params, query: request.query }),
  });
}
