import { JSONScalar } from '../../../platform/graphql.ts';
import type { PlatformRuntime } from '../../../platform/service.ts';
import type { ContentDeps } from '../deps.ts';
import type { Resolvers } from '../generated/graphql.ts';
import { contentItemResolvers } from './ContentItem.ts';
import { contentVersionResolvers } from './ContentVersion.ts';
import { contentLoaders } from './loaders.ts';
import { mutationResolvers } from './Mutation.ts';
import { queryResolvers } from './Query.ts';

/** Thin adapters: every rule is in the services; loaders batch entity reads per request. */
export function contentResolvers(runtime: PlatformRuntime, deps: ContentDeps): Resolvers {
  const loaders = contentLoaders(runtime);
  const { itemLoader } = loaders;
  return {
    JSON: JSONScalar,
    Query: queryResolvers(runtime, deps, loaders),
    Mutation: mutationResolvers(runtime, deps),
    ContentItem: contentItemResolvers(deps, loaders),
    ContentVersion: contentVersionResolvers(loaders),
    ContentKcTag: {
      knowledgeComponent: (tag) => ({ __typename: 'KnowledgeComponent', kcId: tag.kc_id }),
    },
    TestBankMember: {
      form: (member, _args, context) => itemLoader(context).load(member.form_content_id),
    },
  };
}
