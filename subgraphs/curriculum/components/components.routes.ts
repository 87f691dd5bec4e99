import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { declareRoute, writeHeaders, sendCommandResult } from '../../../platform/http.ts';
import { CURRICULUM_V1 } from '../paths.ts';
import { ComponentInput, ListComponentsQuery, TreeQuery } from './components.schema.ts';
import { createComponent, getComponent, listComponents, readTree } from './components.service.ts';
import type { CurriculumDeps } from '../deps.ts';
import { PatchComponentInput } from './component-edits.schema.ts';
import { patchComponent, retireComponent } from './component-edits.service.ts';
import { ComponentPageResponse, ComponentResponse, ComponentTreeResponse } from './components.responses.ts';

const ComponentParams = z.object({ componentId: z.string().min(1) });
const CourseParams = z.object({ courseId: z.string().min(1) });

export function componentRoutes(app: FastifyInstance, deps: CurriculumDeps): void {
  declareRoute(app, 'components', {
    method: 'POST',
    url: `${CURRICULUM_V1}/components`,
    summary: 'Create a component (or reactivate a retired id); a target_ref pin must be release eligible',
    response: ComponentResponse,
    etag: true,
    idempotencyKey: 'optional',
    errors: [409, 422, 502, 503],
    body: ComponentInput,
    success: { status: 201, description: 'curriculum_component (200 when unchanged or reactivated)' },
    handler: async (request, reply) => {
      const result = await createComponent(deps, request.ctx, { body: request.body });
      return sendCommandResult(reply, result, { etag: result.value.etag });
    },
  });
  declareRoute(app, 'components', {
    method: 'GET',
    url: `${CURRICULUM_V1}/components`,
    summary: 'List components',
    response: ComponentPageResponse,
    querystring: ListComponentsQuery,
    handler: async (request) => listComponents(deps, request.ctx, { query: request.query }),
  });
  declareRoute(app, 'components', {
    method: 'GET',
    url: `${CURRICULUM_V1}/components/:componentId`,
    summary: 'Read a component; the ETag feeds X-Curriculum-If-Match',
    response: ComponentResponse,
    etag: true,
    params: ComponentParams,
    handler: async (request, reply) => {
      const { ctx } = request;
      const component = await getComponent(deps, ctx, request.params);
      return reply.header('etag', component.etag).send(component);
    },
  });
  declareRoute(app, 'components', {
    method: 'PATCH',
    url: `${CURRICULUM_V1}/components/:componentId`,
    summary: 'Change mutable fields, or reparent in isolation (keeps component and edge identity)',
    response: ComponentResponse,
    etag: true,
    idempotencyKey: 'required',
    precondition: { header: 'x-curriculum-if-match', required: true },
    errors: [409, 422, 502, 503],
    description:
      'Needs X-Curriculum-If-Match and Idempotency-Key. Publishing a mastery_gate needs content to report its exact test_bank version serveable and release eligible.',
    params: ComponentParams,
    body: PatchComponentInput,
    handler: async (request, reply) => {
      const { ctx } = request;
      const result = await patchComponent(deps, ctx, {
        ...request.params,
        body: request.body,
        ...writeHeaders(request, 'x-curriculum-if-match'),
      });
      return sendCommandResult(reply, result, { etag: result.value.etag });
    },
  });
  declareRoute(app, 'components', {
    method: 'DELETE',
    url: `${CURRICULUM_V1}/components/:componentId`,
    summary: 'Soft-retire a component; its incident isChildOf associations retire with it',
    response: ComponentResponse,
    etag: true,
    idempotencyKey: 'required',
    precondition: { header: 'x-curriculum-if-match', required: true },
    params: ComponentParams,
    handler: async (request, reply) => {
      const { ctx } = request;
      const result = await retireComponent(deps, ctx, {
        ...request.params,
        ...writeHeaders(request, 'x-curriculum-if-match'),
      });
      return sendCommandResult(reply, result, { etag: result.value.etag });
    },
  });
  declareRoute(app, 'components', {
    method: 'GET',
    url: `${CURRICULUM_V1}/components/:componentId/tree`,
    summary: 'The component and its descendants in sibling order',
    response: ComponentTreeResponse,
    params: ComponentParams,
    querystring: TreeQuery,
    handler: async (request) => readTree(deps, request.ctx, { ...request.params, query: request.query }),
  });
  declareRoute(app, 'components', {
    method: 'GET',
    url: `${CURRICULUM_V1}/courses/:courseId/tree`,
    summary: 'Compatibility alias of the component tree for course roots',
    response: ComponentTreeResponse,
    params: CourseParams,
    querystring: TreeQuery,
    handler: async (request) =>
      readTree(deps, request.ctx, { componentId: request.params.courseId, query: request.query, courseRootOnly: true }),
  });
}
