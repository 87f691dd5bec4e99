import { asc, eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '../../../platform/db.ts';
import type { RequestContext } from '../../../platform/context.ts';
import { requireAccess } from '../../../platform/auth.ts';
import { DomainError } from '../../../platform/errors.ts';
import { type Page } from '../../../platform/cursor.ts';
import { keysetPage, presentPage, uniqueOrder } from '../../../platform/keyset.ts';
import {
  isoTimestamp,
  nullMeansAbsent,
  parseInput,
  webUrl,
  uuidRef,
  listQueryMembers,
} from '../../../platform/validation.ts';
import { curriculumLinks, externalLinks, policies, versions } from '../tables.ts';
import { EXTERNAL_OPEN_POLICIES, TRUST_STATUSES } from '../vocabulary.ts';
import { ACCESS } from '../access.ts';
import type { ContentDeps, ItemList } from '../deps.ts';
import {
  findVersionRows,
  itemNotFound,
  requireItemRecord,
  requireItemRow as requireItem,
  versionNotFound,
  versionTrust,
  wholeList,
} from '../queries.ts';
import { FRESHNESS_WINDOW_DAYS, MINIMUM_EVIDENCE, deriveEffectiveness } from './effectiveness.ts';
import { tenantRows } from '../../../platform/tenant-rows.ts';
import type { ItemKey, ItemRead, ItemWrite, ListRead } from '../inputs.ts';

/**
 * Small item records: the external link of an external_link item, the frozen curriculum-link
 * archive, derived effectiveness (rules in effectiveness.ts), provisioned policies and the trust-status list.
 */

/**
 * Parameter names that carry credentials: a governed link never holds secrets. Compared without case, '-' or '_',
 * so api-key, API_KEY and apikey are one name.
 */
const SECRET_PARAMS =
  /^(token|accesstoken|idtoken|refreshtoken|apikey|key|secret|clientsecret|password|passwd|signature|sig|xamzsignature|xamzcredential|xamzsecuritytoken|auth|session|sessionid)$/;

/** The parameter names of a URL: its query's, and its fragment's when the fragment is name=value pairs. */
function parameterNames(url: URL): string[] {
  // OAuth's implicit flow hands access_token=... back in the fragment; a plain anchor (#key) names no parameter.
  const fragment = url.hash.includes('=') ? [...new URLSearchParams(url.hash.slice(1)).keys()] : [];
  return [...url.searchParams.keys(), ...fragment];
}

export const ExternalLinkInput = nullMeansAbsent(
  z
    .object({
      url: webUrl().superRefine((value, issues) => {
        // zod runs this refinement even when the URL check failed; that failure is reported already.
        if (!URL.canParse(value)) return;
        const url = new URL(value);
        if (url.username || url.password)
          issues.addIssue({ code: 'custom', message: 'credentials in the URL are not accepted' });
        for (const name of parameterNames(url)) {
          if (SECRET_PARAMS.test(name.toLowerCase().replace(/[-_]/g, '')))
            issues.addIssue({ code: 'custom', message: `parameter ${name} looks like a secret` });
        }
      }),
      external_open_policy: z.enum(EXTERNAL_OPEN_POLICIES),
      provider: z.string().trim().min(1).max(200).optional(),
      title: z.string().trim().min(1).max(500).optional(),
    })
    .strict(),
);

type LinkRow = typeof externalLinks.$inferSelect;
const presentLink = (row: LinkRow) => ({
  content_id: row.contentId,
  url: row.url,
  external_open_policy: row.externalOpenPolicy,
  provider: row.provider,
  title: row.title,
  updated_by: row.updatedBy,
  updated_at: isoTimestamp(row.updatedAt),
});
export type ExternalLink = ReturnType<typeof presentLink>;

export async function putExternalLink(
  deps: ContentDeps,
  ctx: RequestContext,
  { contentId, body: rawInput }: ItemWrite,
) {
  requireAccess(ctx.principal, ACCESS.author, 'write external links');
  const { db } = deps;
  const input = parseInput(ExternalLinkInput, rawInput);
  const item = await requireItem(db, ctx.tenantId, contentId);
  if (item.contentKind !== 'external_link') {
    throw new DomainError(
      'validation_failed',
      `Content item ${contentId} is a ${item.contentKind}; only external_link items hold an external link.`,
      {
        fieldErrors: [{ field: 'content_kind', message: 'must be external_link' }],
      },
    );
  }
  const values = {
    url: input.url,
    externalOpenPolicy: input.external_open_policy,
    provider: input.provider ?? null,
    title: input.title ?? null,
    updatedBy: ctx.principal.subject,
    updatedAt: ctx.now.toISOString(),
  };
  return db.transaction(async (tx) => {
    const key = tenantRows(externalLinks, ctx.tenantId, { contentId });
    const [existing] = await tx.select({ id: externalLinks.contentId }).from(externalLinks).where(key).for('update');
    const [row] = existing
      ? await tx.update(externalLinks).set(values).where(key).returning()
      : await tx
          .insert(externalLinks)
          .values({ tenantId: ctx.tenantId, contentId, ...values })
          .onConflictDoUpdate({ target: [externalLinks.tenantId, externalLinks.contentId], set: values })
          .returning();
    return { value: presentLink(row), created: !existing };
  });
}

export async function getExternalLink(deps: ContentDeps, ctx: RequestContext, { contentId }: ItemKey) {
  requireAccess(ctx.principal, ACCESS.read, 'read external links');
  return presentLink(await requireItemRecord(deps.db, ctx.tenantId, externalLinks, contentId, 'external link'));
}

export const listCurriculumLinks: ItemList<unknown> = async (deps, ctx, { contentId }) => {
  requireAccess(ctx.principal, ACCESS.read, 'read the curriculum-link archive');
  const { db } = deps;
  await requireItem(db, ctx.tenantId, contentId);
  const rows = await db
    .select()
    .from(curriculumLinks)
    .where(tenantRows(curriculumLinks, ctx.tenantId, { contentId }))
    .orderBy(asc(curriculumLinks.archivedAt), asc(curriculumLinks.linkId));
  return wholeList(
    rows.map((row) => ({
      link_id: row.linkId,
      content_id: row.contentId,
      curriculum_node_id: row.curriculumNodeId,
      curriculum_link_kind: row.curriculumLinkKind,
      archived_at: isoTimestamp(row.archivedAt),
      frozen: true,
    })),
  );
};

export const EffectivenessQuery = z
  .object({ version_id: uuidRef().optional().describe('An exact version; the newest when absent') })
  .strict();

/**
 * The events service's counts, read with content's service token, span every student and organization of the
 * tenant: a token the events service would narrow to some students or organizations (identity boundary claims) is
 * refused here rather than answered from counts it may not see, and a contentIds bound holds on the item.
 */
function requireCountsInBoundary(ctx: RequestContext, contentId: string): void {
  const { studentIds, orgIds, schoolIds, contentIds } = ctx.principal.boundary;
  const refuse = (field: string, message: string, detail: string) =>
    new DomainError('forbidden', detail, { fieldErrors: [{ field, message }] });
  if (contentIds && !contentIds.includes(contentId)) {
    const detail = `The token may not read learner activity about content ${contentId}.`;
    throw refuse('contentId', "outside the token's contentIds boundary", detail);
  }
  const claim = studentIds ? 'studentIds' : orgIds || schoolIds ? 'orgIds/schoolIds' : undefined;
  if (claim) {
    const detail = `Effectiveness counts every student and organization; a token bounded by ${claim} may not read it.`;
    throw refuse(claim, 'cannot be checked against counts of every student', detail);
  }
}

/**
 * content_effectiveness of one exact version (the newest by default), derived at read time from
 * the events service's counts of that version's events; content stores none of it. Events
 * unreachable or off contract: a typed 503/502, never a guess.
 */
export async function readEffectiveness(
  deps: ContentDeps,
  ctx: RequestContext,
  { contentId, query: rawQuery }: ItemRead,
) {
  requireAccess(ctx.principal, ACCESS.read, 'read effectiveness');
  requireCountsInBoundary(ctx, contentId);
  const query = parseInput(EffectivenessQuery, rawQuery);
  const item = await requireItem(deps.db, ctx.tenantId, contentId);
  const versionId = query.version_id ?? item.latestVersionId;
  if (!versionId) throw itemNotFound(contentId);
  if (query.version_id) {
    const [version] = await findVersionRows(deps.db, ctx.tenantId, [query.version_id]);
    if (!version || version.contentId !== contentId) throw versionNotFound(contentId, query.version_id);
  }
  const tallies = await deps.events.versionTallies(ctx, { contentId, versionId });
  return {
    content_id: contentId,
    content_version_id: versionId,
    ...deriveEffectiveness(tallies, ctx.now),
    minimum_evidence: MINIMUM_EVIDENCE,
    freshness_window_days: FRESHNESS_WINDOW_DAYS,
    derived_at: ctx.now.toISOString(),
  };
}

export async function listPolicies(deps: ContentDeps, ctx: RequestContext): Promise<Page<unknown>> {
  requireAccess(ctx.principal, ACCESS.read, 'read policies');
  const { db } = deps;
  const rows = await db
    .select()
    .from(policies)
    .where(tenantRows(policies, ctx.tenantId))
    .orderBy(asc(policies.policyKey), asc(policies.provisionedAt));
  return wholeList(
    rows.map((row) => ({
      policy_id: row.policyId,
      policy_key: row.policyKey,
      status: row.status,
      value: row.value,
      provisioned_at: isoTimestamp(row.provisionedAt),
    })),
  );
}

export const TrustStatusQuery = z
  .object({
    trust_status: z.enum(TRUST_STATUSES).optional().describe('Only versions of this trust; unknown is the QC queue'),
    limit: listQueryMembers.limit,
    cursor: listQueryMembers.cursor,
  })
  .strict();

/** Current trust of every exact version of the tenant; versions without evidence are unknown. */
export async function listTrustStatus(deps: ContentDeps, ctx: RequestContext, { query: rawQuery }: ListRead) {
  requireAccess(ctx.principal, ACCESS.read, 'read trust status');
  const { db } = deps;
  const query = parseInput(TrustStatusQuery, rawQuery);
  const request = { ...query, tenantId: ctx.tenantId, filters: { trust_status: query.trust_status ?? null } };
  const order = uniqueOrder<{ versionId: string }>(versions.versionId, (row) => row.versionId);
  const page = await keysetPage(deps.cursors, request, order, ({ after, orderBy, limit }) =>
    db
      .select({
        versionId: versions.versionId,
        contentId: versions.contentId,
        versionNumber: versions.versionNumber,
        trustStatus: versionTrust,
      })
      .from(versions)
      .where(
        tenantRows(
          versions,
          ctx.tenantId,
          {},
          after,
          query.trust_status ? eq(versionTrust, query.trust_status) : undefined,
        ),
      )
      .orderBy(...orderBy)
      .limit(limit),
  );
  return presentPage(page, (row) => ({
    content_id: row.contentId,
    version_id: row.versionId,
    version_number: row.versionNumber,
    trust_status: row.trustStatus,
  }));
}
export type VersionTrustStatus = Awaited<ReturnType<typeof listTrustStatus>>['data'][number];

/** The demo tenant's provisioned policies: one test-serve grant for every demo caller. Idempotent. */
export const DEMO_TEST_SERVE_GRANT_ID = '5f0c8a52-6a3e-4c51-9d0e-1b7f4a2e0f01';
export async function provisionDemoPolicies(db: Database, tenantId: string, now: Date): Promise<void> {
  await db
    .insert(policies)
    .values({
      tenantId,
      policyId: DEMO_TEST_SERVE_GRANT_ID,
      policyKey: 'test_serve_grant',
      status: 'active',
      value: { purpose: 'demo and test-cohort serving of draft banks' },
      provisionedBy: 'system:demo-seed',
      provisionedAt: now.toISOString(),
    })
    .onConflictDoNothing();
}
