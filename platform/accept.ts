/**
 * Proactive negotiation of a JSON answer (RFC 9110 §12.5.1). A route that answers JSON asks whether the
 * request's Accept header leaves it any media type it can produce; every other route keeps its own types.
 */

/** What a JSON route can send: its answer, and a problem about the request. */
const JSON_TYPES = ['application/json', 'application/problem+json'] as const;

interface MediaRange {
  type: string;
  subtype: string;
  quality: number;
}

function mediaRangesOf(header: string): MediaRange[] {
  const ranges: MediaRange[] = [];
  for (const part of header.split(',')) {
    const [range, ...parameters] = part.split(';');
    const slash = range.indexOf('/');
    if (slash === -1) continue;
    const quality = parameters
      .map((parameter) => /^\s*q\s*=\s*([0-9.]+)\s*$/i.exec(parameter)?.[1])
      .find((value) => value !== undefined);
    const parsed = quality === undefined ? 1 : Number(quality);
    ranges.push({
      type: range.slice(0, slash).trim().toLowerCase(),
      subtype: range
        .slice(slash + 1)
        .trim()
        .toLowerCase(),
      quality: Number.isFinite(parsed) ? parsed : 1,
    });
  }
  return ranges;
}

/** The quality the most specific matching range gives a media type (0 when none matches). */
function qualityOf(mediaType: string, ranges: MediaRange[]): number {
  const [type, subtype] = mediaType.split('/');
  let specificity = -1;
  let quality = 0;
  for (const range of ranges) {
    const rank =
      range.type === type && range.subtype === subtype
        ? 2
        : range.type === type && range.subtype === '*'
          ? 1
          : range.type === '*' && range.subtype === '*'
            ? 0
            : -1;
    if (rank > specificity) {
      specificity = rank;
      quality = range.quality;
    }
  }
  return quality;
}

/**
 * Whether a JSON answer is acceptable. No header, `*\/*` and `application/json` are answered by one comparison;
 * a header with no valid media range is ignored (RFC 9110 lets a server disregard it), so only a header that
 * names types and leaves JSON out (or gives it q=0) is refused.
 */
export function acceptsJson(header: string | undefined): boolean {
  if (header === undefined || header === '*/*' || header === 'application/json') return true;
  const ranges = mediaRangesOf(header);
  return ranges.length === 0 || JSON_TYPES.some((mediaType) => qualityOf(mediaType, ranges) > 0);
}
