import { requestContextOf } from '../../../platform/graphql.ts';
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
    createComponent: async (_root, args, context) =>
      (await createComponent(deps, ctxOf(context), { body: snakeKeys(args.input) })).value,
    updateComponent: async (_root, args, context) =>
      (
        await patchComponent(deps, ctxOf(context), {
          componentId: args.componentId,
          body: snakeKeys(args.input),
          ifMatch: args.ifMatch,
          idempotencyKey: args.idempotencyKey,
        })
      ).value,
    retireComponent: async (_root, args, context) =>
      (
        await retireComponent(deps, ctxOf(context), {
          componentId: args.componentId,
          ifMatch: args.ifMatch,
          idempotencyKey: args.idempotencyKey,
        })
      ).value,
    repointComponent: async (_root, args, context) =>
      (
        await repointComponent(deps, ctxOf(context), {
          componentId: args.componentId,
          body: snakeKeys(args.input),
          idempotencyKey: args.idempotencyKey,
        })
      ).value,
    createAssociation: async (_root, args, context) => {
      const { sequenceNumber, ...names } = args.input;
      const body = {
        ...names,
        ...(sequenceNumber !== undefined && sequenceNumber !== null ? { sequence_number: sequenceNumber } : {}),
      };
      return (await createAssociation(deps, ctxOf(context), { body, idempotencyKey: args.idempotencyKey ?? undefined }))
        .value;
    },
    reorderAssociation: async (_root, args, context) =>
      (
        await patchAssociation(deps, ctxOf(context), {
          associationId: args.associationId,
          body: { sequence_number: args.sequenceNumber },
          ifMatch: args.ifMatch,
          idempotencyKey: args.idempotencyKey,
        })
      ).value,
    createKc: async (_root, args, context) =>
      (
        await createKc(deps, ctxOf(context), {
          body: kcInputOf(args.input),
          idempotencyKey: args.idempotencyKey ?? undefined,
        })
      ).value,
    publishKc: async (_root, args, context) =>
      (
        await publishKc(deps, ctxOf(context), {
          kcId: args.kcId,
          body: { publication_status: 'published' },
          ifMatch: args.ifMatch,
          idempotencyKey: args.idempotencyKey,
        })
      ).value,
    retireKc: async (_root, args, context) =>
      (
        await retireKc(deps, ctxOf(context), {
          kcId: args.kcId,
          ifMatch: args.ifMatch,
          idempotencyKey: args.idempotencyKey,
        })
      ).value,
    appendKcVersion: async (_root, args, context) =>
      (
        await appendKcVersion(deps, ctxOf(context), {
          kcId: args.kcId,
          body: kcInputOf(args.input ?? undefined),
          idempotencyKey: args.idempotencyKey,
        })
      ).value,
    createKcPrerequisite: async (_root, args, context) =>
      (
        await createPrerequisite(deps, ctxOf(context), {
          body: { prerequisite_kc_id: args.prerequisiteKcId, dependent_kc_id: args.dependentKcId },
          idempotencyKey: args.idempotencyKey,
        })
      ).value,
    retireKcPrerequisite: async (_root, args, context) =>
      (
        await retirePrerequisite(deps, ctxOf(context), {
          id: args.prerequisiteId,
          idempotencyKey: args.idempotencyKey ?? undefined,
        })
      ).value,
    createKcRelation: async (_root, { idempotencyKey, ...input }, context) =>
      (await createRelation(deps, ctxOf(context), { body: snakeKeys(input), idempotencyKey })).value,
    retireKcRelation: async (_root, args, context) =>
      (
        await retireRelation(deps, ctxOf(context), {
          id: args.relationId,
          idempotencyKey: args.idempotencyKey ?? undefined,
        })
      ).value,
    recordKcReviewDecision: async (_root, { idempotencyKey, ...input }, context) =>
      (await createReviewDecision(deps, ctxOf(context), { body: snakeKeys(input), idempotencyKey })).value,
    recordKcFirmingEvent: async (_root, { idempotencyKey, ...input }, context) =>
      (
        await createFirmingEvent(deps, ctxOf(context), {
          body: snakeKeepingValues(input, ['evidence']),
          idempotencyKey,
        })
      ).value,
    approveCourse: async (_root, args, context) => {
      const { provenance, ...rest } = args.input;
      const body = { ...(snakeKeys(rest) as Record<string, unknown>), provenance };
      return (
        await approveCourse(deps, ctxOf(context), {
          courseId: args.courseId,
          body,
          idempotencyKey: args.idempotencyKey,
        })
      ).value;
    },
    ingestVendorCourse: async (_root, args, context) =>
      (
        await ingestVendorCourse(deps, ctxOf(context), {
          body: snakeKeepingValues(args.input, ['records', 'courses', 'courseComponents', 'componentResources']),
        })
      ).value,
  };
}
