import { contentIdempotency } from './tables.ts';
import { SERVICE_ROOTS } from '../../platform/config.ts';
import {
  featureRoutes,
  serviceSchema,
  snakeCaseMint,
  type PlatformRuntime,
  type ServiceDefinition,
} from '../../platform/service.ts';
import { tenantContext } from './http.ts';
import { CONTENT_NAMESPACE } from './errors.ts';
import { contentResolvers } from './resolvers/index.ts';
import { itemRoutes } from './items/items.routes.ts';
import { versionRoutes } from './versions/versions.routes.ts';
import { eligibilityRoutes } from './eligibility/eligibility.routes.ts';
import { trustRoutes } from './trust/trust.routes.ts';
import { publishRoutes } from './publish/publish.routes.ts';
import { questionRoutes } from './questions/questions.routes.ts';
import { kcTagRoutes } from './kc-tags/kc-tags.routes.ts';
import { contentDeps } from './deps.ts';
import { catalogRoutes } from './catalog/catalog.routes.ts';
import { recordRoutes } from './records/records.routes.ts';
import { mediaRoutes } from './media/media.routes.ts';
import { referenceRoutes } from './references/references.routes.ts';
import { testServeRoutes } from './test-serve/test-serve.routes.ts';
import { compositionRoutes } from './composition/composition.routes.ts';

/** The content service: its subgraph and its documented REST paths over the same functions. */
export function contentService(runtime: PlatformRuntime): ServiceDefinition {
  const deps = contentDeps(runtime);
  return {
    name: 'content',
    title: 'Content service',
    description: 'Items, append-only exact versions, release eligibility and trust.',
    root: SERVICE_ROOTS.content,
    namespace: CONTENT_NAMESPACE,
    schema: serviceSchema('content', contentResolvers(deps)),
    routes: featureRoutes(deps, [
      itemRoutes,
      versionRoutes,
      eligibilityRoutes,
      trustRoutes,
      publishRoutes,
      questionRoutes,
      kcTagRoutes,
      catalogRoutes,
      recordRoutes,
      mediaRoutes,
      referenceRoutes,
      testServeRoutes,
      compositionRoutes,
    ]),
    ...snakeCaseMint,
    idempotency: contentIdempotency,
    requestContext: (request) => tenantContext(runtime, request),
  };
}
