import { asc, eq, isNull, or } from 'drizzle-orm';
import type { RequestContext } from '../../../platform/context.ts';
import { requireAccess } from '../../../platform/auth.ts';
import { DomainError } from '../../../platform/errors.ts';
import { parseInput } from '../../../platform/validation.ts';
import { ACCESS } from '../access.ts';
import { requireStudentInBoundary } from '../learner-boundary.ts';
import { components } from '../tables.ts';
import type { CurriculumDeps } from '../deps.ts';
import { PlacementQuery } from './placement.schema.ts';
import { type Component, findComponents, presentComponent, selectComponents } from '../queries.ts';

/**
 * GET /tracks/{trackId}/placement-candidates (rule 16). A track is a kind=track component naming a
 * subject and a numeric grade band (alpha.course_grade_levels, or alpha.grade_level) with its
 * engine and policy references; its candidates are the published course roots of that subject whose
 * numeric grade levels meet the band. CASE grade_id strings are standards metadata and never read.
 */

/** The numeric grade levels a component declares: course_grade_levels, else grade_level, else none. */
export function gradeLevelsOf(alpha: Record<string, unknown>): number[] {
  const levels = alpha.course_grade_levels as number[] | undefined;
  if (levels && levels.length > 0) return [...levels].sort((a, b) => a - b);
  return typeof alpha.grade_level === 'number' ? [alpha.grade_level] : [];
}

export async function placementCandidates(
  deps: CurriculumDeps,
  ctx: RequestContext,
  input: { trackId: string; query: unknown },
) {
  requireAccess(ctx.principal, ACCESS.read, 'read placement candidates');
  const query = parseInput(PlacementQuery, input.query);
  if (query.studentId !== undefined) requireStudentInBoundary(ctx, query.studentId);
  const [track] = await findComponents(deps.db, ctx.tenantId, [input.trackId]);
  if (!track || track.kind !== 'track' || track.status !== 'active')
    throw new DomainError('not_found', `No track ${input.trackId} in this tenant.`);
  const trackSubject = track.alpha.subject_id as string | undefined;
  const subjectId = trackSubject ?? query.subjectId;
  const band = gradeLevelsOf(track.alpha);
  const answer = {
    track_id: track.component_id,
    subject_id: subjectId ?? null,
    student_id: query.studentId ?? null,
    as_of_date: query.asOfDate ?? null,
    grade_levels: band,
    engine_ref: (track.alpha.engine_ref as string | undefined) ?? null,
    entry_policy_ref: (track.alpha.entry_policy_ref as string | undefined) ?? null,
    exit_policy_ref: (track.alpha.exit_policy_ref as string | undefined) ?? null,
  };
  if (trackSubject !== undefined && query.subjectId !== undefined && query.subjectId !== trackSubject)
    return { ...answer, candidates: [] as Component[] };
  const rows = await selectComponents(
    deps.db,
    ctx.tenantId,
    { kind: 'course', status: 'active', publicationStatus: 'published' },
    isNull(components.parentComponentId),
    subjectId !== undefined ? eq(components.subjectId, subjectId) : undefined,
    query.studentId !== undefined
      ? or(isNull(components.studentId), eq(components.studentId, query.studentId))
      : isNull(components.studentId),
  ).orderBy(asc(components.componentId));
  const inBand = (levels: number[]) => band.length === 0 || levels.some((level) => band.includes(level));
  const candidates = rows
    .map(presentComponent)
    .map((course) => ({ course, levels: gradeLevelsOf(course.alpha) }))
    .filter(({ levels }) => levels.length > 0 && inBand(levels))
    .sort((a, b) => a.levels[0] - b.levels[0] || (a.course.component_id < b.course.component_id ? -1 : 1))
    .map(({ course }) => course);
  return { ...answer, candidates };
}
export type PlacementCandidates = Awaited<ReturnType<typeof placementCandidates>>;
