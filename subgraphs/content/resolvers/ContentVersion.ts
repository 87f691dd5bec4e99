import type { ReleaseEligibility } from '../../../platform/contract.ts';
import type { VersionHeader } from '../eligibility/eligibility.service.ts';
import type { ContentVersion } from '../versions/versions.service.ts';
import type { ContentVersionResolvers } from '../generated/graphql.ts';
import type { ContentLoaders } from './loaders.ts';

/** A version as resolvers receive it: its body when just written, its eligibility when read with it. */
export type ContentVersionParent = VersionHeader &
  Partial<Pick<ContentVersion, 'student_view' | 'canonical_xml'>> & { release_eligibility?: ReleaseEligibility };

/** The stored student view (mapper of StudentView). */
export type StudentViewRecord = ContentVersion['student_view'];

export function contentVersionResolvers({
  itemLoader,
  versionEntity,
  versionBody,
  versionEligibility,
}: ContentLoaders): ContentVersionResolvers {
  return {
    __resolveReference: (reference, context) => versionEntity(context, reference.versionId),
    item: (version, _args, context) => itemLoader(context).load(version.content_id),
    releaseEligibility: (version, _args, context) => versionEligibility(context, version),
    studentView: async (version, _args, context) => (await versionBody(context, version)).student_view,
    canonicalXml: async (version, _args, context) => (await versionBody(context, version)).canonical_xml,
  };
}
