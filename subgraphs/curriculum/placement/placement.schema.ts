import { z } from 'zod';

export const PlacementQuery = z
  .object({
    studentId: z.string().min(1).optional().describe("Adds that student's personalized course roots"),
    subjectId: z
      .string()
      .min(1)
      .optional()
      .describe("The subject, when the track declares none; else must equal the track's"),
    asOfDate: z.iso.date().optional().describe('Echoed'),
  })
  .strict();
