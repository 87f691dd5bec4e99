import { requestContextOf } from '../../../platform/graphql.ts';
import { queryStringOf, snakeKeys } from '../../../platform/naming.ts';
import { idAsStored } from '../../../platform/validation.ts';
import { getBlueprint } from '../blueprints/blueprint.service.ts';
import { listFacets } from '../catalog/catalog.service.ts';
import type { ContentDeps } from '../deps.ts';
import { listItems } from '../items/items.service.ts';
import { listTrustStatus } from '../records/records.service.ts';
import { readBankMembers } from '../references/bank-members.service.ts';
import type { QueryResolvers } from '../generated/graphql.ts';
import type { ContentLoaders } from './loaders.ts';

/** GraphQL booleans and numbers become the query strings the REST filter schema reads. */
const asQuery = (filter: unknown) => queryStringOf(snakeKeys(filter ?? {}) as Record<string, unknown>);

export function queryResolvers(deps: ContentDeps, { itemLoader, versionEntity }: ContentLoaders): QueryResolvers {
  return {
    contentItem: (_root, args, context) => itemLoader(context).load(idAsStored(args.contentId)),
    contentVersion: (_root, args, context) => versionEntity(context, idAsStored(args.versionId)),
    contentItems: (_root, args, context) =>
      listItems(deps, requestContextOf(context), {
        query: {
          ...asQuery(args.filter),
          ...(args.cursor ? { cursor: args.cursor } : {}),
          ...(args.limit !== undefined && args.limit !== null ? { limit: String(args.limit) } : {}),
        },
      }),
    testSpec: (_root, args, context) =>
      getBlueprint(deps, requestContextOf(context), { contentId: idAsStored(args.contentId) }),
    bankMembers: (_root, args, context) =>
      readBankMembers(deps, requestContextOf(context), {
        contentId: idAsStored(args.contentId),
        query: args.versionId ? { version_id: args.versionId } : {},
      }),
    catalogFacets: async (_root, _args, context) => (await listFacets(deps, requestContextOf(context))).data,
    trustStatuses: (_root, args, context) =>
      listTrustStatus(deps, requestContextOf(context), {
        query: queryStringOf(args, { trustStatus: 'trust_status' }),
      }),
  };
}
