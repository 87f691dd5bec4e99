import { nullWhenNotFound, requestContextOf } from '../../../platform/graphql.ts';
import { listComponents } from '../components/components.service.ts';
import type { CurriculumDeps } from '../deps.ts';
import { readRendererRegistry } from '../repoint/repoint.service.ts';
import { getAssociation, listAssociations } from '../associations/associations.service.ts';
import { listKcVersions, listKcs } from '../kcs/kcs.service.ts';
import {
  getPrerequisite,
  listFirmingEvents,
  listPrerequisites,
  listReviewDecisions,
} from '../kc-graph/kc-graph.service.ts';
import { getRelation, listRelations } from '../kc-graph/kc-relations.service.ts';
import { getFramework, listFrameworks, listStandardKcMaps } from '../standards/standards.service.ts';
import { readGateContract, readGateNextForm, readGateRemediation, readGateStatus } from '../gates/gates.service.ts';
import { getIngestJob } from '../ingest/ingest.service.ts';
import { queryStringOf } from '../../../platform/naming.ts';
import { idAsStored } from '../../../platform/validation.ts';
import { listApprovals } from '../approvals/approvals.service.ts';
import { nextLesson } from '../routing/next-lesson.service.ts';
import { placementCandidates } from '../placement/placement.service.ts';
import type { QueryResolvers } from '../generated/graphql.ts';
import { KC_QUERY_NAMES, KC_VERSION_QUERY_NAMES, queryOf } from './inputs.ts';
import type { CurriculumLoaders } from './loaders.ts';

const ctxOf = requestContextOf;

export function queryResolvers(deps: CurriculumDeps, { componentLoader, kcLoader }: CurriculumLoaders): QueryResolvers {
  return {
    component: (_root, args, context) => componentLoader(context).load(args.componentId),
    components: (_root, args, context) => listComponents(deps, ctxOf(context), { query: queryOf(args) }),
    kc: (_root, args, context) => kcLoader(context).load(idAsStored(args.kcId)),
    kcs: (_root, args, context) => listKcs(deps, ctxOf(context), { query: queryOf(args, KC_QUERY_NAMES) }),
    kcVersions: (_root, { kcId, ...args }, context) =>
      listKcVersions(deps, ctxOf(context), { kcId, query: queryOf(args) }),
    kcPrerequisites: (_root, args, context) => listPrerequisites(deps, ctxOf(context), { query: queryOf(args) }),
    kcPrerequisite: (_root, args, context) =>
      nullWhenNotFound(getPrerequisite(deps, ctxOf(context), { id: args.prerequisiteId })),
    kcRelations: (_root, args, context) => listRelations(deps, ctxOf(context), { query: queryOf(args) }),
    kcRelation: (_root, args, context) => nullWhenNotFound(getRelation(deps, ctxOf(context), { id: args.relationId })),
    kcReviewDecisions: (_root, args, context) =>
      listReviewDecisions(deps, ctxOf(context), { query: queryOf(args, KC_VERSION_QUERY_NAMES) }),
    kcFirmingEvents: (_root, args, context) =>
      listFirmingEvents(deps, ctxOf(context), { query: queryOf(args, KC_VERSION_QUERY_NAMES) }),
    standardsFrameworks: (_root, args, context) => listFrameworks(deps, ctxOf(context), { query: queryOf(args) }),
    standardsFramework: (_root, args, context) => nullWhenNotFound(getFramework(deps, ctxOf(context), args)),
    standardKcMaps: (_root, args, context) =>
      listStandardKcMaps(deps, ctxOf(context), {
        query: queryOf(args, { sourceReleaseId: 'source_release_id', standardId: 'standard_id', kcId: 'kc_id' }),
      }),
    association: (_root, args, context) => nullWhenNotFound(getAssociation(deps, ctxOf(context), args)),
    associations: (_root, args, context) => listAssociations(deps, ctxOf(context), { query: queryOf(args) }),
    rendererRegistry: (_root, args, context) => [
      ...readRendererRegistry(deps, ctxOf(context), {
        query: queryOf(args, { rendererRef: 'renderer_ref', rendererKind: 'renderer_kind' }),
      }).data,
    ],
    gate: (_root, args, context) => nullWhenNotFound(readGateContract(deps, ctxOf(context), args)),
    gateStatus: (_root, args, context) => readGateStatus(deps, ctxOf(context), queryOf(args)),
    gateNextForm: (_root, args, context) => readGateNextForm(deps, ctxOf(context), queryOf(args)),
    gateRemediation: (_root, args, context) => readGateRemediation(deps, ctxOf(context), queryOf(args)),
    sourceIngestJob: (_root, args, context) => nullWhenNotFound(getIngestJob(deps, ctxOf(context), args)),
    courseApprovals: (_root, { courseId, ...args }, context) =>
      listApprovals(deps, ctxOf(context), { courseId, query: queryStringOf(args) }),
    nextLesson: (_root, { courseId, ...args }, context) =>
      nextLesson(deps, ctxOf(context), { courseId, query: queryStringOf(args) }),
    placementCandidates: (_root, { trackId, ...args }, context) =>
      placementCandidates(deps, ctxOf(context), { trackId, query: queryStringOf(args) }),
  };
}
