import type { FastifyInstance } from 'fastify';
import type { ContentDeps } from '../deps.ts';
import { declareRoute } from '../../../platform/http.ts';
import { ACCESS } from '../access.ts';
import { ItemParams, itemCommandHandler, TENANT_ROOT, VersionParams } from '../http.ts';
import { AppendVersionInput, ListVersionsQuery, appendVersion, getVersion, listVersions } from './versions.service.ts';
import { VersionPageResponse, VersionResponse } from './versions.responses.ts';

export function versionRoutes(app: FastifyInstance, deps: ContentDeps): void {
  declareRoute(app, 'versions', {
    method: 'POST',
    url: `${TENANT_ROOT}/items/:contentId/versions`,
    access: ACCESS.author,
    summary: 'Append an immutable exact version (student_view.blocks or canonical_xml)',
    response: VersionResponse,
    idempotencyKey: 'optional',
    errors: [409, 422],
    params: ItemParams,
    body: AppendVersionInput,
    success: { status: 201, description: 'content_version' },
    handler: itemCommandHandler(deps, appendVersion),
  });
  declareRoute(app, 'versions', {
    method: 'GET',
    url: `${TENANT_ROOT}/items/:contentId/versions`,
    access: ACCESS.read,
    summary: 'List exact versions in version_number order',
    response: VersionPageResponse,
    params: ItemParams,
    querystring: ListVersionsQuery,
    handler: async ({ ctx, params, query }) => listVersions(deps, ctx, { contentId: params.contentId, query }),
  });
  declareRoute(app, 'versions', {
    method: 'GET',
    url: `${TENANT_ROOT}/items/:contentId/versions/:versionId`,
    access: ACCESS.read,
    summary: 'Read one exact version',
    response: VersionResponse,
    params: VersionParams,
    handler: async ({ ctx, params: { contentId, versionId } }) => getVersion(deps, ctx, { contentId, versionId }),
  });
}
