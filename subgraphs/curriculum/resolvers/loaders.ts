import { loaderOf, type GraphContext } from '../../../platform/graphql.ts';
import { loadChildren, loadComponents, type Component, type CurriculumDeps } from '../components/components.service.ts';
import { loadKcs, type KnowledgeComponent } from '../kcs/kcs.service.ts';
import { loadRelationsOf, type KcRelation } from '../kc-graph/kc-relations.service.ts';
import { loadStandardMapsOf, type StandardKcMap } from '../standards/standards.service.ts';

/** Per-request loaders: entity reads batch by id, list fields by parent. */
export function curriculumLoaders(deps: CurriculumDeps) {
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
  const kcLoader = (context: GraphContext) =>
    loaderOf<KnowledgeComponent>(context, 'curriculum.kc', async (ctx, ids) => {
      const found = new Map((await loadKcs(deps, ctx, ids)).map((kc) => [kc.kc_id, kc]));
      return ids.map((id) => found.get(id) ?? null);
    });
  const relationsLoader = (context: GraphContext) =>
    loaderOf<KcRelation[]>(context, 'curriculum.kc-relations', async (ctx, kcIds) => {
      const byKc = await loadRelationsOf(deps, ctx, kcIds);
      return kcIds.map((id) => byKc.get(id) ?? []);
    });
  const standardMapsLoader = (context: GraphContext) =>
    loaderOf<StandardKcMap[]>(context, 'curriculum.standard-maps', async (ctx, kcIds) => {
      const byKc = await loadStandardMapsOf(deps, ctx, kcIds);
      return kcIds.map((id) => byKc.get(id) ?? []);
    });
  return { componentLoader, childrenLoader, kcLoader, relationsLoader, standardMapsLoader };
}

export type CurriculumLoaders = ReturnType<typeof curriculumLoaders>;
