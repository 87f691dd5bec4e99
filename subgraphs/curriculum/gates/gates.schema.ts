import { z } from 'zod';
import { calendarDate } from '../../../platform/validation.ts';

/** Query shapes of the gate reads. asOfDate is a calendar date: events up to its end (UTC) count. */

// Not z.iso.date(): it takes the year 0, which the events service refuses (a 502 instead of this 400).
const asOfDate = calendarDate().describe(
  'YYYY-MM-DD; events that happened up to the end of this day (UTC) count; today when omitted',
);
const studentId = z.string().min(1).max(200).describe('The student the gate is read for, the people service personId');

export const GateStatusQuery = z
  .object({
    studentId,
    resultRecordId: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .describe('Id of one assessment_graded event in the events service'),
    asOfDate: asOfDate.optional(),
  })
  .strict();
export type GateStatusQuery = z.infer<typeof GateStatusQuery>;

export const GateNextFormQuery = z.object({ studentId, asOfDate: asOfDate.optional() }).strict();
export type GateNextFormQuery = z.infer<typeof GateNextFormQuery>;

/** The service inputs: the gate's component id with the query. */
const gateId = { componentId: z.string().min(1) };
export const GateStatusInput = GateStatusQuery.extend(gateId);
export const GateNextFormInput = GateNextFormQuery.extend(gateId);
