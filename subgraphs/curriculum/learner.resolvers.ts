import { loaderOf, requestContextOf, type GraphContext, type GraphQLResolverMap } from '../../platform/graphql.ts';
import { queryStringOf, snakeKeys } from '../../platform/naming.ts';
import type { Component, CurriculumDeps } from './components/components.service.ts';
import { approveCourse, listApprovals, loadCurrentApprovals, loadDescendants } from './approvals/approvals.service.ts';
import type { CourseApproval } from './approvals/course-state.ts';
import { nextLesson } from './routing/next-lesson.service.ts';
import { placementCandidates } from './placement/placement.service.ts';

/**
 * GraphQL adapters of the learner side (approvals, next lesson, placement), merged into the
 * curriculum resolver map. The authoring-UI query (a course's descendants with their pins, live
 * eligibility and the current approval) costs one statement per loader whatever the course size.
 */

type Args = Record<string, unknown>;
type ResolverMap = GraphQLResolverMap<GraphContext> & Record<string, Record<string, unknown>>;

export function learnerResolvers(deps: CurriculumDeps): ResolverMap {
  const approvalLoader = (context: GraphContext) =>
    loaderOf<CourseApproval>(context, 'curriculum.current-approval', async (ctx, courseIds) => {
      const found = await loadCurrentApprovals(deps, ctx, courseIds);
      return courseIds.map((id) => found.get(id) ?? null);
    });
  const descendantsLoader = (context: GraphContext) =>
    loaderOf<Component[]>(context, 'curriculum.descendants', async (ctx, rootIds) => {
      const found = await loadDescendants(deps, ctx, rootIds);
      return rootIds.map((id) => found.get(id) ?? []);
    });
  const ctxOf = requestContextOf;
  return {
    Query: {
      courseApprovals: (_root: unknown, { courseId, ...args }: Args, context: GraphContext) =>
        listApprovals(deps, ctxOf(context), { courseId: courseId as string, query: queryStringOf(args) }),
      nextLesson: (_root: unknown, { courseId, ...args }: Args, context: GraphContext) =>
        nextLesson(deps, ctxOf(context), { courseId: courseId as string, query: queryStringOf(args) }),
      placementCandidates: (_root: unknown, { trackId, ...args }: Args, context: GraphContext) =>
        placementCandidates(deps, ctxOf(context), { trackId: trackId as string, query: queryStringOf(args) }),
    },
    Mutation: {
      approveCourse: async (_root: unknown, args: { courseId: string; idempotencyKey: string; input: Args }, context: GraphContext) => {
        const { provenance, ...rest } = args.input;
        const body = { ...(snakeKeys(rest) as Args), provenance };
        return (await approveCourse(deps, ctxOf(context), { courseId: args.courseId, body, idempotencyKey: args.idempotencyKey })).value;
      },
    },
    Component: {
      descendants: (component: Component, _args: Args, context: GraphContext) => descendantsLoader(context).load(component.component_id),
      currentApproval: (component: Component, _args: Args, context: GraphContext) =>
        component.kind === 'course' && component.parent_component_id === null ? approvalLoader(context).load(component.component_id) : null,
      nextLesson: (component: Component, args: Args, context: GraphContext) =>
        nextLesson(deps, ctxOf(context), { courseId: component.component_id, query: queryStringOf(args) }),
    },
  };
}

/** The curriculum resolver map with the learner-side fields added to its Query, Mutation and Component types. */
export function withLearnerResolvers(base: GraphQLResolverMap<GraphContext>, deps: CurriculumDeps): GraphQLResolverMap<GraphContext> {
  const merged: Record<string, unknown> = { ...base };
  for (const [typeName, fields] of Object.entries(learnerResolvers(deps))) {
    merged[typeName] = { ...((base as Record<string, object>)[typeName] ?? {}), ...fields };
  }
  return merged as GraphQLResolverMap<GraphContext>;
}
