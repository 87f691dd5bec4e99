import { z } from 'zod';
import { calendarDate } from '../../../platform/validation.ts';

export const NextLessonQuery = z
  .object({
    studentId: z.string().min(1).optional().describe('Required for a personalized course root'),
    asOfDate: calendarDate().optional().describe('Echoed; routing always reads the current graph and approval'),
    subjectId: z.string().min(1).optional().describe("When sent, must be the course's alpha.subject_id"),
  })
  .strict();
