import { z } from 'zod';
import { MAX_PAGE_SIZE } from '../../../platform/cursor.ts';
import { queryInstant, queryInteger, uuidRef } from '../../../platform/validation.ts';

/**
 * The CASE 1.0/1.1 package as imported: the fields the platform reads are checked, every other field
 * is kept as sent (the release stores the package whole). Real exports carry nulls for absent values.
 */
const text = z.string().nullish();
export const CASE_UUID_SHAPE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const nodeRef = z.looseObject({ identifier: z.string().min(1), uri: text, title: text, targetType: text });

export const CasePackage = z.looseObject({
  CFDocument: z.looseObject({
    // Any 8-4-4-4-12 hex identifier: real exports use placeholder ids such as d0000000-0000-...
    identifier: z
      .string()
      .regex(CASE_UUID_SHAPE, 'CASE 1.0/1.1 document identifiers are UUIDs; pre-1.0 packages are not imported'),
    uri: text,
    title: z.string().trim().min(1),
    creator: text,
    frameworkType: text,
    caseVersion: text,
    lastChangeDateTime: text,
    officialSourceURL: text,
    subject: z.array(z.string()).nullish(),
    language: text,
    version: text,
  }),
  CFItems: z
    .array(
      z.looseObject({
        identifier: z.string().min(1),
        uri: text,
        CFDocumentURI: z.unknown().optional(),
        humanCodingScheme: text,
        fullStatement: text,
        abbreviatedStatement: text,
        // Grade codes such as grade_3 stay standards metadata; grade routing never reads them (rule 16).
        educationLevel: z.array(z.string()).nullish(),
        listEnumeration: text,
        parentIdentifier: text,
      }),
    )
    .max(50_000)
    .default([]),
  CFAssociations: z
    .array(
      z.looseObject({
        identifier: z.string().min(1),
        associationType: z.string().min(1),
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

export const ImportStandardsInput = z
  .object({
    checksum_sha256: z
      .string()
      .regex(/^[0-9a-f]{64}$/, '64 lowercase hex digits')
      .describe('SHA-256 of the RFC 8785 canonical JSON of package'),
    package: CasePackage.describe('A CASE 1.0/1.1 CFPackage'),
    standard_kc_maps: z.array(StandardKcMapInput).max(20_000).default([]),
  })
  .strict();

export const ListFrameworksQuery = z
  .object({
    frameworkId: z.string().min(1).optional().describe('standards_framework_id or the CFDocument identifier'),
    subjectId: z.string().min(1).optional().describe('A CFDocument subject or CFSubject identifier'),
    updated_since: queryInstant().optional(),
    limit: queryInteger(0, MAX_PAGE_SIZE).optional(),
    cursor: z.string().min(1).optional(),
    sort: z.enum(['standards_framework_id', 'updated_at', 'title']).optional(),
    order: z.enum(['asc', 'desc']).optional(),
  })
  .strict();

export const ListMapsQuery = z
  .object({
    source_release_id: uuidRef()
      .optional()
      .describe('All maps of that release, live or superseded; without it, the live maps only'),
    standard_id: z.string().min(1).optional(),
    kc_id: uuidRef().optional(),
    relationship: z.enum(MAP_RELATIONSHIPS).optional(),
    updated_since: queryInstant().optional(),
    limit: queryInteger(0, MAX_PAGE_SIZE).optional(),
    cursor: z.string().min(1).optional(),
  })
  .strict();
