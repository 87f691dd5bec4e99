import { z } from 'zod';
import { nullMeansAbsent, uuidRef, listQueryMembers } from '../../../platform/validation.ts';

/**
 * The CASE 1.0/1.1 package as imported: the fields the platform reads are checked, and so are the fields and
 * cardinalities CASE requires of every document, item and association (identifier, uri, lastChangeDateTime, an
 * item's fullStatement, an association's type from CASE's vocabulary, each node reference's title, identifier and
 * uri), so a package another CASE tool would refuse is not frozen as a release. Every other field is kept as sent
 * (the release stores the package whole). Real exports carry nulls for absent optional values.
 */
const text = z.string().nullish();
const required = z.string({ error: 'CASE requires this field, a string' });
export const CASE_UUID_SHAPE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
// Any 8-4-4-4-12 hex identifier: real exports use placeholder ids such as d0000000-0000-...
const caseUuid = (refusal: string) => z.string().regex(CASE_UUID_SHAPE, refusal);
// LinkGenURI: the node may be outside the package, even outside CASE, so its identifier need not be a UUID.
const nodeRef = z.looseObject({ identifier: z.string().min(1), uri: required, title: required, targetType: text });
// CFAssociationTypeExtEnum: CASE 1.0's nine types, 1.1's isTranslationOf, and extensions named ext:<name>.
const CASE_ASSOCIATION_TYPES = [
  'isChildOf',
  'isPeerOf',
  'isPartOf',
  'exactMatchOf',
  'precedes',
  'isRelatedTo',
  'replacedBy',
  'exemplar',
  'hasSkillLevel',
  'isTranslationOf',
];
const associationType = z
  .string()
  .refine((type) => CASE_ASSOCIATION_TYPES.includes(type) || /^ext:[A-Za-z0-9._|-]+$/.test(type), {
    error: `must be one of ${CASE_ASSOCIATION_TYPES.join(', ')} or an extension named ext:<name>`,
  });

export const CasePackage = z.looseObject({
  CFDocument: z.looseObject({
    identifier: caseUuid('CASE 1.0/1.1 document identifiers are UUIDs; pre-1.0 packages are not imported'),
    uri: required,
    title: z.string().trim().min(1),
    creator: required,
    frameworkType: text,
    // CASE 1.0 has no caseVersion; 1.1 allows only "1.1".
    caseVersion: z.literal('1.1').nullish(),
    lastChangeDateTime: required,
    officialSourceURL: text,
    subject: z.array(z.string()).nullish(),
    language: text,
    version: text,
  }),
  CFItems: z
    .array(
      z.looseObject({
        identifier: caseUuid('CASE item identifiers are UUIDs'),
        uri: required,
        lastChangeDateTime: required,
        CFDocumentURI: z.unknown().optional(),
        humanCodingScheme: text,
        fullStatement: required,
        abbreviatedStatement: text,
        // Grade codes such as grade_3 stay standards metadata; grade routing never reads them (rule 16).
        // CASE 1.0 also allows a single string.
        educationLevel: z.union([z.array(z.string()), z.string()]).nullish(),
        listEnumeration: text,
        parentIdentifier: text,
      }),
    )
    .max(50_000)
    .default([]),
  CFAssociations: z
    .array(
      z.looseObject({
        identifier: caseUuid('CASE association identifiers are UUIDs'),
        associationType,
        uri: required,
        lastChangeDateTime: required,
        originNodeURI: nodeRef,
        destinationNodeURI: nodeRef,
        // Some exporters write it as a string.
        sequenceNumber: z.union([z.number().int(), z.string().regex(/^-?\d+$/)]).nullish(),
      }),
    )
    .max(100_000)
    .default([]),
  CFDefinitions: z
    .looseObject({ CFSubjects: z.array(z.looseObject({ identifier: z.string().min(1), title: text })).nullish() })
    .nullish(),
});
export type CasePackage = z.infer<typeof CasePackage>;

/** How a KC stands to a standard; the map never makes the standard a KC or the KC a standard. */
export const MAP_RELATIONSHIPS = ['aligned', 'partially_aligned', 'related'] as const;

export const StandardKcMapInput = z
  .object({
    standard_id: z.string().min(1).describe('A CFItem identifier of the imported package'),
    kc_id: uuidRef().describe('An active registry KC of the tenant'),
    relationship: z.enum(MAP_RELATIONSHIPS),
  })
  .strict();

export const ImportStandardsInput = nullMeansAbsent(
  z
    .object({
      checksum_sha256: z
        .string()
        .regex(/^[0-9a-f]{64}$/, '64 lowercase hex digits')
        .describe('SHA-256 of the RFC 8785 canonical JSON of package'),
      package: CasePackage.describe('A CASE 1.0/1.1 CFPackage'),
      standard_kc_maps: z.array(StandardKcMapInput).max(20_000).default([]),
    })
    .strict(),
);

export const ListFrameworksQuery = z
  .object({
    frameworkId: z.string().min(1).optional().describe('standards_framework_id or the CFDocument identifier'),
    subjectId: z.string().min(1).optional().describe('A CFDocument subject or CFSubject identifier'),
    updated_since: listQueryMembers.updated_since,
    limit: listQueryMembers.limit,
    cursor: listQueryMembers.cursor,
    sort: z
      .enum(['standards_framework_id', 'updated_at', 'title'])
      .optional()
      .describe('standards_framework_id (the default), updated_at or title; ties broken by the id'),
    order: listQueryMembers.order,
  })
  .strict();

export const ListMapsQuery = z
  .object({
    source_release_id: uuidRef()
      .optional()
      .describe('All maps of that release, live or superseded; without it, the live maps only'),
    standard_id: z.string().min(1).optional().describe('Only maps of this CFItem identifier'),
    kc_id: uuidRef().optional().describe('Only maps naming this registry KC'),
    relationship: z.enum(MAP_RELATIONSHIPS).optional().describe('aligned, partially_aligned or related'),
    updated_since: listQueryMembers.updated_since,
    limit: listQueryMembers.limit,
    cursor: listQueryMembers.cursor,
  })
  .strict();
