import { z } from 'zod';
import { eventsIdempotency } from './tables.ts';
import { DEMO_TENANT } from '../../platform/auth.ts';
import { SERVICE_ROOTS } from '../../platform/config.ts';
import { contextFor } from '../../platform/context.ts';
import { featureRoutes, serviceSchema, type PlatformRuntime, type ServiceDefinition } from '../../platform/service.ts';
import { eventsContext } from './http.ts';
import { EVENTS_NAMESPACE } from './errors.ts';
import { sourceRoutes } from './sources/sources.routes.ts';
import { eventRoutes } from './learning/events.routes.ts';
import { importRoutes } from './imports/imports.routes.ts';
import { momentRoutes } from './moments/moments.routes.ts';
import { eventsDeps } from './deps.ts';
import { ensureDemoSource } from './sources/sources.service.ts';
import { eventsResolvers } from './resolvers.ts';

/** What a demo token may and may not do at the events boundary. */
const IDENTITY_BOUNDARY_CONTRACT = {
  tenantScoped: true,
  boundaryClaims: ['studentIds', 'orgIds', 'schoolIds', 'contentIds'],
  rule: 'A token carrying any boundary claim may read and write only inside the listed values; outside it gets 403 events:boundary_rejected.',
  demoTokenBoundary: null,
  canRegisterActivitySources: false,
};

const MintResponse = z.strictObject({
  token: z.string(),
  tenantId: z.string(),
  defaultActivitySourceId: z.string().describe('An activity source registered for the demo tenant'),
  expiresIn: z.number().int().describe('Seconds'),
  identityBoundary: z.strictObject({
    tenantScoped: z.boolean(),
    boundaryClaims: z.array(z.string()),
    rule: z.string(),
    demoTokenBoundary: z.null(),
    canRegisterActivitySources: z.boolean(),
  }),
});

export function eventsService(runtime: PlatformRuntime): ServiceDefinition {
  const reads = eventsDeps(runtime);
  return {
    name: 'events',
    title: 'Events service',
    description: 'Immutable learning events over Caliper 1.2, source imports, attendance and discipline views.',
    root: SERVICE_ROOTS.events,
    namespace: EVENTS_NAMESPACE,
    schema: serviceSchema('events', eventsResolvers(reads)),
    routes: featureRoutes(reads, [sourceRoutes, eventRoutes, importRoutes, momentRoutes]),
    async mintResponse(minted) {
      const principal = await runtime.auth.authenticate(`Bearer ${minted.token}`);
      const source = await ensureDemoSource(reads, contextFor(principal, { requestId: 'mint', traceId: 'mint' }));
      return {
        token: minted.token,
        tenantId: DEMO_TENANT,
        defaultActivitySourceId: source.id,
        expiresIn: minted.expiresIn,
        identityBoundary: IDENTITY_BOUNDARY_CONTRACT,
      };
    },
    mintResponseSchema: MintResponse,
    idempotency: eventsIdempotency,
    requestContext: (request) => eventsContext(runtime, request),
  };
}
