import { z } from 'zod';

/** The events API's answer envelopes, in its camelCase: one page of a keyset list, and one resource. */
export function EventsPage<T extends z.ZodType>(item: T) {
  return z.strictObject({ data: z.array(item), nextCursor: z.string().nullable() });
}

export function One<T extends z.ZodType>(item: T) {
  return z.strictObject({ data: item });
}
