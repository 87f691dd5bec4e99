import { nullWhenNotFound, requestContextOf } from '../../../platform/graphql.ts';
import type { ContentDeps } from '../deps.ts';
import { getBlueprint } from '../blueprints/blueprint.service.ts';
import { readStudentView } from '../questions/questions.service.ts';
import { readTrust } from '../trust/trust.service.ts';
import { getExternalLink, readEffectiveness } from '../records/records.service.ts';
import { listAssessmentComponents, listScoringPlan } from '../questions/questions.service.ts';
import { listReferences } from '../references/references.service.ts';
import { listMedia } from '../media/media.service.ts';
import { getComposition } from '../composition/composition.service.ts';
import { queryStringOf } from '../../../platform/naming.ts';
import { listVersions } from '../versions/versions.service.ts';
import type { ContentItemResolvers } from '../generated/graphql.ts';
import type { ContentLoaders } from './loaders.ts';

/** The records the item's computed fields answer with (mappers of ContentStudentView and ContentTrust). */
export type StudentViewAnswer = Awaited<ReturnType<typeof readStudentView>>;
export type TrustAnswer = Awaited<ReturnType<typeof readTrust>>;
export type EffectivenessAnswer = Awaited<ReturnType<typeof readEffectiveness>>;
export type AssessmentComponentAnswer = Awaited<ReturnType<typeof listAssessmentComponents>>['data'][number];
export type ScoringPlanRuleAnswer = Awaited<ReturnType<typeof listScoringPlan>>['data'][number];

/** Versions just listed are read again with their eligibility; none can be missing but the types allow it. */
const present = <T>(versions: Array<T | null>): T[] => versions.filter((version): version is T => version !== null);

export function contentItemResolvers(
  deps: ContentDeps,
  { itemLoader, kcTagLoader, facetLoader, versionEntity }: ContentLoaders,
): ContentItemResolvers {
  return {
    __resolveReference: (reference, context) => itemLoader(context).load(reference.contentId),
    latestVersion: (item, _args, context) =>
      item.latest_version_id ? versionEntity(context, item.latest_version_id) : null,
    kcTags: (item, _args, context) => kcTagLoader(context).load(item.content_id),
    versions: async (item, args, context) => {
      const page = await listVersions(deps, requestContextOf(context), {
        contentId: item.content_id,
        query: {
          ...(args.limit !== undefined && args.limit !== null ? { limit: String(args.limit) } : {}),
          ...(args.cursor ? { cursor: args.cursor } : {}),
        },
      });
      const entities = await Promise.all(page.data.map((version) => versionEntity(context, version.version_id)));
      return { data: present(entities), next_cursor: page.next_cursor };
    },
    studentView: (item, args, context) =>
      readStudentView(deps, requestContextOf(context), {
        contentId: item.content_id,
        query: {
          ...(args.versionId ? { version_id: args.versionId } : {}),
          ...(args.includeAnswerKeys !== undefined && args.includeAnswerKeys !== null
            ? { includeAnswerKeys: String(args.includeAnswerKeys) }
            : {}),
        },
      }),
    trust: (item, args, context) =>
      readTrust(deps, requestContextOf(context), {
        contentId: item.content_id,
        query: args.versionId ? { version_id: args.versionId } : {},
      }),
    effectiveness: (item, args, context) =>
      readEffectiveness(deps, requestContextOf(context), {
        contentId: item.content_id,
        query: args.versionId ? { version_id: args.versionId } : {},
      }),
    references: async (item, args, context) =>
      (
        await listReferences(deps, requestContextOf(context), {
          contentId: item.content_id,
          query: queryStringOf(args, { relationshipKind: 'relationship_kind' }),
        })
      ).data,
    media: async (item, _args, context) =>
      (await listMedia(deps, requestContextOf(context), { contentId: item.content_id })).data,
    externalLink: (item, _args, context) =>
      nullWhenNotFound(getExternalLink(deps, requestContextOf(context), { contentId: item.content_id })),
    interactiveComposition: (item, _args, context) =>
      nullWhenNotFound(getComposition(deps, requestContextOf(context), { contentId: item.content_id })),
    assessmentComponents: async (item, args, context) =>
      (
        await listAssessmentComponents(deps, requestContextOf(context), {
          contentId: item.content_id,
          query: queryStringOf(args, { versionId: 'version_id', componentRole: 'component_role' }),
        })
      ).data,
    scoringPlan: async (item, args, context) =>
      (
        await listScoringPlan(deps, requestContextOf(context), {
          contentId: item.content_id,
          query: queryStringOf(args, { versionId: 'version_id' }),
        })
      ).data,
    facets: (item, _args, context) => facetLoader(context).load(item.content_id),
    blueprint: (item, _args, context) =>
      item.content_kind === 'test_spec'
        ? nullWhenNotFound(getBlueprint(deps, requestContextOf(context), { contentId: item.content_id }))
        : null,
  };
}
