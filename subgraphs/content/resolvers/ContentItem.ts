import { nullWhenNotFound, requestContextOf } from '../../../platform/graphql.ts';
import type { ContentDeps } from '../deps.ts';
import { getBlueprint } from '../blueprints/blueprint.service.ts';
import { readStudentView } from '../questions/questions.service.ts';
import { readTrust } from '../trust/trust.service.ts';
import { readEffectiveness } from '../records/records.service.ts';
import { listVersions } from '../versions/versions.service.ts';
import type { ContentItemResolvers } from '../generated/graphql.ts';
import type { ContentLoaders } from './loaders.ts';

/** The records the item's computed fields answer with (mappers of ContentStudentView and ContentTrust). */
export type StudentViewAnswer = Awaited<ReturnType<typeof readStudentView>>;
export type TrustAnswer = Awaited<ReturnType<typeof readTrust>>;
export type EffectivenessAnswer = Awaited<ReturnType<typeof readEffectiveness>>;

/** Versions just listed are read again with their eligibility; none can be missing but the types allow it. */
const present = <T>(versions: Array<T | null>): T[] => versions.filter((version): version is T => version !== null);

export function contentItemResolvers(
  deps: ContentDeps,
  { itemLoader, kcTagLoader, facetLoader, versionEntity }: ContentLoaders,
): ContentItemResolvers {
  const { db } = deps;
  return {
    __resolveReference: (reference, context) => itemLoader(context).load(reference.contentId),
    latestVersion: (item, _args, context) =>
      item.latest_version_id ? versionEntity(context, item.latest_version_id) : null,
    kcTags: (item, _args, context) => kcTagLoader(context).load(item.content_id),
    versions: async (item, args, context) => {
      const page = await listVersions(db, deps.cursors, requestContextOf(context), item.content_id, {
        ...(args.limit !== undefined && args.limit !== null ? { limit: String(args.limit) } : {}),
        ...(args.cursor ? { cursor: args.cursor } : {}),
      });
      const entities = await Promise.all(page.data.map((version) => versionEntity(context, version.version_id)));
      return { data: present(entities), next_cursor: page.next_cursor };
    },
    studentView: (item, args, context) =>
      readStudentView(db, requestContextOf(context), item.content_id, {
        ...(args.versionId ? { version_id: args.versionId } : {}),
        ...(args.includeAnswerKeys !== undefined && args.includeAnswerKeys !== null
          ? { includeAnswerKeys: String(args.includeAnswerKeys) }
          : {}),
      }),
    trust: (item, args, context) =>
      readTrust(db, requestContextOf(context), item.content_id, args.versionId ? { version_id: args.versionId } : {}),
    effectiveness: (item, args, context) =>
      readEffectiveness(deps, requestContextOf(context), {
        contentId: item.content_id,
        query: args.versionId ? { version_id: args.versionId } : {},
      }),
    facets: (item, _args, context) => facetLoader(context).load(item.content_id),
    blueprint: (item, _args, context) =>
      item.content_kind === 'test_spec'
        ? nullWhenNotFound(getBlueprint(db, requestContextOf(context), item.content_id))
        : null,
  };
}
