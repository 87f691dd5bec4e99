import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { DomainError } from '../../../platform/errors.ts';
import { PREFER_RETURN, declareRoute, headerOf, preferredReturn, sendCommandResult } from '../../../platform/http.ts';
import { ACCESS } from '../access.ts';
import {
  ListEventsQuery,
  RecordEventsInput,
  TallyEventsQuery,
  getEvent,
  listEventFields,
  recordEvents,
  refusePreconditions,
  tallyEvents,
} from './events.service.ts';
import type { EventsDeps } from '../deps.ts';
import { EventPageResponse, EventTallyResponse, OneEventResponse, RecordedEventsAnswer } from './events.responses.ts';

const EventParams = z.object({ eventId: z.string() });

export function eventRoutes(app: FastifyInstance, reads: EventsDeps): void {
  declareRoute(app, 'events', {
    method: 'POST',
    url: '/events',
    access: ACCESS.write,
    summary: 'Record a batch of immutable learning events',
    response: RecordedEventsAnswer,
    idempotencyKey: 'optional',
    headers: z.object({ prefer: PREFER_RETURN.optional() }),
    errors: [409, 412, 422],
    description:
      'Optional Idempotency-Key. eventType, profile, action, actorRef and objectRef are derived (Caliper 1.2) when omitted.',
    body: RecordEventsInput,
    success: {
      status: 202,
      description:
        '{data: [accepted event projections]}, or with Prefer: return=minimal {data: [{id, modifiedAt}]} and Preference-Applied: return=minimal',
    },
    handler: async (request, reply) => {
      const { ctx } = request;
      refusePreconditions(request.headers);
      const result = await recordEvents(reads, ctx, {
        body: request.body,
        idempotencyKey: headerOf(request, 'idempotency-key'),
      });
      const minimal = preferredReturn(request.headers.prefer) === 'minimal';
      if (minimal) reply.header('preference-applied', 'return=minimal');
      const answer = minimal
        ? { ...result, value: { data: result.value.data.map(({ id, modifiedAt }) => ({ id, modifiedAt })) } }
        : result;
      return sendCommandResult(reply, answer, { createdStatus: 202, status: 202 });
    },
  });
  declareRoute(app, 'events', {
    method: 'GET',
    url: '/events',
    access: ACCESS.read,
    summary: 'List events in commit order; poll with modifiedSince and drain the cursors',
    response: EventPageResponse,
    querystring: ListEventsQuery,
    handler: async (request) => listEventFields(reads, request.ctx, { query: request.query }),
  });
  declareRoute(app, 'events', {
    method: 'GET',
    url: '/events/:eventId',
    access: ACCESS.read,
    summary: 'Read one event',
    response: OneEventResponse,
    params: EventParams,
    handler: async (request) => getEvent(reads, request.ctx, request.params),
  });
  declareRoute(app, 'events', {
    method: 'GET',
    url: '/event-tallies',
    access: ACCESS.read,
    summary: 'Counts per kind of the events on one content item or one exact version of it',
    description:
      'One row per kind: eventCount, first and last happenedAt, last modifiedAt. renderedContentId matches the player extension rendered_content_id. The same boundaries as GET /events.',
    response: EventTallyResponse,
    querystring: TallyEventsQuery,
    handler: async (request) => tallyEvents(reads, request.ctx, { query: request.query }),
  });
  for (const method of ['PUT', 'PATCH', 'DELETE'] as const) {
    declareRoute(app, 'events', {
      method,
      url: '/events/:eventId',
      summary: 'Events are immutable: refused',
      response: 'refused',
      errors: [405, 412],
      params: EventParams,
      handler: async (request, reply) => {
        refusePreconditions(request.headers);
        // RFC 9110: a 405 carries the methods the resource does have.
        reply.header('allow', 'GET, HEAD');
        throw new DomainError('method_not_allowed', 'Events are immutable: no update and no delete.');
      },
    });
  }
}
