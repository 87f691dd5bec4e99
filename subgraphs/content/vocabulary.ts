import { z } from 'zod';
import { CONTENT_KINDS } from '../../platform/contract.ts';

export { CONTENT_KINDS, type ContentKind } from '../../platform/contract.ts';

/** The enumerations of the content document, each written once. */
export const SUBTYPES = ['diagram', 'decodable'] as const;
export const GRADE_IDS = ['pre_k', 'k', '1', '2', '3', '4', '5', '6', '7', '8', '9', '10', '11', '12', 'postsecondary', 'ungraded'] as const;
export const CONTENT_STATUSES = ['draft', 'published', 'retired', 'archived'] as const;
export const DOK_LEVELS = ['dok1', 'dok2', 'dok3', 'dok4'] as const;
export const ASSESSMENT_ROLES = ['form', 'spec', 'bank'] as const;
export const USAGE_SCOPES = ['practice_eligible', 'held_out_canary', 'secure_form'] as const;
export const TEST_TYPES = ['end_of_course', 'end_of_grade', 'test_out', 'placement', 'diagnostic', 'screener'] as const;
export const SOURCE_SYSTEMS = ['qti', 'alpha_content', 'external_content_import'] as const;
export const SUBJECT_IDS = ['math', 'reading', 'language', 'science', 'computer_science', 'vocabulary', 'writing', 'social_studies'] as const;
export const TRUST_STATUSES = ['trusted', 'degraded', 'failed', 'unknown'] as const;
export const BLOCK_TYPES = ['heading', 'text', 'image', 'probe'] as const;

export type TrustStatus = (typeof TRUST_STATUSES)[number];
export type UsageScope = (typeof USAGE_SCOPES)[number];

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
