import type { RequestContext } from '../../platform/context.ts';
import type { PeopleClient } from '../../platform/people-client.ts';

/**
 * Student names are joined in presentation only: one people-service lookup per distinct student of
 * a page, and any failure (absent service, timeout, unknown person) is simply no name.
 */
export async function studentNames(people: PeopleClient, ctx: RequestContext, studentIds: Array<string | null>): Promise<Map<string, string>> {
  const distinct = [...new Set(studentIds.filter((id): id is string => id !== null))];
  const names = new Map<string, string>();
  await Promise.all(
    distinct.map(async (studentId) => {
      try {
        const answer = await people.lookup(ctx, studentId);
        if (answer.outcome !== 'found') return;
        const name = [answer.person.givenName, answer.person.familyName].filter(Boolean).join(' ');
        if (name) names.set(studentId, name);
      } catch {
        // no name, never a failed read
      }
    }),
  );
  return names;
}

/** Adds studentName (or null) to presented rows. */
export async function withStudentNames<T extends { studentId: string | null }>(
  people: PeopleClient,
  ctx: RequestContext,
  rows: T[],
): Promise<Array<T & { studentName: string | null }>> {
  const names = await studentNames(people, ctx, rows.map((row) => row.studentId));
  return rows.map((row) => ({ ...row, studentName: row.studentId === null ? null : (names.get(row.studentId) ?? null) }));
}
