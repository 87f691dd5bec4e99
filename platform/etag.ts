import { createHash } from 'node:crypto';
import { DomainError } from './errors.ts';

/**
 * ETags are opaque to clients: a hash of the resource identity and its advancing version. They are
 * compared inside the write transaction, after the row is locked, so a stale tag never wins a race.
 */
export function etagOf(resourceId: string, version: number): string {
  const identity = `${resourceId}\u0000${version}`;
  let etag = etags.get(identity);
  if (etag === undefined) {
    etag = `"${createHash('sha256').update(identity).digest('base64url').slice(0, 22)}"`;
    if (etags.size >= MAX_KEPT_ETAGS) etags.clear();
    etags.set(identity, etag);
  }
  return etag;
}

/**
 * Tags already hashed, by identity and version: every read of a row hashes the same pair until the
 * row changes, and a change advances the version, so a kept tag can never be a stale one.
 */
const etags = new Map<string, string>();
const MAX_KEPT_ETAGS = 10_000;

/** RFC 9110 §13.1.1: `*`, or a comma-separated list of entity tags, each quoted and perhaps weak (`W/"..."`). */
const ENTITY_TAG = String.raw`(?:W/)?"[\x21\x23-\x7e\x80-\xff]*"`;
const IF_MATCH = new RegExp(String.raw`^\s*(?:\*\s*|[\s,]*${ENTITY_TAG}(?:\s*,[\s,]*${ENTITY_TAG})*[\s,]*)$`);

/**
 * 428 when the conditional header is missing, 400 when it is not `*` or a list of entity tags (`abc` sent without
 * its quotes): a malformed precondition is the client's mistake to fix, not a stale read to refetch.
 */
export function requirePrecondition(header: string | undefined, headerName = 'If-Match'): asserts header is string {
  if (header === undefined || header.trim() === '') {
    throw new DomainError('precondition_required', `Send ${headerName} with the ETag from your last read.`);
  }
  if (!IF_MATCH.test(header)) {
    throw new DomainError(
      'if_match_malformed',
      `${headerName} (GraphQL: ifMatch) is not * or a list of entity tags; send the etag of your last read as it is, ` +
        'quotes included.',
      { fieldErrors: [{ field: headerName, message: 'is not * or a list of quoted entity tags' }] },
    );
  }
}

/** Throws 428 when the precondition is missing and 412 when it names another version. */
export function checkIfMatch(header: string | undefined, currentEtag: string, headerName = 'If-Match'): void {
  requirePrecondition(header, headerName);
  const candidates = header.split(',').map((tag) => tag.trim().replace(/^W\//, ''));
  if (!candidates.includes(currentEtag) && !candidates.includes('*')) {
    throw new DomainError(
      'precondition_failed',
      `${headerName} (GraphQL: ifMatch) does not match the current ETag; read the resource again and send its etag as ` +
        'it is, quotes included.',
    );
  }
}
