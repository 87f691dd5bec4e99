import { curriculumIdempotency } from './tables.ts';
import { SERVICE_ROOTS } from '../../platform/config.ts';
import {
  featureRoutes,
  serviceSchema,
  snakeCaseMint,
  type PlatformRuntime,
  type ServiceDefinition,
} from '../../platform/service.ts';
import { CURRICULUM_NAMESPACE } from './errors.ts';
import { curriculumResolvers } from './resolvers/index.ts';
import { componentRoutes } from './components/components.routes.ts';
import { kcRoutes } from './kcs/kcs.routes.ts';
import { kcGraphRoutes } from './kc-graph/kc-graph.routes.ts';
import { associationRoutes } from './associations/associations.routes.ts';
import { repointRoutes } from './repoint/repoint.routes.ts';
import { standardsRoutes } from './standards/standards.routes.ts';
import { approvalRoutes } from './approvals/approvals.routes.ts';
import { nextLessonRoutes } from './routing/next-lesson.routes.ts';
import { placementRoutes } from './placement/placement.routes.ts';
import { gateRoutes } from './gates/gates.routes.ts';
import { ingestRoutes } from './ingest/ingest.routes.ts';
import { curriculumDeps } from './deps.ts';

/** The curriculum service: its subgraph and its documented REST paths over the same functions. */
export function curriculumService(runtime: PlatformRuntime): ServiceDefinition {
  const deps = curriculumDeps(runtime);
  return {
    name: 'curriculum',
    title: 'Curriculum service',
    description: 'Component trees, the KC registry and exact content pins checked against the content service.',
    root: SERVICE_ROOTS.curriculum,
    namespace: CURRICULUM_NAMESPACE,
    schema: serviceSchema('curriculum', curriculumResolvers(deps)),
    routes: featureRoutes(deps, [
      componentRoutes,
      kcRoutes,
      kcGraphRoutes,
      associationRoutes,
      repointRoutes,
      standardsRoutes,
      gateRoutes,
      ingestRoutes,
      approvalRoutes,
      nextLessonRoutes,
      placementRoutes,
    ]),
    ...snakeCaseMint,
    idempotency: curriculumIdempotency,
  };
}
