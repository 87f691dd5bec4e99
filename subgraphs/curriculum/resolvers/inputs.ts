import { snakeKeys, queryStringOf } from '../../../platform/naming.ts';

// GraphQL arguments become the REST body and query shapes the service functions parse.

type Args = Record<string, unknown>;

const snakeName = (name: string) => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

/** Like snakeKeys, but the values of `keep` (free-form objects whose keys are data) are passed unchanged. */
export function snakeKeepingValues(value: unknown, keep: readonly string[]): Record<string, unknown> | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const source = value as Record<string, unknown>;
  const rest = Object.fromEntries(Object.entries(source).filter(([name]) => !keep.includes(name)));
  const kept = Object.fromEntries(
    keep
      .filter((name) => source[name] !== undefined && source[name] !== null)
      .map((name) => [snakeName(name), source[name]]),
  );
  return { ...(snakeKeys(rest) as Record<string, unknown>), ...kept };
}

const KC_ALPHA_OBJECTS = ['instructionalClassification', 'provenance'] as const;

export function kcInputOf(input: Args | undefined): Args {
  if (!input) return {};
  const { alpha, ...rest } = input;
  const body = snakeKeys(rest) as Args;
  const converted = snakeKeepingValues(alpha, KC_ALPHA_OBJECTS);
  if (!converted) return body;
  const classification = converted.instructional_classification as Args | undefined;
  if (!classification) return { ...body, alpha: converted };
  // REST's instructional_classification is one object: the other fields sit beside knowledgeType.
  const { otherFields, knowledgeType } = classification;
  const whole = { ...(otherFields as Args | null | undefined), knowledgeType };
  return { ...body, alpha: { ...converted, instructional_classification: whole } };
}

/**
 * A component input as REST's body. A remediation entry is one object in REST: its otherFields sit
 * beside kc_ref, their keys unchanged.
 */
export function componentInputOf(input: Args): Args {
  const { alpha, ...rest } = input;
  const body = snakeKeys(rest) as Args;
  if (!alpha || typeof alpha !== 'object') return body;
  const { remediationEntries, ...fields } = alpha as Args;
  const converted = snakeKeys(fields) as Args;
  if (!Array.isArray(remediationEntries)) return { ...body, alpha: converted };
  const entries = (remediationEntries as Args[]).map(({ kcRef, otherFields }) => ({
    ...(otherFields as Args | null | undefined),
    kc_ref: kcRef,
  }));
  return { ...body, alpha: { ...converted, remediation_entries: entries } };
}

/** GraphQL list arguments become the REST query string the service parses. */
export function queryOf(args: Args, renames: Record<string, string> = {}): Record<string, string> {
  return queryStringOf(args, { updatedSince: 'updated_since', ...renames });
}

export const KC_QUERY_NAMES = { subjectId: 'subject_id', kcKind: 'kc_kind', publicationStatus: 'publication_status' };
export const KC_VERSION_QUERY_NAMES = { kcVersionId: 'kc_version_id' };
