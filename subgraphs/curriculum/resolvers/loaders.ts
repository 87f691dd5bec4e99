import { listLoaderOf, loaderOf, type GraphContext } from '../../../platform/graphql.ts';
import { loadChildren, loadComponents } from '../components/components.service.ts';
import type { CurriculumDeps } from '../deps.ts';
import { loadKcs, type KnowledgeComponent } from '../kcs/kcs.service.ts';
import { loadRelationsOf } from '../kc-graph/kc-relations.service.ts';
import { loadStandardMapsOf } from '../standards/standards.service.ts';
import { loadCurrentApprovals, loadDescendants } from '../approvals/approvals.service.ts';
import type { CourseApproval } from '../approvals/course-state.ts';
import { type Component } from '../queries.ts';

/** Per-request loaders: entity reads batch by id, list fields by parent. */
export function curriculumLoaders(deps: CurriculumDeps) {
  const componentLoader = (context: GraphContext) =>
    loaderOf<Component>(context, 'curriculum.component', async (ctx, ids) => {
      const found = await loadComponents(deps, ctx, { componentIds: ids });
      return ids.map((id) => found.get(id) ?? null);
    });
  const childrenLoader = (context: GraphContext, includeRetired: boolean) =>
    listLoaderOf(context, `curriculum.children:${includeRetired}`, (ctx, parentIds) =>
      loadChildren(deps, ctx, { parentIds, includeRetired }),
    );
  const kcLoader = (context: GraphContext) =>
    loaderOf<KnowledgeComponent>(context, 'curriculum.kc', async (ctx, ids) => {
      const found = new Map((await loadKcs(deps, ctx, { kcIds: ids })).map((kc) => [kc.kc_id, kc]));
      return ids.map((id) => found.get(id) ?? null);
    });
  const relationsLoader = (context: GraphContext) =>
    listLoaderOf(context, 'curriculum.kc-relations', (ctx, kcIds) => loadRelationsOf(deps, ctx, { kcIds }));
  const standardMapsLoader = (context: GraphContext) =>
    listLoaderOf(context, 'curriculum.standard-maps', (ctx, kcIds) => loadStandardMapsOf(deps, ctx, { kcIds }));
  const approvalLoader = (context: GraphContext) =>
    loaderOf<CourseApproval>(context, 'curriculum.current-approval', async (ctx, courseIds) => {
      const found = await loadCurrentApprovals(deps, ctx, { courseIds });
      return courseIds.map((id) => found.get(id) ?? null);
    });
  const descendantsLoader = (context: GraphContext) =>
    listLoaderOf(context, 'curriculum.descendants', (ctx, rootIds) => loadDescendants(deps, ctx, { rootIds }));
  return {
    componentLoader,
    childrenLoader,
    kcLoader,
    relationsLoader,
    standardMapsLoader,
    approvalLoader,
    descendantsLoader,
  };
}

export type CurriculumLoaders = ReturnType<typeof curriculumLoaders>;
