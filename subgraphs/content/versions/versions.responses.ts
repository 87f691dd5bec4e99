import { z } from 'zod';
import { PageResponse, Timestamp } from '../../../platform/openapi.ts';

export const VersionResponse = z.strictObject({
  version_id: z.string(),
  content_id: z.string(),
  version_number: z.number().int(),
  student_view: z.object({ blocks: z.array(z.unknown()) }).catchall(z.unknown()),
  canonical_xml: z
    .string()
    .nullable()
    .describe(
      "A question's QTI item as appended. A caller with neither read:answer_key nor author:content reads it without " +
        'the elements that state or score its answers (correct responses, mappings, response processing, and rubric ' +
        'blocks whose view names neither candidate nor proctor).',
    ),
  supersedes_version_id: z.string().nullable(),
  content_hash: z.string(),
  created_at: Timestamp,
});

export const VersionPageResponse = PageResponse(VersionResponse);
