import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Database } from '../../../platform/db.ts';
import type { RequestContext } from '../../../platform/context.ts';
import { requireAccess } from '../../../platform/auth.ts';
import { DomainError, type FieldError } from '../../../platform/errors.ts';
import { isoTimestamp, nullMeansAbsent, parseInput, uuidRef } from '../../../platform/validation.ts';
import { items, policies, testServeAuthorizations, versionPublications, versions } from '../tables.ts';
import type { TrustStatus } from '../vocabulary.ts';
import { ACCESS } from '../access.ts';
import type { ContentDeps } from '../deps.ts';
import { ATTRIBUTION_INCOMPLETE, bankMembersOf, checkBank, type ActiveKcs } from '../references/bank-contract.ts';
import { kcRegistryView } from '../kc-tags/kc-tags.service.ts';
import { currentTrust, itemOfVersion, lockTrust, requireItemRow, versionNotFound } from '../queries.ts';
import { EligibilityQuery } from '../eligibility/eligibility.service.ts';
import { tenantRows } from '../../../platform/tenant-rows.ts';
import type { BodyWrite, VersionRead } from '../inputs.ts';

/**
 * Test-serve (rule 8): a demo and test-cohort authorization, separate from release eligibility.
 * It needs one active server-side grant (a provisioned test_serve_grant policy row), an active
 * person whose reality, as the people service says, is test or synthetic, and exact
 * practice-eligible bank or form versions that are not retired, archived, failed-trust, blocked or
 * revoked. Nothing the caller sends (flags, identity prefixes) can stand in for those facts; no
 * answer from the people service means no authorization.
 */

export const NOT_AUTHORIZED = 'content.test_serve_not_authorized';
const SERVABLE_KINDS: ReadonlySet<string> = new Set(['test_bank', 'test']);

interface VersionFacts {
  item: typeof items.$inferSelect;
  trustStatus: TrustStatus;
  published: boolean;
}

async function versionFacts(
  db: Database,
  tenantId: string,
  contentId: string,
  versionId: string,
): Promise<VersionFacts> {
  const ids = z.uuid();
  if (!ids.safeParse(contentId).success || !ids.safeParse(versionId).success)
    throw versionNotFound(contentId, versionId);
  const [row] = await db
    .select({ item: items })
    .from(versions)
    .innerJoin(items, itemOfVersion)
    .where(tenantRows(versions, tenantId, { versionId, contentId }));
  if (!row) throw versionNotFound(contentId, versionId);
  const [published] = await db
    .select({ id: versionPublications.versionId })
    .from(versionPublications)
    .where(tenantRows(versionPublications, tenantId, { versionId }));
  return {
    item: row.item,
    trustStatus: await currentTrust(db, tenantId, versionId),
    published: Boolean(published),
  };
}

/** Why an exact version may not be test-served (empty when it may). */
async function versionReasons(
  db: Database,
  tenantId: string,
  facts: VersionFacts,
  field: string,
): Promise<FieldError[]> {
  const reasons: FieldError[] = [];
  const { item } = facts;
  if (!SERVABLE_KINDS.has(item.contentKind))
    reasons.push({ field, message: `a ${item.contentKind} is not a bank or form` });
  if (item.usageScope !== 'practice_eligible') reasons.push({ field, message: `usage_scope ${item.usageScope}` });
  if (item.status === 'retired' || item.status === 'archived') reasons.push({ field, message: `item ${item.status}` });
  if (facts.trustStatus === 'failed') reasons.push({ field, message: 'trust failed' });
  const blocks = await db
    .select({ value: policies.value })
    .from(policies)
    .where(tenantRows(policies, tenantId, { policyKey: 'test_serve_block', status: 'active' }));
  if (blocks.some((block) => (block.value as { content_id?: string }).content_id === item.contentId))
    reasons.push({ field, message: 'blocked by policy' });
  return reasons;
}

/** The active grant of this caller, if any. */
async function activeGrant(db: Database, ctx: RequestContext): Promise<string | undefined> {
  const grants = await db
    .select({ policyId: policies.policyId, value: policies.value })
    .from(policies)
    .where(tenantRows(policies, ctx.tenantId, { policyKey: 'test_serve_grant', status: 'active' }));
  const mine = grants.filter((grant) => {
    const subjects = (grant.value as { subjects?: unknown }).subjects;
    return !Array.isArray(subjects) || subjects.includes(ctx.principal.subject);
  });
  return mine.length === 1 ? mine[0].policyId : undefined;
}

async function personReasons(
  deps: ContentDeps,
  ctx: RequestContext,
  personId: string,
): Promise<{ reasons: FieldError[]; reality: string | null }> {
  const lookup = await deps.people.lookup(ctx, personId);
  if (lookup.outcome === 'failed')
    return {
      reasons: [{ field: 'test_identity_id', message: `the people service gave no answer (${lookup.reason})` }],
      reality: null,
    };
  if (lookup.outcome === 'not_found')
    return { reasons: [{ field: 'test_identity_id', message: 'no such person' }], reality: null };
  const { person } = lookup;
  const reasons: FieldError[] = [];
  if (person.reality !== 'test' && person.reality !== 'synthetic')
    reasons.push({ field: 'test_identity_id', message: `person reality is ${person.reality ?? 'not stated'}` });
  // Fails closed: an answer that does not say the person is active does not make it active.
  if (person.status !== 'active')
    reasons.push({ field: 'test_identity_id', message: `person is ${person.status ?? 'of unstated status'}` });
  return { reasons, reality: person.reality ?? null };
}

export const TestServeEligibilityQuery = EligibilityQuery.extend({
  test_identity_id: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe('A people service personId to serve the test as; it must be an active test or synthetic identity'),
}).strict();

export async function readTestServeEligibility(
  deps: ContentDeps,
  ctx: RequestContext,
  { contentId, versionId, query: rawQuery }: VersionRead,
) {
  requireAccess(ctx.principal, ACCESS.read, 'read test-serve eligibility');
  const query = parseInput(TestServeEligibilityQuery, rawQuery);
  const facts = await versionFacts(deps.db, ctx.tenantId, contentId, versionId);
  const reasons = await versionReasons(deps.db, ctx.tenantId, facts, 'content_version_id');
  if (!(await activeGrant(deps.db, ctx)))
    reasons.push({ field: 'grant', message: 'no single active test-serve grant for this caller' });
  if (query.test_identity_id !== undefined)
    reasons.push(...(await personReasons(deps, ctx, query.test_identity_id)).reasons);
  const eligibility = {
    content_id: contentId,
    content_version_id: versionId,
    content_kind: facts.item.contentKind,
    usage_scope: facts.item.usageScope,
    trust_status: facts.trustStatus,
    test_serve_eligible: reasons.length === 0,
    problem_code: reasons.length === 0 ? null : NOT_AUTHORIZED,
    reasons: reasons.map((reason) => `${reason.field}: ${reason.message}`),
  };
  if (reasons.length > 0) {
    throw new DomainError(NOT_AUTHORIZED, `Version ${versionId} may not be test-served.`, {
      fieldErrors: reasons,
      extensions: { eligibility },
    });
  }
  return eligibility;
}

export const TestServeAuthorizationInput = nullMeansAbsent(
  z
    .object({
      bank_content_id: uuidRef(),
      bank_version_id: uuidRef(),
      form_content_id: uuidRef(),
      form_version_id: uuidRef(),
      test_identity_id: z.string().min(1).max(200),
      producer_surface: EligibilityQuery.shape.producer_surface,
    })
    .strict(),
);

type TestServeSelection = z.infer<typeof TestServeAuthorizationInput>;

const notAuthorized = (reasons: FieldError[]) =>
  new DomainError(NOT_AUTHORIZED, 'The test-serve selection is not authorized; nothing was recorded.', {
    fieldErrors: reasons,
  });

/**
 * Every fact of the selection but the person: both exact versions, the draft bank, every active
 * bank_member row of that bank version (limit 2: each row's contract, each form's tagged graph),
 * the chosen form among them, and the caller's grant. Answers the grant; refuses otherwise.
 */
async function checkSelection(
  db: Database,
  ctx: RequestContext,
  input: TestServeSelection,
  activeKcs: ActiveKcs,
): Promise<string> {
  const bank = await versionFacts(db, ctx.tenantId, input.bank_content_id, input.bank_version_id);
  const form = await versionFacts(db, ctx.tenantId, input.form_content_id, input.form_version_id);
  const reasons = [
    ...(await versionReasons(db, ctx.tenantId, bank, 'bank_version_id')),
    ...(await versionReasons(db, ctx.tenantId, form, 'form_version_id')),
  ];
  if (bank.item.contentKind !== 'test_bank') reasons.push({ field: 'bank_content_id', message: 'not a test_bank' });
  if (form.item.contentKind !== 'test') reasons.push({ field: 'form_content_id', message: 'not a test form' });
  if (bank.published || bank.item.status !== 'draft')
    reasons.push({ field: 'bank_version_id', message: 'only a draft bank version is test-served' });
  if (reasons.length === 0) {
    checkBank(bank.item);
    const { members } = await bankMembersOf(db, ctx.tenantId, input.bank_content_id, input.bank_version_id, activeKcs);
    const unready = members.find((member) => !member.ready);
    if (unready)
      throw new DomainError(ATTRIBUTION_INCOMPLETE, `Bank member ${unready.ordinal}: ${unready.not_ready_reason}`);
    const chosen = members.some(
      (member) => member.form_content_id === input.form_content_id && member.form_version_id === input.form_version_id,
    );
    if (!chosen)
      reasons.push({ field: 'form_version_id', message: 'not an active bank_member of that exact bank version' });
  }
  const grantId = await activeGrant(db, ctx);
  if (!grantId) reasons.push({ field: 'grant', message: 'no single active test-serve grant for this caller' });
  if (reasons.length > 0 || !grantId) throw notAuthorized(reasons);
  return grantId;
}

/**
 * Revalidates one exact draft bank-to-form selection and appends its immutable receipt. The people
 * service is asked only once everything else holds and before the transaction (no lock is held
 * over a network call); the transaction then locks the bank (membership), the form (its graph) and
 * both versions' trust, revalidates every fact and appends the receipt, so no change can land
 * between the check and the receipt.
 */
export async function authorizeTestServe(deps: ContentDeps, ctx: RequestContext, { body: rawInput }: BodyWrite) {
  requireAccess(ctx.principal, ACCESS.read, 'authorize test serving');
  const input = parseInput(TestServeAuthorizationInput, rawInput);
  const registry = kcRegistryView(deps, ctx);
  await checkSelection(deps.db, ctx, input, registry.active);
  const person = await personReasons(deps, ctx, input.test_identity_id);
  if (person.reasons.length > 0 || !person.reality) throw notAuthorized(person.reasons);
  const personReality = person.reality;
  const receipt = await deps.db.transaction(async (tx) => {
    await requireItemRow(tx, ctx.tenantId, input.bank_content_id, { lock: true });
    await requireItemRow(tx, ctx.tenantId, input.form_content_id, { lock: true });
    await lockTrust(tx, ctx.tenantId, input.bank_version_id);
    await lockTrust(tx, ctx.tenantId, input.form_version_id);
    const grantId = await checkSelection(tx, ctx, input, registry.confirmed);
    const [row] = await tx
      .insert(testServeAuthorizations)
      .values({
        tenantId: ctx.tenantId,
        authorizationId: randomUUID(),
        bankContentId: input.bank_content_id,
        bankVersionId: input.bank_version_id,
        formContentId: input.form_content_id,
        formVersionId: input.form_version_id,
        testIdentityId: input.test_identity_id,
        personReality,
        grantPolicyId: grantId,
        producerSurface: input.producer_surface ?? null,
        authorizedBy: ctx.principal.subject,
        authorizedAt: ctx.now.toISOString(),
      })
      .returning();
    return row;
  });
  return {
    authorization_id: receipt.authorizationId,
    bank_content_id: receipt.bankContentId,
    bank_version_id: receipt.bankVersionId,
    form_content_id: receipt.formContentId,
    form_version_id: receipt.formVersionId,
    test_identity_id: receipt.testIdentityId,
    person_reality: receipt.personReality,
    grant_policy_id: receipt.grantPolicyId,
    authorized_by: receipt.authorizedBy,
    authorized_at: isoTimestamp(receipt.authorizedAt),
  };
}
