import { requestContextOf } from '../../../platform/graphql.ts';
import type { CurriculumDeps } from '../deps.ts';
import { listKcVersions } from '../kcs/kcs.service.ts';
import type {
  InstructionalClassificationResolvers,
  KcPrerequisiteResolvers,
  KcRelationResolvers,
  KnowledgeComponentResolvers,
  StandardKcMapResolvers,
} from '../generated/graphql.ts';
import { queryOf } from './inputs.ts';
import type { CurriculumLoaders } from './loaders.ts';

const ctxOf = requestContextOf;

export function knowledgeComponentResolvers(
  deps: CurriculumDeps,
  { kcLoader, relationsLoader, standardMapsLoader }: CurriculumLoaders,
): KnowledgeComponentResolvers {
  return {
    __resolveReference: (reference, context) => kcLoader(context).load(reference.kcId),
    versions: (kc, args, context) => listKcVersions(deps, ctxOf(context), { kcId: kc.kc_id, query: queryOf(args) }),
    relations: (kc, _args, context) => relationsLoader(context).load(kc.kc_id),
    standardMaps: (kc, _args, context) => standardMapsLoader(context).load(kc.kc_id),
  };
}

/** The KC graph's edges and maps resolve their ends through the one KC loader. */
export function kcEdgeResolvers({ kcLoader }: CurriculumLoaders): {
  StandardKcMap: StandardKcMapResolvers;
  KcRelation: KcRelationResolvers;
  KcPrerequisite: KcPrerequisiteResolvers;
} {
  return {
    StandardKcMap: {
      kc: (map, _args, context) => kcLoader(context).load(map.kc_id),
    },
    KcRelation: {
      from: (relation, _args, context) => kcLoader(context).load(relation.from_kc_id),
      to: (relation, _args, context) => kcLoader(context).load(relation.to_kc_id),
    },
    KcPrerequisite: {
      prerequisite: (edge, _args, context) => kcLoader(context).load(edge.prerequisite_kc_id),
      dependent: (edge, _args, context) => kcLoader(context).load(edge.dependent_kc_id),
    },
  };
}

/** The classification is stored as REST takes it, one object: what is not knowledgeType is otherFields. */
export const instructionalClassificationResolvers: InstructionalClassificationResolvers = {
  otherFields: (classification) => {
    const { knowledgeType: _knowledgeType, ...others } = classification as Record<string, unknown>;
    return Object.keys(others).length > 0 ? others : null;
  },
};
