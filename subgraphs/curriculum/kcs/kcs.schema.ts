import { z } from 'zod';
import { nullMeansAbsent, uuidRef, listQueryMembers } from '../../../platform/validation.ts';

/** Input schemas of the KC registry (rule 5): no name, no document_id, stored_as fixed. */

export const KC_STORED_AS = 'alpha.knowledge_component';

export const KcAlphaInput = z
  .object({
    subject_id: z.string().min(1).optional(),
    kc_kind: z.string().min(1).optional().describe('substantive is a known value'),
    positive_examples: z.array(z.string()).optional(),
    negative_examples: z.array(z.string()).optional(),
    misconceptions: z.array(z.string()).optional(),
    boundary_statement: z.string().optional(),
    instructional_classification: z
      .object({ knowledgeType: z.string().min(1) })
      .catchall(z.unknown())
      .optional(),
    provenance: z.record(z.string(), z.unknown()).optional(),
    confidence: z.number().min(0).max(1).optional(),
    author_ref: z.string().min(1).optional(),
  })
  .strict();
export type KcAlphaInput = z.infer<typeof KcAlphaInput>;
/** The alpha of a create (a KC, or a KC version): a null member is the member left out. */
const NewKcAlpha = nullMeansAbsent(KcAlphaInput);

export const CreateKcInput = nullMeansAbsent(
  z
    .object({
      kc_id: uuidRef().optional().describe('Owner-issued identity; a retry with the exact kc_id is idempotent'),
      stored_as: z.literal(KC_STORED_AS, { error: `must be ${KC_STORED_AS}; legacy CASE KC writes are refused` }),
      definition: z.string().trim().min(1).max(10_000),
      source_kc_id: z.string().min(1).max(500).optional().describe('Producer provenance only; never a lookup or alias'),
      document_id: z.never({ error: 'must be absent: registry KCs are not CASE documents' }).optional(),
      publication_status: z
        .literal('draft', { error: 'a KC identity is created draft; publish it with PATCH' })
        .optional(),
      alpha: NewKcAlpha.default({}),
    })
    .strict(),
);
export type CreateKcInput = z.infer<typeof CreateKcInput>;

export const PublishKcInput = z.object({ publication_status: z.literal('published') }).strict();

export const AppendKcVersionInput = nullMeansAbsent(
  z.object({ definition: z.string().trim().min(1).max(10_000).optional(), alpha: NewKcAlpha.optional() }).strict(),
).default({});

export const ListKcsQuery = z
  .object({
    subject_id: z.string().min(1).optional().describe('Exact match on the KC subject_id'),
    kc_kind: z.string().min(1).optional().describe('Exact match on kc_kind, e.g. substantive'),
    publication_status: z.enum(['draft', 'published']).optional().describe('draft or published'),
    updated_since: listQueryMembers.updated_since,
    includeRetired: listQueryMembers.includeRetired,
    limit: listQueryMembers.limit,
    cursor: listQueryMembers.cursor,
  })
  .strict();

export const PageQuery = z.object({ limit: listQueryMembers.limit, cursor: listQueryMembers.cursor }).strict();
