import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Database } from '../../../platform/db.ts';
import { DomainError } from '../../../platform/errors.ts';
import { contentReferences, items, kcTags, versionPublications, versions } from '../tables.ts';
import { currentTrust, referencedItem, requireItemRow, resolveVersion } from '../queries.ts';
import { tenantRows } from '../../../platform/tenant-rows.ts';

/**
 * Rule 7, the test bank member contract, in one place: used when a bank_member row is created or
 * retired, when bankMembersOf validates every row (GET /bank-members and test-serve authorization).
 */

export const INVALID_MEMBER = 'content.invalid_test_bank_member_contract';
export const ATTRIBUTION_INCOMPLETE = 'content.bank_kc_attribution_incomplete';
export const MEMBERSHIP_FROZEN = 'content.bank_membership_frozen';
const BANK_RULES: ReadonlySet<string> = new Set(['same_blueprint_fixed_forms', 'pp100_adaptive_shards']);

type ItemRow = typeof items.$inferSelect;
export interface MemberShape {
  parentVersionId: string | null;
  referencedContentId: string;
  referencedVersionId: string | null;
  ordinal: number | null;
}

const invalid = (detail: string) => new DomainError(INVALID_MEMBER, detail);
const incomplete = (detail: string) => new DomainError(ATTRIBUTION_INCOMPLETE, detail);

async function versionOwner(db: Database, tenantId: string, versionId: string): Promise<string | undefined> {
  const [row] = await db
    .select({ contentId: versions.contentId })
    .from(versions)
    .where(tenantRows(versions, tenantId, { versionId }));
  return row?.contentId;
}

/** The bank itself may hold bank_member rows (kind, role, rule). */
export function checkBank(bank: ItemRow): void {
  if (bank.contentKind !== 'test_bank' || bank.assessmentRole !== 'bank') {
    throw invalid(`bank_member rows belong to an assessment_role=bank test_bank, not a ${bank.contentKind}.`);
  }
  if (bank.membershipRule === 'qti_adaptive_selection')
    throw invalid('A qti_adaptive_selection bank takes no parallel bank_member rows.');
  if (!bank.membershipRule || !BANK_RULES.has(bank.membershipRule)) {
    throw invalid(`The bank's membership_rule ${bank.membershipRule ?? '(none)'} does not take bank_member rows.`);
  }
}

/** Membership changes only while the bank is an unretired draft whose exact version has unknown trust. */
export async function checkNotFrozen(
  db: Database,
  tenantId: string,
  bank: ItemRow,
  parentVersionId: string,
): Promise<void> {
  const [published] = await db
    .select({ id: versionPublications.versionId })
    .from(versionPublications)
    .where(tenantRows(versionPublications, tenantId, { versionId: parentVersionId }));
  const trust = await currentTrust(db, tenantId, parentVersionId);
  if (bank.status !== 'draft' || published || trust !== 'unknown') {
    throw new DomainError(
      MEMBERSHIP_FROZEN,
      `Bank ${bank.contentId} membership is frozen (status ${bank.status}${published ? ', version published' : ''}, trust ${trust}).`,
    );
  }
}

/** The structural contract of one row: exact versions of the right owners, a form target, an index. */
export async function checkMemberShape(
  db: Database,
  tenantId: string,
  bank: ItemRow,
  member: MemberShape,
): Promise<ItemRow> {
  if (!member.parentVersionId || !member.referencedVersionId) {
    throw invalid('bank_member needs explicit exact parent_version_id and referenced_version_id.');
  }
  if (member.ordinal === null || !Number.isInteger(member.ordinal) || member.ordinal < 1)
    throw invalid('bank_member needs a positive integer ordinal (index).');
  if ((await versionOwner(db, tenantId, member.parentVersionId)) !== bank.contentId)
    throw invalid('parent_version_id is not a version of this bank.');
  const [form] = await db
    .select()
    .from(items)
    .where(tenantRows(items, tenantId, { contentId: member.referencedContentId }));
  if (!form || form.contentKind !== 'test' || form.assessmentRole !== 'form')
    throw invalid('A bank_member targets an assessment_role=form test.');
  if ((await versionOwner(db, tenantId, member.referencedVersionId)) !== form.contentId)
    throw invalid('referenced_version_id is not a version of the referenced form.');
  return form;
}

/** Which of these KCs curriculum's registry confirms active (the KC tag's attribution test). */
export type ActiveKcs = (kcIds: readonly string[]) => Promise<ReadonlySet<string>>;

/** The distinct KCs of the active tags of every question embedded by these exact form versions. */
export async function embeddedKcIds(
  db: Database,
  tenantId: string,
  forms: ReadonlyArray<{ contentId: string; versionId: string }>,
): Promise<string[]> {
  if (forms.length === 0) return [];
  const rows = await db
    .selectDistinct({ kcId: kcTags.kcId })
    .from(contentReferences)
    .innerJoin(
      kcTags,
      and(
        eq(kcTags.tenantId, contentReferences.tenantId),
        eq(kcTags.contentId, contentReferences.referencedContentId),
        eq(kcTags.status, 'active'),
      ),
    )
    .where(
      tenantRows(
        contentReferences,
        tenantId,
        { relationshipKind: 'embeds', status: 'active' },
        inArray(
          contentReferences.parentVersionId,
          forms.map((form) => form.versionId),
        ),
        inArray(
          contentReferences.contentId,
          forms.map((form) => form.contentId),
        ),
      ),
    );
  return rows.map((row) => row.kcId);
}

export interface FormGraph {
  question_count: number;
  tagged_question_count: number;
}

/**
 * The exact ordered embeds graph of a form version, every embedded question with an active KC
 * tag whose KC the registry confirms active now (a tag to a KC retired later stops counting).
 * Throws bank_kc_attribution_incomplete when missing, empty, ambiguous or untagged.
 */
export async function checkFormGraph(
  db: Database,
  tenantId: string,
  formContentId: string,
  formVersionId: string,
  activeKcs: ActiveKcs,
): Promise<FormGraph> {
  const embeds = await db
    .select({
      ordinal: contentReferences.ordinal,
      questionId: contentReferences.referencedContentId,
      questionVersionId: contentReferences.referencedVersionId,
      kind: items.contentKind,
    })
    .from(contentReferences)
    .leftJoin(items, referencedItem)
    .where(
      tenantRows(contentReferences, tenantId, {
        contentId: formContentId,
        parentVersionId: formVersionId,
        relationshipKind: 'embeds',
        status: 'active',
      }),
    );
  if (embeds.length === 0) throw incomplete(`Form version ${formVersionId} embeds no questions.`);
  const ordinals = embeds.map((edge) => edge.ordinal);
  if (ordinals.some((ordinal) => ordinal === null) || new Set(ordinals).size !== ordinals.length) {
    throw incomplete(`The embeds graph of form version ${formVersionId} is ambiguous (missing or repeated ordinals).`);
  }
  if (embeds.some((edge) => edge.kind !== 'question' || edge.questionVersionId === null)) {
    throw incomplete(`Form version ${formVersionId} embeds something other than exact question versions.`);
  }
  const questionIds = [...new Set(embeds.map((edge) => edge.questionId))];
  const tags = await db
    .select({ contentId: kcTags.contentId, kcId: kcTags.kcId })
    .from(kcTags)
    .where(tenantRows(kcTags, tenantId, { status: 'active' }, inArray(kcTags.contentId, questionIds)));
  const active = await activeKcs([...new Set(tags.map((tag) => tag.kcId))]);
  const taggedIds = new Set(tags.filter((tag) => active.has(tag.kcId)).map((tag) => tag.contentId));
  const untagged = questionIds.filter((id) => !taggedIds.has(id));
  if (untagged.length > 0)
    throw incomplete(`Embedded question(s) ${untagged.join(', ')} have no active KC tag to an active registry KC.`);
  return { question_count: embeds.length, tagged_question_count: embeds.length };
}

export interface BankMember {
  reference_id: string;
  ordinal: number;
  form_content_id: string;
  form_version_id: string;
  usage_scope: string;
  practice_eligible: boolean;
  ready: boolean;
  question_count: number;
  not_ready_reason: string | null;
}

export interface TestBankMembers {
  content_id: string;
  version_id: string;
  membership_rule: string | null;
  members: BankMember[];
  readiness: {
    member_count: number;
    ready_count: number;
    practice_eligible_ready_count: number;
    question_count: number;
  };
}

/**
 * The bank_member rows of one exact bank version in exact graph order and multiplicity, each
 * validated (a malformed current or historical row fails the read with the typed 409), with
 * readiness: a member is ready when its form's question graph is complete and tagged. Routine
 * practice selects only practice_eligible ready members. GET /bank-members and test-serve judge
 * a bank alike through this.
 */
export async function bankMembersOf(
  db: Database,
  tenantId: string,
  contentId: string,
  versionId: string | undefined,
  activeKcs: ActiveKcs,
): Promise<TestBankMembers> {
  const { version } = await resolveVersion(db, tenantId, contentId, versionId);
  const bank = await requireItemRow(db, tenantId, contentId);
  if (bank.contentKind !== 'test_bank')
    throw new DomainError('not_found', `Content item ${contentId} is a ${bank.contentKind}, not a test_bank.`);
  const rows = await db
    .select()
    .from(contentReferences)
    .where(
      tenantRows(contentReferences, tenantId, {
        contentId,
        parentVersionId: version.versionId,
        relationshipKind: 'bank_member',
      }),
    )
    .orderBy(asc(contentReferences.ordinal), asc(contentReferences.createdAt));
  const members: BankMember[] = [];
  // One registry question per KC of the whole bank, before the rows are judged one by one.
  const activeForms = rows.filter((row) => row.status === 'active' && row.referencedVersionId !== null);
  await activeKcs(
    await embeddedKcIds(
      db,
      tenantId,
      activeForms.map((row) => ({ contentId: row.referencedContentId, versionId: row.referencedVersionId! })),
    ),
  );
  for (const row of rows) {
    const form = await checkMemberShape(db, tenantId, bank, row);
    if (row.status !== 'active') continue;
    let ready = true;
    let questionCount = 0;
    let reason: string | null = null;
    try {
      questionCount = (await checkFormGraph(db, tenantId, row.referencedContentId, row.referencedVersionId!, activeKcs))
        .question_count;
    } catch (error) {
      if (!(error instanceof DomainError) || error.code !== ATTRIBUTION_INCOMPLETE) throw error;
      ready = false;
      reason = error.message;
    }
    const usageScope = form.usageScope;
    members.push({
      reference_id: row.referenceId,
      ordinal: row.ordinal!,
      form_content_id: row.referencedContentId,
      form_version_id: row.referencedVersionId!,
      usage_scope: usageScope,
      practice_eligible: usageScope === 'practice_eligible',
      ready,
      question_count: questionCount,
      not_ready_reason: reason,
    });
  }
  return {
    content_id: contentId,
    version_id: version.versionId,
    membership_rule: bank.membershipRule,
    members,
    readiness: {
      member_count: members.length,
      ready_count: members.filter((member) => member.ready).length,
      practice_eligible_ready_count: members.filter((member) => member.ready && member.practice_eligible).length,
      question_count: members.reduce((sum, member) => sum + member.question_count, 0),
    },
  };
}
