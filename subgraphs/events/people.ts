import type { RequestContext } from '../../platform/context.ts';
import type { PeopleClient } from '../../platform/people-client.ts';

/**
 * Names are joined in presentation only: one people-service lookup per distinct person of a page
 * or a GraphQL batch, and any failure (absent service, timeout) is simply no name. A person the
 * people service says does not exist has no entry at all, so GraphQL resolves that Person to null.
 */
export interface PersonNames {
  givenName: string | null;
  familyName: string | null;
}

const NO_NAME: PersonNames = { givenName: null, familyName: null };

export async function personNames(
  people: PeopleClient,
  ctx: RequestContext,
  personIds: Iterable<string | null>,
): Promise<Map<string, PersonNames>> {
  const distinct = [...new Set([...personIds].filter((id): id is string => id !== null))];
  const names = new Map<string, PersonNames>();
  await Promise.all(
    distinct.map(async (personId) => {
      const answer = await people.lookup(ctx, personId).catch(() => undefined);
      if (answer?.outcome === 'not_found') return;
      const found = answer?.outcome === 'found' ? answer.person : undefined;
      names.set(
        personId,
        found ? { givenName: found.givenName ?? null, familyName: found.familyName ?? null } : NO_NAME,
      );
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
  const names = await personNames(
    people,
    ctx,
    rows.map((row) => row.studentId),
  );
  return rows.map((row) => {
    const person = row.studentId === null ? NO_NAME : (names.get(row.studentId) ?? NO_NAME);
    return { ...row, studentName: [person.givenName, person.familyName].filter(Boolean).join(' ') || null };
  });
}
