import type { PlatformRuntime } from '../../platform/service.ts';
import { loaderOf, requestContextOf, type GraphContext, type GraphQLResolverMap } from '../../platform/graphql.ts';
import { snakeKeys } from '../../platform/naming.ts';
import { loadVersionsWithEligibility, type VersionWithEligibility } from './eligibility/eligibility.service.ts';
import { createItem, loadItems, type ContentItem } from './items/items.service.ts';
import { appendVersion, loadVersions, type ContentVersion } from './versions/versions.service.ts';
import { recordQcDecision } from './trust/trust.service.ts';

/** Thin adapters: every rule is in the services; loaders batch entity reads per request. */
export function contentResolvers(runtime: PlatformRuntime): GraphQLResolverMap<GraphContext> {
  const { db } = runtime.database;

  const versionLoader = (context: GraphContext) =>
    loaderOf<VersionWithEligibility>(context, 'content.versionWithEligibility', async (ctx, ids) => {
      const found = await loadVersionsWithEligibility(db, ctx, ids);
      return ids.map((id) => found.get(id) ?? null);
    });
  const itemLoader = (context: GraphContext) =>
    loaderOf<ContentItem>(context, 'content.item', async (ctx, ids) => {
      const found = await loadItems(db, ctx, ids);
      return ids.map((id) => found.get(id) ?? null);
    });

  const versionBodyLoader = (context: GraphContext) =>
    loaderOf<ContentVersion>(context, 'content.versionBody', async (ctx, ids) => {
      const found = await loadVersions(db, ctx, ids);
      return ids.map((id) => found.get(id) ?? null);
    });
  /** Body fields come with the version when it was just written, otherwise from one batched read. */
  const bodyField =
    (field: 'student_view' | 'canonical_xml') =>
    async (version: Partial<ContentVersion> & { version_id: string }, _args: unknown, context: GraphContext) =>
      field in version ? version[field] : (await versionBodyLoader(context).load(version.version_id))?.[field];

  /** A version object carries its eligibility from the same batched statement. */
  const versionEntity = async (context: GraphContext, versionId: string) => {
    const found = await versionLoader(context).load(versionId);
    return found ? { ...found.version, release_eligibility: found.eligibility } : null;
  };

  return {
    Query: {
      contentItem: (_root, args: { contentId: string }, context) => itemLoader(context).load(args.contentId),
      contentVersion: (_root, args: { versionId: string }, context) => versionEntity(context, args.versionId),
    },
    Mutation: {
      createContentItem: async (_root, args: { idempotencyKey: string; input: unknown }, context) =>
        (await createItem(db, requestContextOf(context), snakeKeys(args.input), args.idempotencyKey)).value,
      appendContentVersion: async (_root, args: { contentId: string; input: unknown; idempotencyKey?: string }, context) =>
        (await appendVersion(db, requestContextOf(context), args.contentId, snakeKeys(args.input), args.idempotencyKey ?? undefined)).value,
      recordQcDecision: async (
        _root,
        args: { contentId: string; versionId: string; input: unknown; idempotencyKey?: string },
        context,
      ) => (await recordQcDecision(db, requestContextOf(context), args.contentId, args.versionId, snakeKeys(args.input), args.idempotencyKey ?? undefined)).value,
    },
    ContentItem: {
      __resolveReference: (reference: { contentId: string }, context: GraphContext) => itemLoader(context).load(reference.contentId),
      latestVersion: (item: ContentItem, _args, context) => (item.latest_version_id ? versionEntity(context, item.latest_version_id) : null),
    },
    ContentVersion: {
      __resolveReference: (reference: { versionId: string }, context: GraphContext) => versionEntity(context, reference.versionId),
      item: (version: ContentVersion, _args, context) => itemLoader(context).load(version.content_id),
      releaseEligibility: async (version: ContentVersion & { release_eligibility?: unknown }, _args, context) =>
        version.release_eligibility ?? (await versionLoader(context).load(version.version_id))?.eligibility,
      studentView: bodyField('student_view'),
      canonicalXml: bodyField('canonical_xml'),
    },
  };
}
