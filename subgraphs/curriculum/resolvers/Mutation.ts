import { commandValue, requestContextOf, type GraphContext } from '../../../platform/graphql.ts';
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
import { componentInputOf, kcInputOf, snakeKeepingValues } from './inputs.ts';
import type { CurriculumRule } from '../rule-inputs.ts';

/** A create whose arguments besides its Idempotency-Key are the REST body's fields. */
const argsAsBody = ({ idempotencyKey, ...fields }: { idempotencyKey: string } & Record<string, unknown>) => ({
  body: snakeKeys(fields),
  idempotencyKey,
});

/** A KC graph edge addressed by its id. */
const edgeOf = (id: string, idempotencyKey: string | null | undefined) => ({
  id,
  idempotencyKey: idempotencyKey ?? undefined,
});

export function mutationResolvers(deps: CurriculumDeps): MutationResolvers {
  /** A mutation answered by a command rule: its arguments become the rule's input, its answer the command's value. */
  const command =
    <Args, Input, T>(rule: CurriculumRule<Input, { value: T }>, inputOf: (args: Args) => Input) =>
    (_root: unknown, args: Args, context: GraphContext) =>
      commandValue(rule(deps, requestContextOf(context), inputOf(args)));
  return {
    createComponent: command(createComponent, (args) => ({
      body: componentInputOf(args.input),
      idempotencyKey: args.idempotencyKey ?? undefined,
    })),
    updateComponent: command(patchComponent, ({ input, ...args }) => ({ ...args, body: componentInputOf(input) })),
    retireComponent: command(retireComponent, (args) => args),
    repointComponent: command(repointComponent, ({ input, ...args }) => ({ ...args, body: snakeKeys(input) })),
    createAssociation: command(createAssociation, (args) => {
      const { sequenceNumber, ...names } = args.input;
      const body = {
        ...names,
        ...(sequenceNumber !== undefined && sequenceNumber !== null ? { sequence_number: sequenceNumber } : {}),
      };
      return { body, idempotencyKey: args.idempotencyKey ?? undefined };
    }),
    reorderAssociation: command(patchAssociation, ({ sequenceNumber, ...args }) => ({
      ...args,
      body: { sequence_number: sequenceNumber },
    })),
    createKc: command(createKc, (args) => ({
      body: kcInputOf(args.input),
      idempotencyKey: args.idempotencyKey ?? undefined,
    })),
    publishKc: command(publishKc, (args) => ({ ...args, body: { publication_status: 'published' } })),
    retireKc: command(retireKc, (args) => args),
    appendKcVersion: command(appendKcVersion, ({ input, ...args }) => ({
      ...args,
      body: kcInputOf(input ?? undefined),
    })),
    createKcPrerequisite: command(createPrerequisite, argsAsBody),
    retireKcPrerequisite: command(retirePrerequisite, (args) => edgeOf(args.prerequisiteId, args.idempotencyKey)),
    createKcRelation: command(createRelation, argsAsBody),
    retireKcRelation: command(retireRelation, (args) => edgeOf(args.relationId, args.idempotencyKey)),
    recordKcReviewDecision: command(createReviewDecision, argsAsBody),
    recordKcFirmingEvent: command(createFirmingEvent, ({ idempotencyKey, ...input }) => ({
      body: snakeKeepingValues(input, ['evidence']),
      idempotencyKey,
    })),
    approveCourse: command(approveCourse, ({ input: { provenance, ...rest }, ...args }) => ({
      ...args,
      body: { ...(snakeKeys(rest) as Record<string, unknown>), provenance },
    })),
    ingestVendorCourse: command(ingestVendorCourse, (args) => ({
      body: snakeKeepingValues(args.input, ['records', 'courses', 'courseComponents', 'componentResources']),
    })),
  };
}
