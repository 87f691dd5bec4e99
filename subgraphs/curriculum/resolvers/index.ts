import { JSONObjectScalar } from '../../../platform/graphql.ts';
import type { CurriculumDeps } from '../deps.ts';
import type { Resolvers } from '../generated/graphql.ts';
import {
  componentAlphaResolvers,
  componentResolvers,
  remediationEntryResolvers,
  targetRefResolvers,
} from './Component.ts';
import {
  instructionalClassificationResolvers,
  kcEdgeResolvers,
  knowledgeComponentResolvers,
} from './KnowledgeComponent.ts';
import { curriculumLoaders } from './loaders.ts';
import { mutationResolvers } from './Mutation.ts';
import { queryResolvers } from './Query.ts';

/**
 * Thin adapters over the curriculum service functions: inputs become the REST body shape, results
 * are the REST records read through the snake_case resolver. Loaders batch by id and by parent.
 */
export function curriculumResolvers(deps: CurriculumDeps): Resolvers {
  const loaders = curriculumLoaders(deps);
  return {
    JSONObject: JSONObjectScalar,
    Query: queryResolvers(deps, loaders),
    Mutation: mutationResolvers(deps),
    Component: componentResolvers(deps, loaders),
    ComponentAlpha: componentAlphaResolvers(loaders),
    TargetRef: targetRefResolvers,
    RemediationEntry: remediationEntryResolvers,
    KnowledgeComponent: knowledgeComponentResolvers(deps, loaders),
    InstructionalClassification: instructionalClassificationResolvers,
    ...kcEdgeResolvers(loaders),
  };
}
