import { z } from 'zod';

export const ImportResponse = z.strictObject({
  import: z.strictObject({
    id: z.string().nullable(),
    importId: z.string().nullable(),
    status: z.enum(['materialized', 'validated']),
    adapter: z.string(),
    sourceSystem: z.string(),
    dryRun: z.boolean(),
  }),
  acceptedCount: z.number().int(),
  materializedCount: z.number().int(),
  data: z.array(
    z.strictObject({
      record: z.number().int(),
      resource: z.enum(['events', 'attendanceEvents', 'disciplineEvents']),
      id: z.string(),
      href: z.string().describe('Where the materialized row reads'),
    }),
  ),
});
