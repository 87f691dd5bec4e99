import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Database } from '../../../platform/db.ts';
import type { RequestContext } from '../../../platform/context.ts';
import { requireAccess } from '../../../platform/auth.ts';
import { DomainError } from '../../../platform/errors.ts';
import { parseInput } from '../../../platform/validation.ts';
import { contentReferences, items } from '../tables.ts';
import { ACCESS } from '../access.ts';
import type { ContentDeps } from '../deps.ts';
import { VersionQuery } from '../questions/questions.service.ts';
import { resolveVersion } from '../queries.ts';
import { kcRegistryView } from '../kc-tags/kc-tags.service.ts';
import {
  ATTRIBUTION_INCOMPLETE,
  checkFormGraph,
  checkMemberShape,
  embeddedKcIds,
  type ActiveKcs,
} from './bank-contract.ts';

/**
 * GET /bank-members: the bank_member rows of one exact bank version in exact graph order and
 * multiplicity, each validated (a malformed current or historical row fails the read with the
 * typed 409), with readiness: a member is ready when its form's question graph is complete and
 * tagged. Routine practice selects only practice_eligible ready members (rule 6).
 */

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

/** The members and readiness of one exact bank version; GET /bank-members and test-serve judge them alike. */
export async function bankMembersOf(
  db: Database,
  tenantId: string,
  contentId: string,
  versionId: string | undefined,
  activeKcs: ActiveKcs,
): Promise<TestBankMembers> {
  const { version } = await resolveVersion(db, tenantId, contentId, versionId);
  const [bank] = await db
    .select()
    .from(items)
    .where(and(eq(items.tenantId, tenantId), eq(items.contentId, contentId)));
  if (bank.contentKind !== 'test_bank')
    throw new DomainError('not_found', `Content item ${contentId} is a ${bank.contentKind}, not a test_bank.`);
  const rows = await db
    .select()
    .from(contentReferences)
    .where(
      and(
        eq(contentReferences.tenantId, tenantId),
        eq(contentReferences.contentId, contentId),
        eq(contentReferences.parentVersionId, version.versionId),
        eq(contentReferences.relationshipKind, 'bank_member'),
      ),
    )
    .orderBy(asc(contentReferences.ordinal), asc(contentReferences.createdAt));
  const members: BankMember[] = [];
  const formIds = [...new Set(rows.map((row) => row.referencedContentId))];
  const forms =
    formIds.length === 0
      ? []
      : await db
          .select()
          .from(items)
          .where(and(eq(items.tenantId, tenantId), inArray(items.contentId, formIds)));
  const scopeOf = new Map(forms.map((form) => [form.contentId, form.usageScope]));
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
    await checkMemberShape(db, tenantId, bank, row);
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
    const usageScope = scopeOf.get(row.referencedContentId) ?? 'unknown';
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

export async function readBankMembers(
  deps: ContentDeps,
  ctx: RequestContext,
  { contentId, query: rawQuery }: { contentId: string; query: unknown },
): Promise<TestBankMembers> {
  requireAccess(ctx.principal, ACCESS.read, 'read bank members');
  const query = parseInput(VersionQuery, rawQuery);
  return bankMembersOf(deps.db, ctx.tenantId, contentId, query.version_id, kcRegistryView(deps, ctx).active);
}
