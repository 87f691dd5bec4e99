import type { PlatformRuntime } from '../../platform/service.ts';
import { loaderOf, nullWhenNotFound, requestContextOf, type GraphContext, type GraphQLResolverMap } from '../../platform/graphql.ts';
import { queryStringOf, snakeKeys } from '../../platform/naming.ts';
import { loadVersionsWithEligibility, type VersionWithEligibility } from './eligibility/eligibility.service.ts';
import { createItem, loadItems, type ContentItem } from './items/items.service.ts';
import { appendVersion, listVersions, loadVersions, type ContentVersion } from './versions/versions.service.ts';
import { readStudentView } from './questions/questions.service.ts';
import { readTrust, recordQcDecision } from './trust/trust.service.ts';
import { JSONResolver } from 'graphql-scalars';
import { listItems, patchItem } from './items/items.service.ts';
import { getBlueprint } from './blueprints/blueprint.service.ts';
import { activeKcTagsOf, tagKc, type ContentKcTag } from './kc-tags/kc-tags.service.ts';
import { publishVersion } from './publish/publish.service.ts';
import { assignFacet, assignmentsOf, defineFacet, listFacets, type FacetAssignment } from './catalog/catalog.service.ts';
import { createReference, retireReference } from './references/references.service.ts';
import { readBankMembers } from './references/bank-members.service.ts';
import type { ContentDeps } from './deps.ts';

/** A command's input from its GraphQL arguments; an explicit null key is no key. */
function commandOf(args: { contentId: string; idempotencyKey?: string | null }, body: unknown) {
  return { contentId: args.contentId, body, idempotencyKey: args.idempotencyKey ?? undefined };
}

/** Thin adapters: every rule is in the services; loaders batch entity reads per request. */
export function contentResolvers(runtime: PlatformRuntime, deps: ContentDeps): GraphQLResolverMap<GraphContext> {
  const { db } = runtime.database;
  const kcTagLoader = (context: GraphContext) =>
    loaderOf<ContentKcTag[]>(context, 'content.kcTags', async (ctx, ids) => {
      const found = await activeKcTagsOf(db, ctx, ids);
      return ids.map((id) => found.get(id) ?? []);
    });
  const facetLoader = (context: GraphContext) =>
    loaderOf<FacetAssignment[]>(context, 'content.facets', async (ctx, ids) => {
      const found = await assignmentsOf(db, ctx, ids);
      return ids.map((id) => found.get(id) ?? []);
    });
  /** GraphQL booleans and numbers become the query strings the REST filter schema reads. */
  const asQuery = (filter: unknown) =>
    queryStringOf(snakeKeys(filter ?? {}) as Record<string, unknown>);

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
      contentItems: (_root, args: { filter?: unknown; cursor?: string; limit?: number }, context) =>
        listItems(deps, requestContextOf(context), {
          ...asQuery(args.filter),
          ...(args.cursor ? { cursor: args.cursor } : {}),
          ...(args.limit !== undefined && args.limit !== null ? { limit: String(args.limit) } : {}),
        }),
      testSpec: (_root, args: { contentId: string }, context) => getBlueprint(db, requestContextOf(context), args.contentId),
      bankMembers: (_root, args: { contentId: string; versionId?: string }, context) =>
        readBankMembers(db, requestContextOf(context), args.contentId, args.versionId ? { version_id: args.versionId } : {}),
      catalogFacets: async (_root, _args, context) => (await listFacets(db, requestContextOf(context))).data,
    },
    Mutation: {
      createContentItem: async (_root, args: { idempotencyKey: string; input: { blueprint?: Record<string, unknown> } }, context) => {
        // Blueprint keys are data (kc references, item types): they pass through unconverted.
        const { blueprint, ...metadata } = args.input;
        const input = { ...(snakeKeys(metadata) as Record<string, unknown>), ...(blueprint ?? {}) };
        return (await createItem(deps, requestContextOf(context), { body: input, idempotencyKey: args.idempotencyKey })).value;
      },
      patchContentItem: (_root, args: { contentId: string; ifMatch: string; input: unknown }, context) =>
        patchItem(db, requestContextOf(context), args.contentId, snakeKeys(args.input), args.ifMatch),
      tagContentKc: async (_root, args: { contentId: string; input: unknown }, context) =>
        (await tagKc(deps, requestContextOf(context), args.contentId, snakeKeys(args.input))).value,
      publishContentVersion: async (_root, args: { contentId: string; versionId: string; idempotencyKey?: string }, context) =>
        (await publishVersion(deps, requestContextOf(context), commandOf(args, { version_id: args.versionId }))).value,
      defineCatalogFacet: (_root, args: { input: unknown }, context) => defineFacet(db, requestContextOf(context), snakeKeys(args.input)),
      assignCatalogFacet: async (_root, args: { contentId: string; idempotencyKey: string; input: { facetValue: unknown; provenance?: unknown } & Record<string, unknown> }, context) => {
        const { facetValue, provenance, ...rest } = args.input;
        const input = { ...(snakeKeys(rest) as Record<string, unknown>), facet_value: facetValue, ...(provenance === undefined || provenance === null ? {} : { provenance }) };
        return (await assignFacet(deps, requestContextOf(context), commandOf(args, input))).value;
      },
      createContentReference: async (_root, args: { contentId: string; input: unknown; idempotencyKey?: string }, context) =>
        (await createReference(deps, requestContextOf(context), commandOf(args, snakeKeys(args.input)))).value,
      retireContentReference: (_root, args: { contentId: string; referenceId: string }, context) =>
        retireReference(db, requestContextOf(context), args.contentId, args.referenceId),
      appendContentVersion: async (_root, args: { contentId: string; input: unknown; idempotencyKey?: string }, context) =>
        (await appendVersion(deps, requestContextOf(context), commandOf(args, snakeKeys(args.input)))).value,
      recordQcDecision: async (
        _root,
        args: { contentId: string; versionId: string; input: unknown; idempotencyKey?: string },
        context,
      ) => (await recordQcDecision(deps, requestContextOf(context), { ...commandOf(args, snakeKeys(args.input)), versionId: args.versionId })).value,
    },
    ContentItem: {
      __resolveReference: (reference: { contentId: string }, context: GraphContext) => itemLoader(context).load(reference.contentId),
      latestVersion: (item: ContentItem, _args, context) => (item.latest_version_id ? versionEntity(context, item.latest_version_id) : null),
      kcTags: (item: ContentItem, _args, context) => kcTagLoader(context).load(item.content_id),
      versions: async (item: ContentItem, args: { limit?: number; cursor?: string }, context) => {
        const page = await listVersions(db, runtime.cursors, requestContextOf(context), item.content_id, {
          ...(args.limit !== undefined && args.limit !== null ? { limit: String(args.limit) } : {}),
          ...(args.cursor ? { cursor: args.cursor } : {}),
        });
        return { data: await Promise.all(page.data.map((version) => versionEntity(context, version.version_id))), next_cursor: page.next_cursor };
      },
      studentView: (item: ContentItem, args: { versionId?: string; includeAnswerKeys?: boolean }, context) =>
        readStudentView(db, requestContextOf(context), item.content_id, {
          ...(args.versionId ? { version_id: args.versionId } : {}),
          ...(args.includeAnswerKeys !== undefined && args.includeAnswerKeys !== null ? { includeAnswerKeys: String(args.includeAnswerKeys) } : {}),
        }),
      trust: (item: ContentItem, args: { versionId?: string }, context) =>
        readTrust(db, requestContextOf(context), item.content_id, args.versionId ? { version_id: args.versionId } : {}),
      facets: (item: ContentItem, _args, context) => facetLoader(context).load(item.content_id),
      blueprint: (item: ContentItem, _args, context) =>
        item.content_kind === 'test_spec' ? nullWhenNotFound(getBlueprint(db, requestContextOf(context), item.content_id)) : null,
    },
    ContentKcTag: {
      knowledgeComponent: (tag: ContentKcTag) => ({ __typename: 'KnowledgeComponent', kcId: tag.kc_id }),
    },
    TestBankMember: {
      form: (member: { form_content_id: string }, _args, context) => itemLoader(context).load(member.form_content_id),
    },
    JSON: JSONResolver,
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
