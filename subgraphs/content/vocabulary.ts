import { z } from 'zod';
import { CONTENT_KINDS } from '../../platform/contract.ts';

export { CONTENT_KINDS, TRUST_STATUSES, type ContentKind, type TrustStatus } from '../../platform/contract.ts';

/** The enumerations of the content document, each written once. */
export const SUBTYPES = ['diagram', 'decodable'] as const;
export const GRADE_IDS = [
  'pre_k',
  'k',
  '1',
  '2',
  '3',
  '4',
  '5',
  '6',
  '7',
  '8',
  '9',
  '10',
  '11',
  '12',
  'postsecondary',
  'ungraded',
] as const;
export const CONTENT_STATUSES = ['draft', 'published', 'retired', 'archived'] as const;
export const DOK_LEVELS = ['dok1', 'dok2', 'dok3', 'dok4'] as const;
export const ASSESSMENT_ROLES = ['form', 'spec', 'bank'] as const;
export const USAGE_SCOPES = ['practice_eligible', 'held_out_canary', 'secure_form'] as const;
export const TEST_TYPES = ['end_of_course', 'end_of_grade', 'test_out', 'placement', 'diagnostic', 'screener'] as const;
export const SOURCE_SYSTEMS = ['qti', 'alpha_content', 'external_content_import'] as const;
export const SUBJECT_IDS = [
  'math',
  'reading',
  'language',
  'science',
  'computer_science',
  'vocabulary',
  'writing',
  'social_studies',
] as const;
export const BLOCK_TYPES = ['heading', 'text', 'image', 'probe'] as const;

/** Kinds whose exact versions are published one by one through POST /publish. */
export const SEPARATELY_PUBLISHED_KINDS: ReadonlySet<string> = new Set(['test_spec', 'test_bank']);

/** assessment_role is a compatibility discriminator fixed by the kind. */
export function assessmentRoleOf(kind: string): (typeof ASSESSMENT_ROLES)[number] | null {
  if (kind === 'test') return 'form';
  if (kind === 'test_spec') return 'spec';
  if (kind === 'test_bank') return 'bank';
  return null;
}

export const contentKind = z.enum(CONTENT_KINDS);
export const subjectId = z.enum(SUBJECT_IDS);

export const XP_BANDS = ['0_to_10', '10_to_20', '20_to_45', '45_plus'] as const;
export type XpBand = (typeof XP_BANDS)[number];
/** Legacy band names, accepted wherever a band is read and stored as the canonical band. */
export const XP_BAND_ALIASES: Readonly<Record<string, XpBand>> = {
  quick: '0_to_10',
  standard: '10_to_20',
  extended: '20_to_45',
  intensive: '45_plus',
};
/** Half-open expected_xp ranges of each band. */
export const XP_BAND_RANGES: Readonly<Record<XpBand, { min: number; below: number | null }>> = {
  '0_to_10': { min: 0, below: 10 },
  '10_to_20': { min: 10, below: 20 },
  '20_to_45': { min: 20, below: 45 },
  '45_plus': { min: 45, below: null },
};
export const xpBand = z.string().transform((value, issues) => {
  const band = (XP_BANDS as readonly string[]).includes(value) ? (value as XpBand) : XP_BAND_ALIASES[value];
  if (!band)
    issues.addIssue({ code: 'custom', message: `one of ${[...XP_BANDS, ...Object.keys(XP_BAND_ALIASES)].join(', ')}` });
  return band ?? z.NEVER;
});

export const FACET_KEYS = [
  'subject',
  'grade_band',
  'language',
  'accessibility_profile',
  'rights_license',
  'provenance',
  'quality_rating',
  'kc_refs',
  'standards_framework_refs',
  'content_kind',
  'expected_xp_band',
  'modality',
] as const;
/** Facet keys that are list filters of GET /items by their own name (content_kind is the typed filter). */
export const FACET_FILTER_KEYS = FACET_KEYS.filter((key) => key !== 'content_kind');
export const FACET_VALUE_TYPES = ['enum', 'boolean', 'number', 'text', 'reference'] as const;
export const FACET_GRAINS = ['content_item', 'content_version', 'media_asset'] as const;
export const FACET_STATUSES = ['active', 'retired'] as const;

export const MEDIA_KINDS = [
  'primary',
  'supporting',
  'thumbnail',
  'caption',
  'transcript',
  'worksheet',
  'source_file',
] as const;
export const RELATIONSHIP_KINDS = [
  'embeds',
  'depends_on',
  'transcript_for',
  'caption_for',
  'thumbnail_for',
  'source_file_for',
  'source_script_for',
  'alternative_form_of',
  'bank_member',
  'related_material',
] as const;
export const EXTERNAL_OPEN_POLICIES = [
  'same_tab',
  'new_tab',
  'embedded_iframe_allowed',
  'external_app_handoff',
] as const;
export const COMPONENT_ROLES = [
  'test',
  'section',
  'part',
  'question',
  'question_ref',
  'distractor',
  'rubric',
  'preauthored_feedback',
] as const;
export const QTI_CARDINALITIES = ['single', 'multiple', 'ordered', 'record'] as const;
export const QTI_BASE_TYPES = [
  'boolean',
  'directedPair',
  'duration',
  'file',
  'float',
  'identifier',
  'integer',
  'pair',
  'point',
  'string',
  'uri',
] as const;
export const TEST_BANK_MEMBERSHIP_RULES = [
  'same_blueprint_fixed_forms',
  'qti_adaptive_selection',
  'pp100_adaptive_shards',
] as const;
