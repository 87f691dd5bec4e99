import { createHash, randomUUID } from 'node:crypto';
import { asc, getTableColumns } from 'drizzle-orm';
import { z } from 'zod';
import type { RequestContext } from '../../../platform/context.ts';
import { requireAccess } from '../../../platform/auth.ts';
import { DomainError } from '../../../platform/errors.ts';
import { runCommand } from '../../../platform/commands.ts';
import { isoTimestamp, nullMeansAbsent, parseInput, isUuid } from '../../../platform/validation.ts';
import { tenantRows } from '../../../platform/tenant-rows.ts';
import { mediaAssets } from '../tables.ts';
import type { ContentDeps, ItemCommand, ItemList } from '../deps.ts';
import { MEDIA_KINDS } from '../vocabulary.ts';
import { ACCESS } from '../access.ts';
import { requireItemRow, wholeList } from '../queries.ts';

/**
 * Media of an item: uploaded bytes kept by content, delivered only through an authenticated
 * first-party delivery_url under the tenant root. Bytes are never changed after upload.
 */

export const MAX_MEDIA_BYTES = 5 * 1024 * 1024;

/**
 * Base64 that decodes to every character sent (padding optional): Buffer drops what does not fill a byte, so a
 * string cut off mid-character (QUJDR) or padded where no padding belongs (QUJD==) became fewer bytes, silently.
 */
function wholeBase64(text: string): boolean {
  return Buffer.from(text, 'base64').toString('base64') === text.padEnd(Math.ceil(text.length / 4) * 4, '=');
}

export const MediaInput = nullMeansAbsent(
  z
    .object({
      media_kind: z.enum(MEDIA_KINDS),
      mime_type: z
        .string()
        .regex(/^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/i, 'a media type such as image/png'),
      file_name: z
        .string()
        .trim()
        .min(1)
        .max(255)
        // eslint-disable-next-line no-control-regex -- a NUL byte in a file name is refused on purpose
        .regex(/^[^/\\\u0000]+$/, 'a file name without path')
        .optional(),
      data_base64: z
        .string()
        .min(1)
        .regex(/^[A-Za-z0-9+/]*={0,2}$/, 'standard base64')
        .refine(wholeBase64, 'base64 cut off or padded mid-way')
        .describe(`The bytes, base64; at most ${MAX_MEDIA_BYTES} bytes decoded`),
    })
    .strict(),
);

type MediaRow = typeof mediaAssets.$inferSelect;

export function deliveryPath(tenantId: string, contentId: string, mediaId: string): string {
  return `/tenants/${encodeURIComponent(tenantId)}/alpha/content/items/${contentId}/media/${mediaId}`;
}

function presentMedia(row: Omit<MediaRow, 'bytes'>, contentRoot: string) {
  return {
    media_id: row.mediaId,
    content_id: row.contentId,
    media_kind: row.mediaKind,
    mime_type: row.mimeType,
    file_name: row.fileName,
    byte_size: row.byteSize,
    sha256: row.sha256,
    delivery_url: `${contentRoot}${deliveryPath(row.tenantId, row.contentId, row.mediaId)}`,
    created_at: isoTimestamp(row.createdAt),
  };
}
export type MediaAsset = ReturnType<typeof presentMedia>;

export const uploadMedia: ItemCommand<MediaAsset> = async (deps, ctx, { contentId, body, idempotencyKey }) => {
  requireAccess(ctx.principal, ACCESS.author, 'upload media');
  const input = parseInput(MediaInput, body);
  const bytes = Buffer.from(input.data_base64, 'base64');
  if (bytes.length === 0 || bytes.length > MAX_MEDIA_BYTES) {
    throw new DomainError('validation_failed', `Media must be 1 to ${MAX_MEDIA_BYTES} bytes.`, {
      fieldErrors: [{ field: 'data_base64', message: `${bytes.length} bytes` }],
    });
  }
  await requireItemRow(deps.db, ctx.tenantId, contentId);
  return runCommand(
    deps,
    ctx,
    { operation: `content.media:${contentId}`, key: idempotencyKey, sent: body },
    async (tx) => {
      const [row] = await tx
        .insert(mediaAssets)
        .values({
          tenantId: ctx.tenantId,
          mediaId: randomUUID(),
          contentId,
          mediaKind: input.media_kind,
          mimeType: input.mime_type.toLowerCase(),
          fileName: input.file_name ?? null,
          byteSize: bytes.length,
          sha256: createHash('sha256').update(bytes).digest('hex'),
          bytes,
          createdBy: ctx.principal.subject,
          createdAt: ctx.now.toISOString(),
        })
        .returning();
      return { value: presentMedia(row, deps.contentUrl()), created: true };
    },
  );
};

const { bytes: _bytes, ...mediaColumns } = getTableColumns(mediaAssets);

export const listMedia: ItemList<MediaAsset> = async (deps, ctx, { contentId }) => {
  requireAccess(ctx.principal, ACCESS.read, 'read media');
  const { db } = deps;
  await requireItemRow(db, ctx.tenantId, contentId);
  const rows = await db
    .select(mediaColumns)
    .from(mediaAssets)
    .where(tenantRows(mediaAssets, ctx.tenantId, { contentId }))
    .orderBy(asc(mediaAssets.createdAt), asc(mediaAssets.mediaId));
  return wholeList(rows.map((row) => presentMedia(row, deps.contentUrl())));
};

/** The bytes behind a delivery_url, for a reader of the same tenant. */
export async function readMediaBytes(
  deps: ContentDeps,
  ctx: RequestContext,
  { contentId, mediaId }: { contentId: string; mediaId: string },
) {
  requireAccess(ctx.principal, ACCESS.read, 'read media');
  const { db } = deps;
  const notFound = new DomainError('not_found', `No media ${mediaId} of content item ${contentId} in this tenant.`);
  if (!isUuid(contentId) || !isUuid(mediaId)) throw notFound;
  const [row] = await db
    .select()
    .from(mediaAssets)
    .where(tenantRows(mediaAssets, ctx.tenantId, { contentId, mediaId }));
  if (!row) throw notFound;
  return { bytes: row.bytes, mimeType: row.mimeType, sha256: row.sha256, fileName: row.fileName };
}
