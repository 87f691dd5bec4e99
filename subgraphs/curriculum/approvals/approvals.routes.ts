import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { declareRoute, headerOf, sendCommandResult } from '../../../platform/http.ts';
import { ACCESS } from '../access.ts';
import { CURRICULUM_V1 } from '../paths.ts';
import type { CurriculumDeps } from '../deps.ts';
import { ApproveCourseInput, ListApprovalsQuery } from './approvals.schema.ts';
import { approveCourse, listApprovals } from './approvals.service.ts';
import { CourseApprovalPageResponse, CourseApprovalResponse } from '../learner.responses.ts';

const CourseParams = z.object({ courseId: z.string().min(1) });

export function approvalRoutes(app: FastifyInstance, deps: CurriculumDeps): void {
  declareRoute(app, 'approvals', {
    method: 'POST',
    url: `${CURRICULUM_V1}/courses/:courseId/approvals`,
    access: ACCESS.write,
    summary: 'Approve a published, complete course graph: snapshot its exact KC versions and firm the draft ones',
    description:
      'Needs Idempotency-Key. expected_course_graph_sha256 and expected_kc_snapshot_sha256, when sent, must equal the ' +
      'current digests. Approving a graph the latest approval already holds answers that approval (200).',
    params: CourseParams,
    body: ApproveCourseInput,
    response: CourseApprovalResponse,
    idempotencyKey: 'required',
    errors: [409, 502, 503],
    success: { status: 201, description: 'course_approval (200 when the latest approval already holds this graph)' },
    handler: async (request, reply) => {
      const { ctx } = request;
      const input = {
        courseId: request.params.courseId,
        body: request.body,
        idempotencyKey: headerOf(request, 'idempotency-key'),
      };
      return sendCommandResult(reply, await approveCourse(deps, ctx, input));
    },
  });
  declareRoute(app, 'approvals', {
    method: 'GET',
    url: `${CURRICULUM_V1}/courses/:courseId/approvals`,
    access: ACCESS.read,
    summary: 'The approvals of a course in sequence order, each with its exact KC-version snapshot',
    params: CourseParams,
    querystring: ListApprovalsQuery,
    response: CourseApprovalPageResponse,
    handler: async (request) =>
      listApprovals(deps, request.ctx, { courseId: request.params.courseId, query: request.query }),
  });
}
