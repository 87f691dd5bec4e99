import type { RequestContext } from '../../../platform/context.ts';
import { requireAccess } from '../../../platform/auth.ts';
import { DomainError } from '../../../platform/errors.ts';
import { parseInput } from '../../../platform/validation.ts';
import { allInOrder } from '../../../platform/service-client.ts';
import { ACCESS } from '../access.ts';
import type { TargetRef } from '../content-client.ts';
import { GRADING_EXTENSIONS, PLAYER_EXTENSIONS, type LearnerEvent } from '../events-client.ts';
import type { CurriculumDeps } from '../deps.ts';
import type { BankMember } from './content-banks.ts';
import { GateNextFormInput, GateStatusInput, type GateStatusQuery } from './gates.schema.ts';
import { type Component, findChildren, findComponents } from '../queries.ts';
import {
  requireContentInBoundary,
  requireHistoryInOrgBoundary,
  requirePersonalizedCourseInBoundary,
  requireStudentInBoundary,
} from '../learner-boundary.ts';

/**
 * Mastery gates (rules 12, 13, 17). The curriculum service stores no learner answers, scores or
 * progress: which forms a student was served (assessment_started events) and their graded
 * results (assessment_graded events, whose grading extensions carry the grader's verdict) are read
 * from the events service each time, by student and gate component. Bank membership, form
 * eligibility and test-serve authorization are content's answers, asked for the exact pinned bank
 * version. Every missing answer fails closed.
 */

/** Rule 12's bound: at most this many bank members are validated, in bank graph order. */
export const MAX_BANK_MEMBERS = 50;

/** Rule 13: the remediation category of a failed result and the kind of component it leads to. */
export const REMEDIATION_KINDS = { never_learned: 'lesson', forgot: 'review', careless: 'practice' } as const;
export type RemediationCategory = keyof typeof REMEDIATION_KINDS;

export const SERVED_KIND = 'assessment_started';
export const GRADED_KIND = 'assessment_graded';
const COMPONENT_KEY = `${PLAYER_EXTENSIONS}/component_id`;

type GateDeps = Pick<CurriculumDeps, 'db' | 'content' | 'events' | 'banks'>;

function gateNotFound(componentId: string): DomainError {
  return new DomainError('not_found', `No mastery gate ${componentId} in this tenant.`);
}

/** Every gate read checks the read scope first, before it parses its query. */
function requireGateRead(ctx: RequestContext): void {
  requireAccess(ctx.principal, ACCESS.read, 'read mastery gates');
}

async function activeGate(deps: GateDeps, ctx: RequestContext, componentId: string): Promise<Component> {
  const [gate] = await findComponents(deps.db, ctx.tenantId, [componentId]);
  if (!gate || gate.kind !== 'mastery_gate' || gate.status !== 'active') throw gateNotFound(componentId);
  return gate;
}

/**
 * A gate whose learner history the token may read: its student, the bank it pins as its content, and the gate itself
 * (one inside another student's personalized course is refused as its contract read is, whichever student is asked).
 */
async function learnerGate(deps: GateDeps, ctx: RequestContext, componentId: string, studentId: string) {
  requireStudentInBoundary(ctx, studentId);
  const gate = await activeGate(deps, ctx, componentId);
  await requirePersonalizedCourseInBoundary(deps.db, ctx, gate.component_id);
  requireContentInBoundary(ctx, alphaOf(gate).target_ref?.content_id, 'componentId');
  return gate;
}

const alphaOf = (gate: Component) =>
  gate.alpha as {
    publication_status?: string;
    target_ref?: TargetRef;
    renderer_ref?: string;
    scope_kc_refs?: string[];
    remediation_entries?: Array<{ kc_ref: string }>;
  };

/** A pin as the gate reads answer it: target_ref names its module, which a component write may leave out. */
const withModule = (ref: TargetRef): TargetRef => ({ module: 'content', ...ref });

/** GET /gates/{id}: what a player and a planner may know of a gate; no scores, thresholds or content body. */
export async function readGateContract(deps: GateDeps, ctx: RequestContext, input: { componentId: string }) {
  requireGateRead(ctx);
  const gate = await activeGate(deps, ctx, input.componentId);
  await requirePersonalizedCourseInBoundary(deps.db, ctx, gate.component_id);
  const alpha = alphaOf(gate);
  return {
    component_id: gate.component_id,
    kind: gate.kind,
    name: gate.name,
    parent_component_id: gate.parent_component_id,
    publication_status: alpha.publication_status ?? 'draft',
    launch: alpha.publication_status === 'published' ? 'release' : 'test_serve_only',
    bank_ref: alpha.target_ref ? withModule(alpha.target_ref) : null,
    renderer_ref: alpha.renderer_ref ?? null,
    scope_kc_refs: alpha.scope_kc_refs ?? [],
    remediation_kc_refs: (alpha.remediation_entries ?? []).map((entry) => entry.kc_ref),
    form_selection: 'eligible_unseen_form',
    max_bank_members: MAX_BANK_MEMBERS,
    remediation_map: REMEDIATION_KINDS,
    etag: gate.etag,
  };
}

/** End of the asOfDate day (UTC), or the request's clock when none was sent. */
function asOfInstant(ctx: RequestContext, asOfDate: string | undefined): string {
  return asOfDate ? `${asOfDate}T23:59:59.999Z` : ctx.now.toISOString();
}

function gradingOf(event: LearnerEvent): { outcome?: string; remediation_category?: string } {
  return {
    outcome: event.extensions[`${GRADING_EXTENSIONS}/outcome`] as string | undefined,
    remediation_category: event.extensions[`${GRADING_EXTENSIONS}/remediation_category`] as string | undefined,
  };
}

const latest = (events: LearnerEvent[]) =>
  events.reduce<LearnerEvent | undefined>(
    (last, event) => (!last || event.happenedAt >= last.happenedAt ? event : last),
    undefined,
  );

/** One read of both kinds: the served forms, and the latest graded result. */
function servedAndLatestResult(history: LearnerEvent[]): [LearnerEvent[], LearnerEvent | undefined] {
  return [
    history.filter((event) => event.kind === SERVED_KIND),
    latest(history.filter((event) => event.kind === GRADED_KIND)),
  ];
}

/**
 * The gate status of a student: from one named graded result, or from the latest graded result up
 * to asOfDate. A result with no verdict, or a served form after the last result, is awaiting_result.
 */
async function statusOf(deps: GateDeps, ctx: RequestContext, gate: Component, query: GateStatusQuery) {
  const happenedAtTo = asOfInstant(ctx, query.asOfDate);
  const history = { studentId: query.studentId, componentId: gate.component_id, happenedAtTo };
  const [served, result] =
    query.resultRecordId !== undefined
      ? await allInOrder([
          deps.events.componentEvents(ctx, { ...history, kinds: [SERVED_KIND] }),
          deps.events.event(ctx, query.resultRecordId),
        ])
      : servedAndLatestResult(
          await deps.events.componentEvents(ctx, { ...history, kinds: [SERVED_KIND, GRADED_KIND] }),
        );
  if (query.resultRecordId !== undefined) {
    const belongs =
      result &&
      result.kind === GRADED_KIND &&
      result.studentId === query.studentId &&
      result.extensions[COMPONENT_KEY] === gate.component_id &&
      result.happenedAt <= happenedAtTo;
    if (!belongs) {
      throw new DomainError(
        'curriculum:result_not_found',
        `No graded result ${query.resultRecordId} of this student on gate ${gate.component_id}.`,
        {
          fieldErrors: [
            {
              field: 'resultRecordId',
              message: 'not an assessment_graded event of this student and gate up to asOfDate',
            },
          ],
        },
      );
    }
  }
  requireHistoryInOrgBoundary(ctx, result ? [...served, result] : served);
  const verdict = result ? gradingOf(result) : {};
  const lastServed = latest(served);
  const awaiting =
    lastServed !== undefined &&
    (!result || (query.resultRecordId === undefined && lastServed.happenedAt > result.happenedAt));
  const gateStatus =
    result && verdict.outcome && !awaiting ? verdict.outcome : awaiting || result ? 'awaiting_result' : 'not_attempted';
  const category =
    gateStatus === 'failed' && verdict.remediation_category
      ? (verdict.remediation_category as RemediationCategory)
      : null;
  return {
    component_id: gate.component_id,
    student_id: query.studentId,
    as_of: happenedAtTo,
    gate_status: gateStatus as 'not_attempted' | 'awaiting_result' | 'passed' | 'failed',
    result_record_id: result?.id ?? null,
    graded_at: result?.happenedAt ?? null,
    remediation_category: category,
    served_form_count: new Set(served.map((event) => event.contentId)).size,
  };
}

/** GET /gates/{id}/status. */
export async function readGateStatus(deps: GateDeps, ctx: RequestContext, input: unknown) {
  requireGateRead(ctx);
  const { componentId, ...query } = parseInput(GateStatusInput, input);
  return statusOf(deps, ctx, await learnerGate(deps, ctx, componentId, query.studentId), query);
}

/**
 * GET /gates/{id}/remediation (rule 13): a failed result's category leads to the first published
 * component of the mapped kind beside the gate (never_learned may lead to the enclosing lesson).
 * Anything but a failed result has no remediation; a category with nowhere to go fails closed.
 */
export async function readGateRemediation(deps: GateDeps, ctx: RequestContext, input: unknown) {
  requireGateRead(ctx);
  const { componentId, ...query } = parseInput(GateStatusInput, input);
  const gate = await learnerGate(deps, ctx, componentId, query.studentId);
  const status = await statusOf(deps, ctx, gate, query);
  const answer = {
    ...status,
    remediation_kc_refs: (alphaOf(gate).remediation_entries ?? []).map((entry) => entry.kc_ref),
  };
  if (!status.remediation_category) return { ...answer, remediation: null };
  const kind = REMEDIATION_KINDS[status.remediation_category];
  const target = await remediationTarget(deps, ctx, gate, kind);
  if (!target) {
    throw new DomainError(
      'curriculum:remediation_target_missing',
      `Gate ${gate.component_id} has no published ${kind} to remediate ${status.remediation_category}.`,
    );
  }
  return {
    ...answer,
    remediation: {
      category: status.remediation_category,
      kind,
      component_id: target.component_id,
      target_ref: target.alpha.target_ref ? withModule(target.alpha.target_ref as TargetRef) : null,
    },
  };
}

async function remediationTarget(
  deps: GateDeps,
  ctx: RequestContext,
  gate: Component,
  kind: string,
): Promise<Component | undefined> {
  if (!gate.parent_component_id) return undefined;
  const isPublished = (component: Component) =>
    component.status === 'active' && component.alpha.publication_status === 'published';
  const siblings =
    (await findChildren(deps.db, ctx.tenantId, [gate.parent_component_id], false)).get(gate.parent_component_id) ?? [];
  const sibling = siblings.find((component) => component.kind === kind && isPublished(component));
  if (sibling || kind !== 'lesson') return sibling;
  const [parent] = await findComponents(deps.db, ctx.tenantId, [gate.parent_component_id]);
  return parent && parent.kind === 'lesson' && isPublished(parent) ? parent : undefined;
}

const formRef = (member: BankMember): TargetRef => ({
  module: 'content',
  content_kind: 'test',
  content_id: member.form_content_id,
  content_version_id: member.form_version_id,
});

/** The form is release eligible for practice now (content's answer); other refusals propagate. */
async function formEligible(deps: GateDeps, ctx: RequestContext, member: BankMember): Promise<boolean> {
  try {
    await deps.content.requireEligible(ctx, formRef(member), { practiceEligible: true });
    return true;
  } catch (error) {
    if (error instanceof DomainError && error.code === 'curriculum:target_not_serveable') return false;
    throw error;
  }
}

/**
 * GET /gates/{id}/next-form (rule 12). A published gate: the exact bank version is revalidated
 * (release eligible, practice_eligible), its members read for that version only, at most 50
 * validated in graph order, and the first eligible form the student was never served is returned.
 * A draft gate launches only through content's test-serve authorization of that exact selection
 * for the student as the test identity. Version mismatch, all forms ineligible and exhaustion are
 * three distinct problems.
 */
export async function readGateNextForm(deps: GateDeps, ctx: RequestContext, input: unknown) {
  requireGateRead(ctx);
  const { componentId, ...query } = parseInput(GateNextFormInput, input);
  const gate = await learnerGate(deps, ctx, componentId, query.studentId);
  const bank = alphaOf(gate).target_ref;
  if (!bank || bank.content_kind !== 'test_bank') {
    throw new DomainError('curriculum:gate_not_launchable', `Gate ${componentId} pins no exact test_bank version.`);
  }
  const released = alphaOf(gate).publication_status === 'published';
  const happenedAtTo = asOfInstant(ctx, query.asOfDate);
  // Reads only, judged in this order: a bank not eligible is refused before its members or the history matter.
  const [, bankMembers, served] = await allInOrder([
    released ? deps.content.requireEligible(ctx, bank, { practiceEligible: true }) : Promise.resolve(undefined),
    deps.banks.members(ctx, bank),
    deps.events.componentEvents(ctx, {
      studentId: query.studentId,
      componentId,
      kinds: [SERVED_KIND],
      happenedAtTo,
    }),
  ]);
  if (bankMembers.content_id !== bank.content_id || bankMembers.version_id !== bank.content_version_id) {
    throw new DomainError(
      'curriculum:bank_version_mismatch',
      `Content answered the members of bank version ${bankMembers.version_id}, not the pinned ${bank.content_version_id}.`,
      {
        extensions: { bank_ref: bank, answered_version_id: bankMembers.version_id },
      },
    );
  }
  requireHistoryInOrgBoundary(ctx, served);
  const validated = bankMembers.members.slice(0, MAX_BANK_MEMBERS);
  const candidates = validated.filter(
    (member) => member.ready && member.practice_eligible && member.usage_scope === 'practice_eligible',
  );
  const seen = new Set(served.map((event) => event.contentId));
  const answer = (member: BankMember, authorizationId: string | null) => ({
    component_id: componentId,
    student_id: query.studentId,
    as_of: happenedAtTo,
    launch: released ? 'release' : 'test_serve',
    bank_ref: withModule(bank),
    selected_form_ref: formRef(member),
    bank_member_ordinal: member.ordinal,
    test_serve_authorization_id: authorizationId,
    seen_form_count: validated.filter((candidate) => seen.has(candidate.form_content_id)).length,
    validated_member_count: validated.length,
  });
  for (const member of candidates.filter((candidate) => !seen.has(candidate.form_content_id))) {
    if (!released) {
      const receipt = await deps.banks.authorizeTestServe(ctx, {
        bank,
        form: formRef(member),
        testIdentityId: query.studentId,
      });
      return answer(member, receipt.authorization_id);
    }
    if (await formEligible(deps, ctx, member)) return answer(member, null);
  }
  const seenCandidates = candidates.filter((candidate) => seen.has(candidate.form_content_id));
  for (const member of seenCandidates) {
    if (!released || (await formEligible(deps, ctx, member))) {
      throw new DomainError(
        'curriculum:bank_exhausted',
        `Student ${query.studentId} was served every eligible form of gate ${componentId}.`,
        {
          extensions: { validated_member_count: validated.length, seen_form_count: seenCandidates.length },
        },
      );
    }
  }
  throw new DomainError(
    'curriculum:bank_forms_ineligible',
    `No form of bank version ${bank.content_version_id} is eligible for practice.`,
    {
      extensions: { validated_member_count: validated.length },
    },
  );
}

export type GateContract = Awaited<ReturnType<typeof readGateContract>>;
export type GateRemediationMap = GateContract['remediation_map'];
export type GateStatus = Awaited<ReturnType<typeof readGateStatus>>;
export type GateNextForm = Awaited<ReturnType<typeof readGateNextForm>>;
export type GateRemediation = Awaited<ReturnType<typeof readGateRemediation>>;
export type GateRemediationTarget = NonNullable<GateRemediation['remediation']>;
