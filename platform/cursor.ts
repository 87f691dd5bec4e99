import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { DomainError } from './errors.ts';

/**
 * Opaque keyset cursors. A cursor carries the sort key of the last row returned and a digest of the
 * filters it was issued for, signed so a forged or edited cursor is refused with 400 instead of
 * silently paging somewhere else.
 */
export type KeyValue = string | number | null;

export interface CursorPayload {
  /** Sort key of the last row already returned. */
  after: KeyValue[];
}

export class CursorCodec {
  constructor(private readonly secret: Buffer) {}

  encode(after: KeyValue[], filters: unknown): string {
    const body = Buffer.from(JSON.stringify({ a: after, f: filterDigest(filters) })).toString('base64url');
    return `${body}.${this.sign(body)}`;
  }

  decode(cursor: string, filters: unknown): CursorPayload {
    const [body, signature, extra] = cursor.split('.');
    if (!body || !signature || extra !== undefined || !this.matches(body, signature)) {
      throw invalidCursor('The cursor is not one this service issued.');
    }
    let parsed: { a?: unknown; f?: unknown };
    try {
      parsed = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
    } catch {
      throw invalidCursor('The cursor is not one this service issued.');
    }
    if (parsed.f !== filterDigest(filters))
      throw invalidCursor('The cursor was issued for another list or other filters.');
    if (!Array.isArray(parsed.a)) throw invalidCursor('The cursor is not one this service issued.');
    return { after: parsed.a as KeyValue[] };
  }

  private sign(body: string): string {
    return createHmac('sha256', this.secret).update(body).digest('base64url').slice(0, 22);
  }

  private matches(body: string, signature: string): boolean {
    const expected = Buffer.from(this.sign(body));
    const given = Buffer.from(signature);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }
}

function invalidCursor(detail: string): DomainError {
  return new DomainError('validation_failed', detail, { fieldErrors: [{ field: 'cursor', message: detail }] });
}

function filterDigest(filters: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify(filters ?? null))
    .digest('base64url')
    .slice(0, 16);
}

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 200;

export interface Page<T> {
  data: T[];
  next_cursor: string | null;
}

/**
 * Cuts one page from rows fetched with limit + 1: the extra row only proves there is a next page.
 */
export function pageOf<Row, T>(
  rows: Row[],
  limit: number,
  keyOf: (row: Row) => KeyValue[],
  present: (row: Row) => T,
  codec: CursorCodec,
  filters: unknown,
): Page<T> {
  const visible = rows.slice(0, limit);
  const hasMore = rows.length > limit && visible.length > 0;
  return {
    data: visible.map(present),
    next_cursor: hasMore ? codec.encode(keyOf(visible[visible.length - 1]), filters) : null,
  };
}
