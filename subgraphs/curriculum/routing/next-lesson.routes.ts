import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { declareRoute } from '../../../platform/http.ts';
import { ACCESS } from '../access.ts';
import { CURRICULUM_V1 } from '../paths.ts';
import type { CurriculumDeps } from '../deps.ts';
import { NextLessonQuery } from './next-lesson.schema.ts';
import { nextLesson } from './next-lesson.service.ts';
import { NextLessonResponse } from '../learner.responses.ts';

export function nextLessonRoutes(app: FastifyInstance, deps: CurriculumDeps): void {
  declareRoute(app, 'routing', {
    method: 'GET',
    url: `${CURRICULUM_V1}/courses/:courseId/next-lesson`,
    access: ACCESS.read,
    summary: 'The next lesson of a course (rules 10, 11), with the approval it routed on and its firm KC snapshot',
    description: 'Fails closed on a stale or missing approval, a draft on the route, or an ineligible pinned version.',
    params: z.object({ courseId: z.string().min(1) }),
    querystring: NextLessonQuery,
    response: NextLessonResponse,
    errors: [409, 502, 503],
    handler: async (request) =>
      nextLesson(deps, request.ctx, { courseId: request.params.courseId, query: request.query }),
  });
}
