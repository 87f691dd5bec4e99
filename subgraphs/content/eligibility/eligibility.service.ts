import { and, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { prepareOncePerDatabase, type Database } from '../../../platform/db.ts';
import { groupCommit } from '../../../platform/group-commit.ts';
import type { RequestContext } from '../../../platform/context.ts';
import { requireAccess } from '../../../platform/auth.ts';
import { DomainError } from '../../../platform/errors.ts';
import { isoTimestamp, isUuid, parseInput } from '../../../platform/validation.ts';
import { QueryBuilder } from 'drizzle-orm/pg-core';
import { items, versionPublications, versions } from '../tables.ts';
import { SEPARATELY_PUBLISHED_KINDS, type TrustStatus } from '../vocabulary.ts';
import { ACCESS } from '../access.ts';
import type { ContentDeps } from '../deps.ts';
import { SERVEABLE_TRUST, type ReleaseEligibility } from '../../../platform/contract.ts';
import type { ContentVersion } from '../versions/versions.service.ts';
import { itemOfVersion, versionNotFound, versionTrust } from '../queries.ts';
import type { VersionKeys, VersionRead } from '../inputs.ts';

/**
 * Release eligibility of exact versions. The one rule: release_eligible = serveable = the version is
 * published, its item is neither retired nor archived, and its trust is trusted or degraded. Missing
 * trust is unknown. Nothing is cached: a trust flip is seen by the very next read.
 */

export const NOT_SERVEABLE = 'content.version_not_serveable';

export interface EligibilityFacts {
  contentKind: string;
  itemStatus: string;
  versionPublished: boolean;
  trustStatus: TrustStatus | null;
}

/** The eligibility rule, as a pure function of the facts. */
export function isServeable(facts: EligibilityFacts): boolean {
  const published = SEPARATELY_PUBLISHED_KINDS.has(facts.contentKind)
    ? facts.versionPublished
    : facts.itemStatus === 'published';
  const live = facts.itemStatus !== 'retired' && facts.itemStatus !== 'archived';
  const trusted = facts.trustStatus !== null && SERVEABLE_TRUST.has(facts.trustStatus);
  return published && live && trusted;
}

const publishedVersion = sql<boolean>`exists (select 1 from ${versionPublications}
    where ${versionPublications.tenantId} = ${versions.tenantId} and ${versionPublications.versionId} = ${versions.versionId})`;

/** An exact version without its body (student_view, canonical_xml), which callers load only when asked. */
export type VersionHeader = Omit<ContentVersion, 'student_view' | 'canonical_xml'>;

export interface VersionWithEligibility {
  version: VersionHeader;
  eligibility: ReleaseEligibility;
}

const versionHeaderColumns = {
  versionId: versions.versionId,
  contentId: versions.contentId,
  versionNumber: versions.versionNumber,
  supersedesVersionId: versions.supersedesVersionId,
  contentHash: versions.contentHash,
  createdAt: versions.createdAt,
};

// The item's facts as a lateral subquery fenced by LIMIT 1 (one item per version, so the limit changes no
// answer): the planner cannot flatten it into a join it may reorder, so every plan starts from the versions
// asked for (by primary key) and looks each one's item up by key. As a plain join, PostgreSQL's generic
// plan, which cannot know the tenant, judged a tenant's items few and walked all of them on every call
// once the tenant had thousands (4.9 ms instead of 0.1).
const itemOfEachVersion = new QueryBuilder()
  .select({ contentKind: items.contentKind, usageScope: items.usageScope, itemStatus: items.status })
  .from(items)
  .where(itemOfVersion)
  .limit(1)
  .as('item_of_version');

/** The versions asked for: a list of ids by default, or one key (`versionId`) for a single read. */
const askedVersions = {
  list: sql`${versions.versionId} = any(${sql.placeholder('versionIds')}::uuid[])`,
  key: eq(versions.versionId, sql.placeholder('versionId')),
};

/** The hottest query of the platform (every pin read and every launch check); exported for its plan's test. */
export const eligibilityQuery = (db: Database, asked: keyof typeof askedVersions = 'list') =>
  db
    .select({
      version: versionHeaderColumns,
      contentKind: itemOfEachVersion.contentKind,
      usageScope: itemOfEachVersion.usageScope,
      itemStatus: itemOfEachVersion.itemStatus,
      trustStatus: versionTrust,
      versionPublished: publishedVersion,
    })
    .from(versions)
    .innerJoinLateral(itemOfEachVersion, sql`true`)
    .where(and(eq(versions.tenantId, sql.placeholder('tenantId')), askedVersions[asked]));

const eligibilityStatement = prepareOncePerDatabase((db) =>
  eligibilityQuery(db).prepare('content_versions_with_eligibility'),
);

/**
 * One version by its key, the pin check's, the REST read's and the headline's case: PGlite's generic
 * plan of the list form (no autovacuum, no fresh statistics) scans the tenant's versions, 0.1 ms on
 * five and 17 ms on 40,000, and planning it again does not mend it; the key equality takes the primary key.
 */
const eligibilityByKey = prepareOncePerDatabase((db) =>
  eligibilityQuery(db, 'key').prepare('content_version_with_eligibility_by_key'),
);

/**
 * Exact versions with their eligibility, in one SQL statement for any number of ids: the batch
 * behind the ContentVersion loader and the REST read alike. Bodies stay in the database: the hot
 * path (a pin and its eligibility) never moves content bytes it does not show.
 */
async function findVersionsWithEligibility(
  db: Database,
  tenantId: string,
  versionIds: readonly string[],
): Promise<Map<string, VersionWithEligibility>> {
  const valid = [...new Set(versionIds)].filter(isUuid);
  const found = new Map<string, VersionWithEligibility>();
  if (valid.length === 0) return found;
  const rows =
    valid.length === 1
      ? await eligibilityByKey(db).execute({ tenantId, versionId: valid[0] })
      : await eligibilityStatement(db).execute({ tenantId, versionIds: valid });
  for (const row of rows) {
    const serveable = isServeable({
      contentKind: row.contentKind,
      itemStatus: row.itemStatus,
      versionPublished: row.versionPublished,
      trustStatus: row.trustStatus,
    });
    found.set(row.version.versionId, {
      version: {
        version_id: row.version.versionId,
        content_id: row.version.contentId,
        version_number: row.version.versionNumber,
        supersedes_version_id: row.version.supersedesVersionId,
        content_hash: row.version.contentHash,
        created_at: isoTimestamp(row.version.createdAt),
      },
      eligibility: {
        content_id: row.version.contentId,
        content_version_id: row.version.versionId,
        content_kind: row.contentKind,
        usage_scope: row.usageScope,
        trust_status: row.trustStatus,
        serveable,
        release_eligible: serveable,
        problem_code: serveable ? null : NOT_SERVEABLE,
      },
    });
  }
  return found;
}

/**
 * Access-checked batch behind the ContentVersion loader. A batch of one version (a pin's, the headline's)
 * is read as the REST read is, together with the tenant's other reads of the moment: the headline's
 * eligibility statement was shared by the headlines in flight, 46% more headlines a second on PGlite
 * and 10% on PostgreSQL in alternated rounds (sixteenth pass, docs/performance-history.md).
 */
export async function loadVersionsWithEligibility(deps: ContentDeps, ctx: RequestContext, { versionIds }: VersionKeys) {
  requireAccess(ctx.principal, ACCESS.read, 'read content versions');
  const { db } = deps;
  if (versionIds.length === 1) {
    const [versionId] = versionIds;
    const found = await versionWithEligibilityTogether(db, ctx.tenantId, versionId);
    return new Map(found ? [[versionId, found]] : []);
  }
  return findVersionsWithEligibility(db, ctx.tenantId, versionIds);
}

/**
 * Single versions of a tenant (the REST read's, the loader's batches of one), read together: the reads that
 * arrive while one runs share the next statement, which starts after each of them was asked (nothing is
 * answered from an earlier read).
 */
const versionWithEligibilityTogether = groupCommit(async (db: Database, tenantId: string, versionIds: string[]) => {
  // Each distinct version by its key (one read for all who asked for it). Measured again once statistics
  // followed growth (tenth pass in docs/performance-history.md, a tenant of 5,000 and 40,000 versions): four
  // reads by key cost PGlite 170-210 us against 520-840 for the list form of the same four, and PostgreSQL
  // about the same either way.
  const reads = [...new Set(versionIds)].map((versionId) => findVersionsWithEligibility(db, tenantId, [versionId]));
  const found = new Map((await Promise.all(reads)).flatMap((read) => [...read]));
  return versionIds.map((versionId) => found.get(versionId));
});

export const EligibilityQuery = z
  .object({
    producer_surface: z
      .string()
      .regex(/^[a-z0-9][a-z0-9_.:-]{0,63}$/, 'a lower-case surface name')
      .optional()
      .describe('Validated, never returned, selects no lane'),
  })
  .strict();

/** The REST read: the eight fields when eligible, otherwise the typed problem carrying them. */
export async function readReleaseEligibility(
  deps: ContentDeps,
  ctx: RequestContext,
  { contentId, versionId, query: rawQuery }: VersionRead,
): Promise<ReleaseEligibility> {
  requireAccess(ctx.principal, ACCESS.read, 'read release eligibility');
  const { db } = deps;
  parseInput(EligibilityQuery, rawQuery);
  const found = await versionWithEligibilityTogether(db, ctx.tenantId, versionId);
  if (!found || found.version.content_id !== contentId) throw versionNotFound(contentId, versionId);
  if (!found.eligibility.release_eligible) {
    throw new DomainError(
      NOT_SERVEABLE,
      `Version ${versionId} is not release eligible (trust ${found.eligibility.trust_status}).`,
      {
        extensions: { eligibility: found.eligibility },
      },
    );
  }
  return found.eligibility;
}
