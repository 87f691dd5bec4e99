import type { EventTally } from '../events-client.ts';

/**
 * The derivation of content_effectiveness from the events of one exact version, a pure rule over
 * the events service's counts. Evidence is graded results (assessment_graded events naming the
 * version); any other event naming it shows the version was served.
 */

export const EFFECTIVENESS_STATUSES = ['fresh', 'stale', 'pending', 'insufficient_data'] as const;
export type EffectivenessStatus = (typeof EFFECTIVENESS_STATUSES)[number];

/** Graded results below this count say nothing about a version. */
export const MINIMUM_EVIDENCE = 20;
/** Evidence (or a serve) older than this, before the read, is no longer current. */
export const FRESHNESS_WINDOW_DAYS = 30;
export const GRADED_KIND = 'assessment_graded';

const DAY_MS = 24 * 60 * 60 * 1000;

export interface Effectiveness {
  effectiveness_status: EffectivenessStatus;
  evidence_count: number;
  served_count: number;
  last_evidence_at: string | null;
  last_served_at: string | null;
}

const latest = (times: string[]): string | null =>
  times.reduce<string | null>(
    (last, time) => (last === null || Date.parse(time) > Date.parse(last) ? time : last),
    null,
  );

/**
 * fresh: at least MINIMUM_EVIDENCE graded results, the last within the window. stale: enough
 * evidence, none within the window. pending: too little evidence, but the version was served or
 * graded within the window, so results are still arriving. insufficient_data: anything else.
 */
export function deriveEffectiveness(tallies: readonly EventTally[], now: Date): Effectiveness {
  const graded = tallies.filter((tally) => tally.kind === GRADED_KIND);
  const served = tallies.filter((tally) => tally.kind !== GRADED_KIND);
  const evidenceCount = graded.reduce((sum, tally) => sum + tally.eventCount, 0);
  const lastEvidenceAt = latest(graded.map((tally) => tally.lastHappenedAt));
  const lastServedAt = latest(served.map((tally) => tally.lastHappenedAt));
  const windowStart = now.getTime() - FRESHNESS_WINDOW_DAYS * DAY_MS;
  const current = (time: string | null) => time !== null && Date.parse(time) >= windowStart;
  const status: EffectivenessStatus =
    evidenceCount >= MINIMUM_EVIDENCE
      ? current(lastEvidenceAt)
        ? 'fresh'
        : 'stale'
      : current(lastServedAt) || current(lastEvidenceAt)
        ? 'pending'
        : 'insufficient_data';
  return {
    effectiveness_status: status,
    evidence_count: evidenceCount,
    served_count: served.reduce((sum, tally) => sum + tally.eventCount, 0),
    last_evidence_at: lastEvidenceAt,
    last_served_at: lastServedAt,
  };
}
