import { z } from 'zod';
import { calendarDate } from '../../../platform/validation.ts';

export const PlacementQuery = z
  .object({
    studentId: z.string().min(1).optional().describe("Adds that student's personalized course roots"),
    subjectId: z
      .string()
      .min(1)
      .optional()
      .describe("The subject, when the track declares none; else must equal the track's"),
    asOfDate: calendarDate().optional().describe('Echoed'),
  })
  .strict();
