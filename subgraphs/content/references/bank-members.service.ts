import type { RequestContext } from '../../../platform/context.ts';
import { requireAccess } from '../../../platform/auth.ts';
import { parseInput } from '../../../platform/validation.ts';
import { ACCESS } from '../access.ts';
import type { ContentDeps } from '../deps.ts';
import { VersionQuery } from '../questions/questions.service.ts';
import { kcRegistryView } from '../kc-tags/kc-tags.service.ts';
import { bankMembersOf, type TestBankMembers } from './bank-contract.ts';
import type { ItemRead } from '../inputs.ts';

/** GET /bank-members: the members and readiness of one exact bank version (bankMembersOf). */

export async function readBankMembers(
  deps: ContentDeps,
  ctx: RequestContext,
  { contentId, query: rawQuery }: ItemRead,
): Promise<TestBankMembers> {
  requireAccess(ctx.principal, ACCESS.read, 'read bank members');
  const query = parseInput(VersionQuery, rawQuery);
  return bankMembersOf(deps.db, ctx.tenantId, contentId, query.version_id, kcRegistryView(deps, ctx).active);
}
