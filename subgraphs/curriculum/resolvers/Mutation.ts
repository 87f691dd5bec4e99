import { commandValue, requestContextOf } from '../../../platform/graphql.ts';
import { snakeKeys } from '../../../platform/naming.ts';
import { createComponent } from '../components/components.service.ts';
import type { CurriculumDeps } from '../deps.ts';
import { patchComponent, retireComponent } from '../components/component-edits.service.ts';
import { repointComponent } from '../repoint/repoint.service.ts';
import { createAssociation, patchAssociation } from '../associations/associations.service.ts';
import { appendKcVersion, createKc, publishKc, retireKc } from '../kcs/kcs.service.ts';
import {
  createFirmingEvent,
  createPrerequisite,
  createReviewDecision,
  retirePrerequisite,
} from '../kc-graph/kc-graph.service.ts';
import { createRelation, retireRelation } from '../kc-graph/kc-relations.service.ts';
import { ingestVendorCourse } from '../ingest/ingest.service.ts';
import { approveCourse } from '../approvals/approvals.service.ts';
import type { MutationResolvers } from '../generated/graphql.ts';
import { kcInputOf, snakeKeepingValues } from './inputs.ts';

const ctxOf = requestContextOf;

export function mutationResolvers(deps: CurriculumDeps): MutationResolvers {
  return {
    createComponent: (_root, args, context) =>
      commandValue(createComponent(deps, ctxOf(context), { body: snakeKeys(args.input) })),
    updateComponent: (_root, args, context) =>
      commandValue(
        patchComponent(deps, ctxOf(context), {
          componentId: args.componentId,
          body: snakeKeys(args.input),
          ifMatch: args.ifMatch,
          idempotencyKey: args.idempotencyKey,
        }),
      ),
    retireComponent: (_root, args, context) =>
      commandValue(
        retireComponent(deps, ctxOf(context), {
          componentId: args.componentId,
          ifMatch: args.ifMatch,
          idempotencyKey: args.idempotencyKey,
        }),
      ),
    repointComponent: (_root, args, context) =>
      commandValue(
        repointComponent(deps, ctxOf(context), {
          componentId: args.componentId,
          body: snakeKeys(args.input),
          idempotencyKey: args.idempotencyKey,
        }),
      ),
    createAssociation: async (_root, args, context) => {
      const { sequenceNumber, ...names } = args.input;
      const body = {
        ...names,
        ...(sequenceNumber !== undefined && sequenceNumber !== null ? { sequence_number: sequenceNumber } : {}),
      };
      return commandValue(
        createAssociation(deps, ctxOf(context), { body, idempotencyKey: args.idempotencyKey ?? undefined }),
      );
    },
    reorderAssociation: (_root, args, context) =>
      commandValue(
        patchAssociation(deps, ctxOf(context), {
          associationId: args.associationId,
          body: { sequence_number: args.sequenceNumber },
          ifMatch: args.ifMatch,
          idempotencyKey: args.idempotencyKey,
        }),
      ),
    createKc: (_root, args, context) =>
      commandValue(
        createKc(deps, ctxOf(context), {
          body: kcInputOf(args.input),
          idempotencyKey: args.idempotencyKey ?? undefined,
        }),
      ),
    publishKc: (_root, args, context) =>
      commandValue(
        publishKc(deps, ctxOf(context), {
          kcId: args.kcId,
          body: { publication_status: 'published' },
          ifMatch: args.ifMatch,
          idempotencyKey: args.idempotencyKey,
        }),
      ),
    retireKc: (_root, args, context) =>
      commandValue(
        retireKc(deps, ctxOf(context), {
          kcId: args.kcId,
          ifMatch: args.ifMatch,
          idempotencyKey: args.idempotencyKey,
        }),
      ),
    appendKcVersion: (_root, args, context) =>
      commandValue(
        appendKcVersion(deps, ctxOf(context), {
          kcId: args.kcId,
          body: kcInputOf(args.input ?? undefined),
          idempotencyKey: args.idempotencyKey,
        }),
      ),
    createKcPrerequisite: (_root, args, context) =>
      commandValue(
        createPrerequisite(deps, ctxOf(context), {
          body: { prerequisite_kc_id: args.prerequisiteKcId, dependent_kc_id: args.dependentKcId },
          idempotencyKey: args.idempotencyKey,
        }),
      ),
    retireKcPrerequisite: (_root, args, context) =>
      commandValue(
        retirePrerequisite(deps, ctxOf(context), {
          id: args.prerequisiteId,
          idempotencyKey: args.idempotencyKey ?? undefined,
        }),
      ),
    createKcRelation: (_root, { idempotencyKey, ...input }, context) =>
      commandValue(createRelation(deps, ctxOf(context), { body: snakeKeys(input), idempotencyKey })),
    retireKcRelation: (_root, args, context) =>
      commandValue(
        retireRelation(deps, ctxOf(context), {
          id: args.relationId,
          idempotencyKey: args.idempotencyKey ?? undefined,
        }),
      ),
    recordKcReviewDecision: (_root, { idempotencyKey, ...input }, context) =>
      commandValue(createReviewDecision(deps, ctxOf(context), { body: snakeKeys(input), idempotencyKey })),
    recordKcFirmingEvent: (_root, { idempotencyKey, ...input }, context) =>
      commandValue(
        createFirmingEvent(deps, ctxOf(context), {
          body: snakeKeepingValues(input, ['evidence']),
          idempotencyKey,
        }),
      ),
    approveCourse: async (_root, args, context) => {
      const { provenance, ...rest } = args.input;
      const body = { ...(snakeKeys(rest) as Record<string, unknown>), provenance };
      return commandValue(
        approveCourse(deps, ctxOf(context), {
          courseId: args.courseId,
          body,
          idempotencyKey: args.idempotencyKey,
        }),
      );
    },
    ingestVendorCourse: (_root, args, context) =>
      commandValue(
        ingestVendorCourse(deps, ctxOf(context), {
          body: snakeKeepingValues(args.input, ['records', 'courses', 'courseComponents', 'componentResources']),
        }),
      ),
  };
}
