import { JSONScalar } from '../../../platform/graphql.ts';
import type { ContentDeps } from '../deps.ts';
import type { Resolvers } from '../generated/graphql.ts';
import { contentItemResolvers } from './ContentItem.ts';
import { contentVersionResolvers } from './ContentVersion.ts';
import { contentLoaders } from './loaders.ts';
import { mutationResolvers } from './Mutation.ts';
import { queryResolvers } from './Query.ts';

/** Thin adapters: every rule is in the services; loaders batch entity reads per request. */
export function contentResolvers(deps: ContentDeps): Resolvers {
  const loaders = contentLoaders(deps);
  const { itemLoader, versionEntity } = loaders;
  return {
    JSON: JSONScalar,
    Query: queryResolvers(deps, loaders),
    Mutation: mutationResolvers(deps),
    ContentItem: contentItemResolvers(deps, loaders),
    ContentVersion: contentVersionResolvers(loaders),
    ContentKcTag: {
      knowledgeComponent: (tag) => ({ __typename: 'KnowledgeComponent', kcId: tag.kc_id }),
    },
    VersionTrustStatus: {
      version: (row, _args, context) => versionEntity(context, row.version_id),
    },
    TestBankMember: {
      form: (member, _args, context) => itemLoader(context).load(member.form_content_id),
    },
  };
}
