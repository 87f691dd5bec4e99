import { createHash } from 'node:crypto';
import { DomainError } from './errors.ts';

/**
 * ETags are opaque to clients: a hash of the resource identity and its advancing version. They are
 * compared inside the write transaction, after the row is locked, so a stale tag never wins a race.
 */
export function etagOf(resourceId: string, version: number): string {
  const digest = createHash('sha256').update(`${resourceId}\u0000${version}`).digest('base64url').slice(0, 22);
  return `"${digest}"`;
}

/** 428 when the conditional header is missing: checked first, before any read or outside call. */
export function requirePrecondition(header: string | undefined, headerName = 'If-Match'): asserts header is string {
  if (header === undefined || header.trim() === '') {
    throw new DomainError('precondition_required', `Send ${headerName} with the ETag from your last read.`);
  }
}

/** Throws 428 when the precondition is missing and 412 when it names another version. */
export function checkIfMatch(header: string | undefined, currentEtag: string, headerName = 'If-Match'): void {
  requirePrecondition(header, headerName);
  const candidates = header.split(',').map((tag) => tag.trim().replace(/^W\//, ''));
  if (!candidates.includes(currentEtag) && !candidates.includes('*')) {
    throw new DomainError(
      'precondition_failed',
      `${headerName} does not match the current ETag; read the resource again.`,
    );
  }
}
