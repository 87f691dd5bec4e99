import { z } from 'zod';
import { nullMeansAbsent, listQueryMembers } from '../../../platform/validation.ts';

const sha256 = z.string().regex(/^[0-9a-f]{64}$/, 'lowercase hex SHA-256');

export const ApproveCourseInput = nullMeansAbsent(
  z
    .object({
      approved_by: z.string().trim().min(1).max(200),
      provenance: nullMeansAbsent(
        z.object({ source: z.string().min(1), course_ref: z.string().min(1).optional() }).catchall(z.unknown()),
      ),
      expected_course_graph_sha256: sha256.optional(),
      expected_kc_snapshot_sha256: sha256.optional(),
    })
    .strict(),
);
export type ApproveCourseInput = z.infer<typeof ApproveCourseInput>;

export const ListApprovalsQuery = z.object({ limit: listQueryMembers.limit, cursor: listQueryMembers.cursor }).strict();
