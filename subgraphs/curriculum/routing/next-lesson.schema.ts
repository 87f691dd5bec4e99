import { z } from 'zod';

export const NextLessonQuery = z
  .object({
    studentId: z.string().min(1).optional().describe('Required for a personalized course root'),
    asOfDate: z.iso.date().optional().describe('Echoed; routing always reads the current graph and approval'),
    subjectId: z.string().min(1).optional().describe("When sent, must be the course's alpha.subject_id"),
  })
  .strict();
