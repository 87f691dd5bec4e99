import { z } from 'zod';
import type { Database } from '../../../platform/db.ts';
import { requireAccess } from '../../../platform/auth.ts';
import { DomainError, type FieldError } from '../../../platform/errors.ts';
import { runCommand } from '../../../platform/commands.ts';
import { isoTimestamp, parseInput, isUuid, uuidRef } from '../../../platform/validation.ts';
import { contentReferences, items, testSpecBlueprints, versionPublications, versions } from '../tables.ts';
import type { ItemCommand } from '../deps.ts';
import { SEPARATELY_PUBLISHED_KINDS } from '../vocabulary.ts';
import { ACCESS } from '../access.ts';
import { itemNotFound, referencedItem, versionNotFound } from '../queries.ts';
import { tenantRows } from '../../../platform/tenant-rows.ts';

/**
 * Publication of one exact test_spec or test_bank version. The server runs every structural and
 * dependency check itself; the caller names the version and nothing else (never trust: trust is
 * set only at import or by a QC decision). Publishing twice answers the first publication.
 */

export const PublishInput = z.object({ version_id: uuidRef().describe('The exact version to publish') }).strict();

type PublicationRow = typeof versionPublications.$inferSelect;

function presentPublication(row: PublicationRow, contentKind: string) {
  return {
    content_id: row.contentId,
    version_id: row.versionId,
    content_kind: contentKind,
    publication_status: 'published' as const,
    published_by: row.publishedBy,
    published_at: isoTimestamp(row.publishedAt),
  };
}
export type ContentPublication = ReturnType<typeof presentPublication>;

export const publishVersion: ItemCommand<ContentPublication> = async (
  deps,
  ctx,
  { contentId, body, idempotencyKey },
) => {
  requireAccess(ctx.principal, ACCESS.publish, 'publish content');
  const input = parseInput(PublishInput, body);
  if (!isUuid(contentId)) throw itemNotFound(contentId);
  return runCommand(
    deps,
    ctx,
    { operation: `content.publish:${contentId}`, key: idempotencyKey, sent: body },
    async (tx) => {
      const [item] = await tx
        .select()
        .from(items)
        .where(tenantRows(items, ctx.tenantId, { contentId }))
        .for('update');
      if (!item) throw itemNotFound(contentId);
      const [version] = await tx
        .select({ versionId: versions.versionId })
        .from(versions)
        .where(tenantRows(versions, ctx.tenantId, { contentId, versionId: input.version_id }));
      if (!version) throw versionNotFound(contentId, input.version_id);
      const [existing] = await tx
        .select()
        .from(versionPublications)
        .where(tenantRows(versionPublications, ctx.tenantId, { versionId: input.version_id }));
      if (existing) return { value: presentPublication(existing, item.contentKind), created: false };
      const failures = await publicationFailures(tx, ctx.tenantId, item, input.version_id);
      if (failures.length > 0) {
        throw new DomainError(
          'content.publication_refused',
          `Version ${input.version_id} cannot be published: ${failures.map((f) => f.message).join('; ')}.`,
          {
            fieldErrors: failures,
          },
        );
      }
      const [row] = await tx
        .insert(versionPublications)
        .values({
          tenantId: ctx.tenantId,
          versionId: input.version_id,
          contentId,
          publishedBy: ctx.principal.subject,
          publishedAt: ctx.now.toISOString(),
        })
        .returning();
      return { value: presentPublication(row, item.contentKind), created: true };
    },
  );
};

/** The server-owned checks, all reported at once. */
async function publicationFailures(
  tx: Database,
  tenantId: string,
  item: typeof items.$inferSelect,
  versionId: string,
): Promise<FieldError[]> {
  if (!SEPARATELY_PUBLISHED_KINDS.has(item.contentKind)) {
    return [
      {
        field: 'content_kind',
        message: `only exact test_spec or test_bank versions are published here, not ${item.contentKind}`,
      },
    ];
  }
  const failures: FieldError[] = [];
  if (item.status === 'retired' || item.status === 'archived')
    failures.push({ field: 'status', message: `the item is ${item.status}` });
  if (item.contentKind === 'test_spec') {
    const [blueprint] = await tx
      .select({ id: testSpecBlueprints.contentId })
      .from(testSpecBlueprints)
      .where(tenantRows(testSpecBlueprints, tenantId, { contentId: item.contentId }));
    if (!blueprint) failures.push({ field: 'blueprint', message: 'the test_spec has no blueprint' });
  } else {
    if (item.membershipRule === null)
      failures.push({ field: 'membership_rule', message: 'the test_bank has no membership_rule' });
    const members = await tx
      .select({ referencedVersionId: contentReferences.referencedVersionId, formStatus: items.status })
      .from(contentReferences)
      .leftJoin(items, referencedItem)
      .where(
        tenantRows(contentReferences, tenantId, {
          contentId: item.contentId,
          parentVersionId: versionId,
          relationshipKind: 'bank_member',
          status: 'active',
        }),
      );
    if (members.length === 0)
      failures.push({ field: 'bank_members', message: 'the bank version has no active bank_member' });
    for (const member of members) {
      if (member.formStatus === 'retired' || member.formStatus === 'archived' || member.formStatus === null) {
        failures.push({
          field: 'bank_members',
          message: `member form version ${member.referencedVersionId} is ${member.formStatus ?? 'missing'}`,
        });
      }
    }
  }
  return failures;
}
