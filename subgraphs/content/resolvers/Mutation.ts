import { commandValue, requestContextOf } from '../../../platform/graphql.ts';
import { snakeKeys } from '../../../platform/naming.ts';
import { idAsStored } from '../../../platform/validation.ts';
import { assignFacet, defineFacet } from '../catalog/catalog.service.ts';
import type { ContentDeps } from '../deps.ts';
import { BLUEPRINT_FIELDS } from '../blueprints/blueprint.service.ts';
import { putComposition } from '../composition/composition.service.ts';
import { createItem, patchItem } from '../items/items.service.ts';
import { tagKc } from '../kc-tags/kc-tags.service.ts';
import { uploadMedia } from '../media/media.service.ts';
import { publishVersion } from '../publish/publish.service.ts';
import { putExternalLink } from '../records/records.service.ts';
import { createReference, retireReference } from '../references/references.service.ts';
import { recordQcDecision } from '../trust/trust.service.ts';
import { appendVersion } from '../versions/versions.service.ts';
import type { MutationResolvers } from '../generated/graphql.ts';

/**
 * The createContentItem body: the metadata, then the blueprint's seven fields. Any other key of the blueprint is
 * named `blueprint.<key>`, which the create refuses as an unknown field: spread as it came, a blueprint holding
 * title, status or content_kind overrode the metadata sent beside it.
 */
function createBodyOf(metadata: Record<string, unknown>, blueprint: unknown): Record<string, unknown> {
  const entries = Object.entries(blueprint ?? {}).map(([key, value]) =>
    (BLUEPRINT_FIELDS as readonly string[]).includes(key) ? [key, value] : [`blueprint.${key}`, value],
  );
  return { ...(snakeKeys(metadata) as Record<string, unknown>), ...Object.fromEntries(entries) };
}

/**
 * A command's input from its GraphQL arguments; an explicit null key is no key. The item's id is read as a REST
 * path's is (idAsStored): in upper case it found the item but not its versions, as the id is also compared in code.
 */
function commandOf(args: { contentId: string; idempotencyKey?: string | null }, body: unknown) {
  return { contentId: idAsStored(args.contentId), body, idempotencyKey: args.idempotencyKey ?? undefined };
}

export function mutationResolvers(deps: ContentDeps): MutationResolvers {
  return {
    createContentItem: async (_root, args, context) => {
      // Blueprint keys are data (kc references, item types): they pass through unconverted.
      const { blueprint, ...metadata } = args.input;
      const body = createBodyOf(metadata, blueprint);
      return commandValue(createItem(deps, requestContextOf(context), { body, idempotencyKey: args.idempotencyKey }));
    },
    patchContentItem: (_root, args, context) =>
      patchItem(deps, requestContextOf(context), {
        contentId: idAsStored(args.contentId),
        body: snakeKeys(args.input),
        ifMatch: args.ifMatch,
      }),
    tagContentKc: (_root, args, context) =>
      commandValue(tagKc(deps, requestContextOf(context), commandOf(args, snakeKeys(args.input)))),
    publishContentVersion: (_root, args, context) =>
      commandValue(publishVersion(deps, requestContextOf(context), commandOf(args, { version_id: args.versionId }))),
    defineCatalogFacet: (_root, args, context) =>
      defineFacet(deps, requestContextOf(context), { body: snakeKeys(args.input) }),
    assignCatalogFacet: async (_root, args, context) => {
      const { facetValue, provenance, ...rest } = args.input;
      const input = {
        ...(snakeKeys(rest) as Record<string, unknown>),
        facet_value: facetValue,
        ...(provenance === undefined || provenance === null ? {} : { provenance }),
      };
      return commandValue(assignFacet(deps, requestContextOf(context), commandOf(args, input)));
    },
    createContentReference: (_root, args, context) =>
      commandValue(createReference(deps, requestContextOf(context), commandOf(args, snakeKeys(args.input)))),
    retireContentReference: (_root, args, context) =>
      retireReference(deps, requestContextOf(context), {
        contentId: idAsStored(args.contentId),
        referenceId: idAsStored(args.referenceId),
      }),
    uploadContentMedia: (_root, args, context) =>
      commandValue(uploadMedia(deps, requestContextOf(context), commandOf(args, snakeKeys(args.input)))),
    setContentExternalLink: (_root, args, context) =>
      commandValue(putExternalLink(deps, requestContextOf(context), commandOf(args, snakeKeys(args.input)))),
    setInteractiveComposition: (_root, args, context) =>
      putComposition(deps, requestContextOf(context), commandOf(args, snakeKeys(args.input))),
    appendContentVersion: (_root, args, context) =>
      commandValue(appendVersion(deps, requestContextOf(context), commandOf(args, snakeKeys(args.input)))),
    recordQcDecision: (_root, args, context) =>
      commandValue(
        recordQcDecision(deps, requestContextOf(context), {
          ...commandOf(args, snakeKeys(args.input)),
          versionId: idAsStored(args.versionId),
        }),
      ),
  };
}
