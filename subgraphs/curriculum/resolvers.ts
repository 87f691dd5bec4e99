import { loaderOf, requestContextOf, type GraphContext, type GraphQLResolverMap } from '../../platform/graphql.ts';
import { snakeKeys } from '../../platform/naming.ts';
import type { TargetRef } from './content-client.ts';
import {
  createComponent,
  listComponents,
  loadChildren,
  loadComponents,
  type Component,
  type CurriculumDeps,
} from './components/components.service.ts';

/** Thin adapters over the component functions; loaders batch by id and by parent. */
export function curriculumResolvers(deps: CurriculumDeps): GraphQLResolverMap<GraphContext> {
  const componentLoader = (context: GraphContext) =>
    loaderOf<Component>(context, 'curriculum.component', async (ctx, ids) => {
      const found = new Map((await loadComponents(deps, ctx, ids)).map((component) => [component.component_id, component]));
      return ids.map((id) => found.get(id) ?? null);
    });
  const childrenLoader = (context: GraphContext, includeRetired: boolean) =>
    loaderOf<Component[]>(context, `curriculum.children:${includeRetired}`, async (ctx, parentIds) => {
      const byParent = await loadChildren(deps, ctx, parentIds, includeRetired);
      return parentIds.map((id) => byParent.get(id) ?? []);
    });

  return {
    Query: {
      component: (_root, args: { componentId: string }, context) => componentLoader(context).load(args.componentId),
      components: (_root, args: Record<string, unknown>, context) =>
        listComponents(deps, requestContextOf(context), stringifyQuery(args)),
    },
    Mutation: {
      createComponent: async (_root, args: { input: unknown }, context) =>
        (await createComponent(deps, requestContextOf(context), snakeKeys(args.input))).value,
    },
    Component: {
      __resolveReference: (reference: { componentId: string }, context: GraphContext) => componentLoader(context).load(reference.componentId),
      parent: (component: Component, _args, context) =>
        component.parent_component_id ? componentLoader(context).load(component.parent_component_id) : null,
      children: async (component: Component, args: { includeRetired: boolean }, context) =>
        (await childrenLoader(context, args.includeRetired).load(component.component_id)) ?? [],
    },
    TargetRef: {
      version: (ref: TargetRef) => ({ __typename: 'ContentVersion', versionId: ref.content_version_id }),
    },
  };
}

/** GraphQL list arguments become the REST query string the service parses. */
function stringifyQuery(args: Record<string, unknown>): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [key, value] of Object.entries(args)) {
    if (value === undefined || value === null) continue;
    query[key === 'updatedSince' ? 'updated_since' : key] = String(value);
  }
  return query;
}
