import { describe, expect, it } from 'vitest';
import { Blueprint } from './blueprints/blueprint.service.ts';
import { isServeable, type EligibilityFacts } from './eligibility/eligibility.service.ts';
import { trustTransitionAllowed } from './trust/trust.service.ts';
import { CONTENT_STATUSES, TRUST_STATUSES, XP_BAND_ALIASES, assessmentRoleOf, xpBand } from './vocabulary.ts';

const blueprint = {
  kc_coverage: { 'kc-fractions': { dok1: 2, dok2: 1 }, 'kc-decimals': { dok3: 1 } },
  item_type_mix: { choice: 3, text_entry: 1 },
  difficulty_constraints: {},
  passing_rule: { min_percent: 70 },
  min_forms: 2,
  max_item_overlap: 0.25,
  enemy_item_rule: { pairs: [] },
};

describe('test_spec blueprint', () => {
  it('accepts a blueprint whose item_type_mix total equals its kc_coverage total', () => {
    expect(Blueprint.safeParse(blueprint).success).toBe(true);
  });

  it('refuses unequal totals on item_type_mix, empty coverage and non-positive counts', () => {
    const unequal = Blueprint.safeParse({ ...blueprint, item_type_mix: { choice: 3 } });
    expect(unequal.error?.issues.map((issue) => issue.path.join('.'))).toEqual(['item_type_mix']);
    expect(Blueprint.safeParse({ ...blueprint, kc_coverage: {} }).success).toBe(false);
    expect(Blueprint.safeParse({ ...blueprint, kc_coverage: { kc: {} } }).success).toBe(false);
    expect(Blueprint.safeParse({ ...blueprint, kc_coverage: { kc: { dok1: 0 } } }).success).toBe(false);
    expect(Blueprint.safeParse({ ...blueprint, max_item_overlap: 1.5 }).success).toBe(false);
    const { min_forms: _, ...withoutMinForms } = blueprint;
    expect(Blueprint.safeParse(withoutMinForms).success).toBe(false);
  });
});

describe('serveability', () => {
  const facts = (overrides: Partial<EligibilityFacts>): EligibilityFacts => ({
    contentKind: 'article',
    itemStatus: 'published',
    versionPublished: false,
    trustStatus: 'trusted',
    ...overrides,
  });

  it('needs a published, live item whose version is trusted or degraded', () => {
    for (const itemStatus of CONTENT_STATUSES) {
      for (const trustStatus of [...TRUST_STATUSES, null]) {
        const expected = itemStatus === 'published' && (trustStatus === 'trusted' || trustStatus === 'degraded');
        expect(isServeable(facts({ itemStatus, trustStatus })), `${itemStatus} ${trustStatus}`).toBe(expected);
      }
    }
  });

  it('reads publication from the version for separately published kinds, never from the item', () => {
    expect(isServeable(facts({ contentKind: 'test_spec', itemStatus: 'published' }))).toBe(false);
    expect(isServeable(facts({ contentKind: 'test_bank', itemStatus: 'draft', versionPublished: true }))).toBe(true);
    expect(isServeable(facts({ contentKind: 'test_bank', itemStatus: 'retired', versionPublished: true }))).toBe(false);
  });
});

describe('trust transitions', () => {
  it('sets trust once from unknown, then only moves trusted or degraded to failed; failed is final', () => {
    const allowed = TRUST_STATUSES.flatMap((from) =>
      TRUST_STATUSES.filter((to) => trustTransitionAllowed(from, to)).map((to) => `${from}->${to}`),
    );
    expect(allowed.sort()).toEqual(
      ['unknown->trusted', 'unknown->degraded', 'unknown->failed', 'trusted->failed', 'degraded->failed'].sort(),
    );
  });
});

describe('vocabularies', () => {
  it('fixes assessment_role by kind', () => {
    expect(['test', 'test_spec', 'test_bank', 'article'].map(assessmentRoleOf)).toEqual(['form', 'spec', 'bank', null]);
  });

  it('stores a legacy XP band name as its canonical band and refuses unknown bands', () => {
    for (const [alias, band] of Object.entries(XP_BAND_ALIASES)) expect(xpBand.parse(alias)).toBe(band);
    expect(xpBand.parse('45_plus')).toBe('45_plus');
    expect(xpBand.safeParse('huge').success).toBe(false);
  });
});
