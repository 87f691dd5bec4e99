import { requestContextOf } from '../../../platform/graphql.ts';
import { queryStringOf, snakeKeys } from '../../../platform/naming.ts';
import type { PlatformRuntime } from '../../../platform/service.ts';
import { getBlueprint } from '../blueprints/blueprint.service.ts';
import { listFacets } from '../catalog/catalog.service.ts';
import type { ContentDeps } from '../deps.ts';
import { listItems } from '../items/items.service.ts';
import { readBankMembers } from '../references/bank-members.service.ts';
import type { QueryResolvers } from '../generated/graphql.ts';
import type { ContentLoaders } from './loaders.ts';

/** GraphQL booleans and numbers become the query strings the REST filter schema reads. */
const asQuery = (filter: unknown) => queryStringOf(snakeKeys(filter ?? {}) as Record<string, unknown>);

export function queryResolvers(
  runtime: PlatformRuntime,
  deps: ContentDeps,
  { itemLoader, versionEntity }: ContentLoaders,
): QueryResolvers {
  const { db } = runtime.database;
  return {
    contentItem: (_root, args, context) => itemLoader(context).load(args.contentId),
    contentVersion: (_root, args, context) => versionEntity(context, args.versionId),
    contentItems: (_root, args, context) =>
      listItems(deps, requestContextOf(context), {
        ...asQuery(args.filter),
        ...(args.cursor ? { cursor: args.cursor } : {}),
        ...(args.limit !== undefined && args.limit !== null ? { limit: String(args.limit) } : {}),
      }),
    testSpec: (_root, args, context) => getBlueprint(db, requestContextOf(context), args.contentId),
    bankMembers: (_root, args, context) =>
      readBankMembers(
        deps,
        requestContextOf(context),
        args.contentId,
        args.versionId ? { version_id: args.versionId } : {},
      ),
    catalogFacets: async (_root, _args, context) => (await listFacets(db, requestContextOf(context))).data,
  };
}
