import { z } from 'zod';

/** Query shapes of the gate reads. asOfDate is a calendar date: events up to its end (UTC) count. */

const asOfDate = z.iso
  .date()
  .describe('YYYY-MM-DD; events that happened up to the end of this day (UTC) count; today when omitted');
const studentId = z.string().min(1).max(200);

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
