import { GraphQLError, GraphQLScalarType, Kind, type ValueNode } from 'graphql';
import { loaderOf, nullWhenNotFound, requestContextOf, type GraphContext, type GraphQLResolverMap } from '../../platform/graphql.ts';
import { snakeKeys, queryStringOf } from '../../platform/naming.ts';
import type { TargetRef } from './content-client.ts';
import {
  createComponent,
  listComponents,
  loadChildren,
  loadComponents,
  type Component,
} from './components/components.service.ts';
import type { CurriculumDeps } from './deps.ts';
import { patchComponent, retireComponent } from './components/component-edits.service.ts';
import { readRendererRegistry, repointComponent } from './repoint/repoint.service.ts';
import { createAssociation, getAssociation, listAssociations, patchAssociation } from './associations/associations.service.ts';
import { appendKcVersion, createKc, listKcVersions, listKcs, loadKcs, publishKc, retireKc, type KnowledgeComponent } from './kcs/kcs.service.ts';
import {
  createFirmingEvent,
  createPrerequisite,
  createReviewDecision,
  getPrerequisite,
  listPrerequisites,
  retirePrerequisite,
  type KcPrerequisite,
} from './kc-graph/kc-graph.service.ts';
import { createRelation, getRelation, listRelations, loadRelationsOf, retireRelation, type KcRelation } from './kc-graph/kc-relations.service.ts';
import { getFramework, listFrameworks, listStandardKcMaps, loadStandardMapsOf, type StandardKcMap } from './standards/standards.service.ts';

/**
 * Thin adapters over the curriculum service functions: inputs become the REST body shape, results
 * are the REST records read through the snake_case resolver. Loaders batch by id and by parent.
 */

type Args = Record<string, unknown>;

const snakeName = (name: string) => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

/** Like snakeKeys, but the values of `keep` (free-form objects whose keys are data) are passed unchanged. */
function snakeKeepingValues(value: unknown, keep: readonly string[]): Record<string, unknown> | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const source = value as Record<string, unknown>;
  const rest = Object.fromEntries(Object.entries(source).filter(([name]) => !keep.includes(name)));
  const kept = Object.fromEntries(keep.filter((name) => source[name] !== undefined && source[name] !== null).map((name) => [snakeName(name), source[name]]));
  return { ...(snakeKeys(rest) as Record<string, unknown>), ...kept };
}

const KC_ALPHA_OBJECTS = ['instructionalClassification', 'provenance'] as const;

function kcInputOf(input: Args | undefined): Args {
  if (!input) return {};
  const { alpha, ...rest } = input;
  const body = snakeKeys(rest) as Args;
  const converted = snakeKeepingValues(alpha, KC_ALPHA_OBJECTS);
  return converted ? { ...body, alpha: converted } : body;
}

/** GraphQL list arguments become the REST query string the service parses. */
function queryOf(args: Args, renames: Record<string, string> = {}): Record<string, string> {
  return queryStringOf(args, { updatedSince: 'updated_since', ...renames });
}

/** Free-form objects (provenance, evidence): any JSON object, keys passed through unchanged. */
function objectValue(value: unknown): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new GraphQLError('JSONObject must be an object');
  return value as Record<string, unknown>;
}
function literalValue(node: ValueNode, variables: Record<string, unknown> | null | undefined): unknown {
  switch (node.kind) {
    case Kind.OBJECT:
      return Object.fromEntries(node.fields.map((field) => [field.name.value, literalValue(field.value, variables)]));
    case Kind.LIST:
      return node.values.map((item) => literalValue(item, variables));
    case Kind.INT:
    case Kind.FLOAT:
      return Number(node.value);
    case Kind.STRING:
    case Kind.ENUM:
      return node.value;
    case Kind.BOOLEAN:
      return node.value;
    case Kind.NULL:
      return null;
    case Kind.VARIABLE:
      return variables?.[node.name.value];
  }
}
const JSONObject = new GraphQLScalarType({
  name: 'JSONObject',
  serialize: objectValue,
  parseValue: objectValue,
  parseLiteral: (node, variables) => objectValue(literalValue(node, variables)),
});

const KC_QUERY_NAMES = { subjectId: 'subject_id', kcKind: 'kc_kind', publicationStatus: 'publication_status' };

export function curriculumResolvers(deps: CurriculumDeps): GraphQLResolverMap<GraphContext> {
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
  const ctxOf = requestContextOf;

  return {
    JSONObject,
    Query: {
      component: (_root, args: { componentId: string }, context) => componentLoader(context).load(args.componentId),
      components: (_root, args: Args, context) => listComponents(deps, ctxOf(context), queryOf(args)),
      kc: (_root, args: { kcId: string }, context) => kcLoader(context).load(args.kcId),
      kcs: (_root, args: Args, context) => listKcs(deps, ctxOf(context), queryOf(args, KC_QUERY_NAMES)),
      kcVersions: (_root, { kcId, ...args }: Args, context) => listKcVersions(deps, ctxOf(context), kcId as string, queryOf(args)),
      kcPrerequisites: (_root, args: Args, context) => listPrerequisites(deps, ctxOf(context), queryOf(args)),
      kcPrerequisite: (_root, args: { prerequisiteId: string }, context) => nullWhenNotFound(getPrerequisite(deps, ctxOf(context), args.prerequisiteId)),
      kcRelations: (_root, args: Args, context) => listRelations(deps, ctxOf(context), queryOf(args)),
      kcRelation: (_root, args: { relationId: string }, context) => nullWhenNotFound(getRelation(deps, ctxOf(context), args.relationId)),
      standardsFrameworks: (_root, args: Args, context) => listFrameworks(deps, ctxOf(context), queryOf(args)),
      standardsFramework: (_root, args: { frameworkId: string }, context) => nullWhenNotFound(getFramework(deps, ctxOf(context), args.frameworkId)),
      standardKcMaps: (_root, args: Args, context) =>
        listStandardKcMaps(deps, ctxOf(context), queryOf(args, { sourceReleaseId: 'source_release_id', standardId: 'standard_id', kcId: 'kc_id' })),
      association: (_root, args: { associationId: string }, context) => nullWhenNotFound(getAssociation(deps, ctxOf(context), args.associationId)),
      associations: (_root, args: Args, context) => listAssociations(deps, ctxOf(context), queryOf(args)),
      rendererRegistry: (_root, args: Args, context) => readRendererRegistry(ctxOf(context), queryOf(args, { rendererRef: 'renderer_ref', rendererKind: 'renderer_kind' })).data,
    },
    Mutation: {
      createComponent: async (_root, args: { input: unknown }, context) => (await createComponent(deps, ctxOf(context), snakeKeys(args.input))).value,
      updateComponent: async (_root, args: { componentId: string; ifMatch: string; idempotencyKey: string; input: unknown }, context) =>
        (await patchComponent(deps, ctxOf(context), args.componentId, snakeKeys(args.input), { ifMatch: args.ifMatch, idempotencyKey: args.idempotencyKey })).value,
      retireComponent: async (_root, args: { componentId: string; ifMatch: string; idempotencyKey: string }, context) =>
        (await retireComponent(deps, ctxOf(context), args.componentId, { ifMatch: args.ifMatch, idempotencyKey: args.idempotencyKey })).value,
      repointComponent: async (_root, args: { componentId: string; idempotencyKey: string; input: unknown }, context) =>
        (await repointComponent(deps, ctxOf(context), args.componentId, snakeKeys(args.input), args.idempotencyKey)).value,
      createAssociation: async (_root, args: { input: Args; idempotencyKey?: string }, context) => {
        const { sequenceNumber, ...names } = args.input;
        const body = { ...names, ...(sequenceNumber !== undefined && sequenceNumber !== null ? { sequence_number: sequenceNumber } : {}) };
        return (await createAssociation(deps, ctxOf(context), body, args.idempotencyKey ?? undefined)).value;
      },
      reorderAssociation: async (_root, args: { associationId: string; ifMatch: string; idempotencyKey: string; sequenceNumber: number }, context) =>
        (
          await patchAssociation(deps, ctxOf(context), args.associationId, { sequence_number: args.sequenceNumber }, {
            ifMatch: args.ifMatch,
            idempotencyKey: args.idempotencyKey,
          })
        ).value,
      createKc: async (_root, args: { input: Args; idempotencyKey?: string }, context) =>
        (await createKc(deps, ctxOf(context), kcInputOf(args.input), args.idempotencyKey ?? undefined)).value,
      publishKc: async (_root, args: { kcId: string; ifMatch: string; idempotencyKey: string }, context) =>
        (await publishKc(deps, ctxOf(context), args.kcId, { publication_status: 'published' }, { ifMatch: args.ifMatch, idempotencyKey: args.idempotencyKey })).value,
      retireKc: async (_root, args: { kcId: string; ifMatch: string; idempotencyKey: string }, context) =>
        (await retireKc(deps, ctxOf(context), args.kcId, { ifMatch: args.ifMatch, idempotencyKey: args.idempotencyKey })).value,
      appendKcVersion: async (_root, args: { kcId: string; idempotencyKey: string; input?: Args }, context) =>
        (await appendKcVersion(deps, ctxOf(context), args.kcId, kcInputOf(args.input ?? undefined), args.idempotencyKey)).value,
      createKcPrerequisite: async (_root, args: { prerequisiteKcId: string; dependentKcId: string; idempotencyKey: string }, context) =>
        (
          await createPrerequisite(deps, ctxOf(context), { prerequisite_kc_id: args.prerequisiteKcId, dependent_kc_id: args.dependentKcId }, args.idempotencyKey)
        ).value,
      retireKcPrerequisite: async (_root, args: { prerequisiteId: string; idempotencyKey: string }, context) =>
        (await retirePrerequisite(deps, ctxOf(context), args.prerequisiteId, args.idempotencyKey)).value,
      createKcRelation: async (_root, { idempotencyKey, ...input }: Args, context) =>
        (await createRelation(deps, ctxOf(context), snakeKeys(input), idempotencyKey as string)).value,
      retireKcRelation: async (_root, args: { relationId: string; idempotencyKey: string }, context) =>
        (await retireRelation(deps, ctxOf(context), args.relationId, args.idempotencyKey)).value,
      recordKcReviewDecision: async (_root, { idempotencyKey, ...input }: Args, context) =>
        (await createReviewDecision(deps, ctxOf(context), snakeKeys(input), idempotencyKey as string)).value,
      recordKcFirmingEvent: async (_root, { idempotencyKey, ...input }: Args, context) =>
        (await createFirmingEvent(deps, ctxOf(context), snakeKeepingValues(input, ['evidence']), idempotencyKey as string)).value,
    },
    Component: {
      __resolveReference: (reference: { componentId: string }, context: GraphContext) => componentLoader(context).load(reference.componentId),
      parent: (component: Component, _args, context) =>
        component.parent_component_id ? componentLoader(context).load(component.parent_component_id) : null,
      children: async (component: Component, args: { includeRetired: boolean }, context) =>
        (await childrenLoader(context, args.includeRetired).load(component.component_id)) ?? [],
    },
    ComponentAlpha: {
      scopeKcs: async (alpha: { scope_kc_refs?: string[] }, _args, context) =>
        (await kcLoader(context).loadMany(alpha.scope_kc_refs ?? [])).filter((kc): kc is KnowledgeComponent => kc !== null && !(kc instanceof Error)),
    },
    TargetRef: {
      version: (ref: TargetRef) => ({ __typename: 'ContentVersion', versionId: ref.content_version_id }),
    },
    KnowledgeComponent: {
      __resolveReference: (reference: { kcId: string }, context: GraphContext) => kcLoader(context).load(reference.kcId),
      versions: (kc: KnowledgeComponent, args: Args, context) => listKcVersions(deps, ctxOf(context), kc.kc_id, queryOf(args)),
      relations: (kc: KnowledgeComponent, _args, context) => relationsLoader(context).load(kc.kc_id),
      standardMaps: (kc: KnowledgeComponent, _args, context) => standardMapsLoader(context).load(kc.kc_id),
    },
    StandardKcMap: {
      kc: (map: StandardKcMap, _args, context) => kcLoader(context).load(map.kc_id),
    },
    KcRelation: {
      from: (relation: KcRelation, _args, context) => kcLoader(context).load(relation.from_kc_id),
      to: (relation: KcRelation, _args, context) => kcLoader(context).load(relation.to_kc_id),
    },
    KcPrerequisite: {
      prerequisite: (edge: KcPrerequisite, _args, context) => kcLoader(context).load(edge.prerequisite_kc_id),
      dependent: (edge: KcPrerequisite, _args, context) => kcLoader(context).load(edge.dependent_kc_id),
    },
  };
}
