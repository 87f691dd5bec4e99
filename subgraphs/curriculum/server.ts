import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildSubgraphSchema } from '@apollo/subgraph';
import { parse } from 'graphql';
import { curriculumIdempotency } from './tables.ts';
import { SERVICE_ROOTS } from '../../platform/config.ts';
import { SnakeCaseMintResponse, snakeCaseMintResponse, type PlatformRuntime, type ServiceDefinition } from '../../platform/service.ts';
import { CURRICULUM_NAMESPACE } from './errors.ts';
import { curriculumResolvers } from './resolvers.ts';
import { componentRoutes } from './components/components.routes.ts';
import { kcRoutes } from './kcs/kcs.routes.ts';
import { kcGraphRoutes } from './kc-graph/kc-graph.routes.ts';
import { associationRoutes } from './associations/associations.routes.ts';
import { repointRoutes } from './repoint/repoint.routes.ts';
import { standardsRoutes } from './standards/standards.routes.ts';
import { httpContentClient, type ContentEligibilityClient } from './content-client.ts';
import type { CurriculumDeps } from './components/components.service.ts';

export const CURRICULUM_SDL = fs.readFileSync(fileURLToPath(new URL('../../schema/curriculum.graphql', import.meta.url)), 'utf8');

export function curriculumDeps(runtime: PlatformRuntime, content?: ContentEligibilityClient): CurriculumDeps {
  return {
    db: runtime.database.db,
    cursors: runtime.cursors,
    content:
      content ??
      httpContentClient({ baseUrl: () => runtime.config.contentUrl, timeoutMs: runtime.config.serviceCallTimeoutMs, auth: runtime.auth }),
  };
}

/** The curriculum service: its subgraph and its documented REST paths over the same functions. */
export function curriculumService(runtime: PlatformRuntime): ServiceDefinition {
  const deps = curriculumDeps(runtime);
  return {
    name: 'curriculum',
    title: 'Curriculum service',
    description: 'Component trees, the KC registry and exact content pins checked against the content service.',
    root: SERVICE_ROOTS.curriculum,
    namespace: CURRICULUM_NAMESPACE,
    schema: buildSubgraphSchema({ typeDefs: parse(CURRICULUM_SDL), resolvers: curriculumResolvers(deps) as never }),
    routes(app) {
      componentRoutes(app, deps);
      kcRoutes(app, deps);
      kcGraphRoutes(app, deps);
      associationRoutes(app, deps);
      repointRoutes(app, deps);
      standardsRoutes(app, deps);
    },
    mintResponse: snakeCaseMintResponse,
    mintResponseSchema: SnakeCaseMintResponse,
    idempotency: curriculumIdempotency,
  };
}
