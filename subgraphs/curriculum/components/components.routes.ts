import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { declareRoute } from '../../../platform/http.ts';
import { ACCESS } from '../access.ts';
import { CURRICULUM_V1 } from '../paths.ts';
import { declareResourceRoutes, resourceHandlers } from '../route-handlers.ts';
import { ComponentInput, ListComponentsQuery, TreeQuery } from './components.schema.ts';
import { createComponent, getComponent, listComponents, readTree } from './components.service.ts';
import type { CurriculumDeps } from '../deps.ts';
import { PatchComponentInput } from './component-edits.schema.ts';
import { patchComponent, retireComponent } from './component-edits.service.ts';
import { ComponentPageResponse, ComponentResponse, ComponentTreeResponse } from './components.responses.ts';

const ComponentParams = z.object({ componentId: z.string().min(1) });
const CourseParams = z.object({ courseId: z.string().min(1) });

export function componentRoutes(app: FastifyInstance, deps: CurriculumDeps): void {
  declareResourceRoutes(app, deps, {
    tag: 'components',
    path: 'components',
    params: ComponentParams,
    response: ComponentResponse,
    precondition: 'x-curriculum-if-match',
    create: {
      summary: 'Create a component (or reactivate a retired id); a target_ref pin must be release eligible',
      errors: [409, 422, 502, 503],
      body: ComponentInput,
      success: 'curriculum_component (200 when unchanged or reactivated)',
      access: ACCESS.write,
      rule: createComponent,
    },
    list: {
      summary: 'List components',
      page: ComponentPageResponse,
      query: ListComponentsQuery,
      access: ACCESS.read,
      rule: listComponents,
    },
    read: {
      summary: 'Read a component; the ETag feeds X-Curriculum-If-Match',
      access: ACCESS.read,
      rule: getComponent,
    },
    edit: {
      summary: 'Change mutable fields, or reparent in isolation (keeps component and edge identity)',
      description:
        'Needs X-Curriculum-If-Match and Idempotency-Key. Publishing a mastery_gate needs content to report its exact test_bank version serveable and release eligible.',
      errors: [409, 422, 502, 503],
      body: PatchComponentInput,
      access: ACCESS.write,
      rule: patchComponent,
    },
    retire: {
      summary: 'Soft-retire a component; its incident isChildOf associations retire with it',
      access: ACCESS.write,
      rule: retireComponent,
    },
  });
  declareRoute(app, 'components', {
    method: 'GET',
    url: `${CURRICULUM_V1}/components/:componentId/tree`,
    access: ACCESS.read,
    summary: 'The component and its descendants in sibling order',
    response: ComponentTreeResponse,
    params: ComponentParams,
    querystring: TreeQuery,
    handler: resourceHandlers(deps).list(readTree),
  });
  declareRoute(app, 'components', {
    method: 'GET',
    url: `${CURRICULUM_V1}/courses/:courseId/tree`,
    access: ACCESS.read,
    summary: 'Compatibility alias of the component tree for course roots',
    response: ComponentTreeResponse,
    params: CourseParams,
    querystring: TreeQuery,
    handler: async (request) =>
      readTree(deps, request.ctx, { componentId: request.params.courseId, query: request.query, courseRootOnly: true }),
  });
}
