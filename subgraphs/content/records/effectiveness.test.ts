import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  EFFECTIVENESS_STATUSES,
  FRESHNESS_WINDOW_DAYS,
  GRADED_KIND,
  MINIMUM_EVIDENCE,
  deriveEffectiveness,
} from './effectiveness.ts';

const NOW = new Date('2026-11-24T00:00:00Z');
const daysAgo = (days: number) => new Date(NOW.getTime() - days * 24 * 60 * 60 * 1000).toISOString();
const tally = (kind: string, eventCount: number, lastHappenedAt: string) => ({ kind, eventCount, lastHappenedAt });

describe('deriveEffectiveness', () => {
  it('answers each state at its edges', () => {
    const inside = daysAgo(FRESHNESS_WINDOW_DAYS);
    const outside = daysAgo(FRESHNESS_WINDOW_DAYS + 1);
    const cases: Array<[Parameters<typeof deriveEffectiveness>[0], string]> = [
      [[], 'insufficient_data'],
      [[tally('content_viewed', 5, outside)], 'insufficient_data'],
      [[tally('content_viewed', 1, inside)], 'pending'],
      [[tally(GRADED_KIND, MINIMUM_EVIDENCE - 1, inside), tally('assessment_started', 3, inside)], 'pending'],
      [[tally(GRADED_KIND, MINIMUM_EVIDENCE - 1, inside)], 'pending'],
      [[tally(GRADED_KIND, MINIMUM_EVIDENCE - 1, outside)], 'insufficient_data'],
      [[tally(GRADED_KIND, MINIMUM_EVIDENCE, inside)], 'fresh'],
      [[tally(GRADED_KIND, MINIMUM_EVIDENCE, outside), tally('content_viewed', 9, daysAgo(0))], 'stale'],
    ];
    for (const [tallies, status] of cases) {
      expect(deriveEffectiveness(tallies, NOW).effectiveness_status).toBe(status);
    }
  });

  it('counts evidence and serves apart, with their last times', () => {
    expect(
      deriveEffectiveness(
        [
          tally(GRADED_KIND, 4, daysAgo(2)),
          tally('content_viewed', 3, daysAgo(5)),
          tally('assessment_started', 2, daysAgo(1)),
        ],
        NOW,
      ),
    ).toEqual({
      effectiveness_status: 'pending',
      evidence_count: 4,
      served_count: 5,
      last_evidence_at: daysAgo(2),
      last_served_at: daysAgo(1),
    });
  });

  it('is fresh or stale exactly when the evidence reaches the minimum', () => {
    const kinds = fc.constantFrom(GRADED_KIND, 'content_viewed', 'assessment_started', 'question_answered');
    const tallies = fc.uniqueArray(
      fc.record({
        kind: kinds,
        eventCount: fc.integer({ min: 1, max: 3 * MINIMUM_EVIDENCE }),
        lastHappenedAt: fc.integer({ min: 0, max: 3 * FRESHNESS_WINDOW_DAYS }).map(daysAgo),
      }),
      { selector: (row) => row.kind },
    );
    fc.assert(
      fc.property(tallies, (rows) => {
        const derived = deriveEffectiveness(rows, NOW);
        expect(EFFECTIVENESS_STATUSES).toContain(derived.effectiveness_status);
        const enough = derived.evidence_count >= MINIMUM_EVIDENCE;
        expect(['fresh', 'stale'].includes(derived.effectiveness_status)).toBe(enough);
      }),
      { seed: 15, numRuns: 200 },
    );
  });
});
