import { z } from 'zod';
import type { RequestContext } from '../../platform/context.ts';
import { DomainError } from '../../platform/errors.ts';
import {
  expectAnswer,
  serviceGet,
  type CallProblems,
  type ServiceCallResult,
  type ServiceClientOptions,
} from '../../platform/service-client.ts';

/**
 * Curriculum's only way to learner history: the events service's published reads (GET /events
 * filtered by student, curriculum component and kind; GET /events/{id}), over HTTP with a timeout
 * and a service token of the caller's tenant. Curriculum stores none of it; any anomaly fails
 * closed with a typed problem.
 */

export const PLAYER_EXTENSIONS = 'urn:alpha:events:player';
export const GRADING_EXTENSIONS = 'urn:alpha:events:grading';

const LearnerEvent = z.object({
  id: z.string(),
  kind: z.string(),
  studentId: z.string().nullable(),
  contentId: z.string().nullable(),
  orgId: z.string().nullable(),
  happenedAt: z.string(),
  extensions: z.record(z.string(), z.unknown()),
});
export type LearnerEvent = z.infer<typeof LearnerEvent>;
/** A list asks for these fields only: no student names (the people service) and no Caliper form are read for it. */
const LEARNER_EVENT_FIELDS = Object.keys(LearnerEvent.shape).join(',');

const EventPage = z.object({ data: z.array(LearnerEvent), nextCursor: z.string().nullable().optional() });
const EventDetail = z.object({ data: LearnerEvent });

/** A student's history on one gate is small; a longer one is refused rather than read in part. */
const MAX_PAGES = 10;
const PAGE_SIZE = 200;

export interface ComponentEventsQuery {
  studentId: string;
  componentId: string;
  /** Events of any of these kinds (one events read for all of them). */
  kinds: string[];
  /** Inclusive upper bound of happenedAt (ISO timestamp). */
  happenedAtTo: string;
}

export interface EventsClient {
  /** Every event of the student on the component of those kinds, in commit order. */
  componentEvents(ctx: RequestContext, query: ComponentEventsQuery): Promise<LearnerEvent[]>;
  /** One event by id, or undefined when the events service has none in this tenant. */
  event(ctx: RequestContext, eventId: string): Promise<LearnerEvent | undefined>;
}

export function httpEventsClient(options: ServiceClientOptions): EventsClient {
  const get = serviceGet(options, 'curriculum', ['events:read']);
  return {
    async componentEvents(ctx, { kinds, ...query }) {
      const events: LearnerEvent[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < MAX_PAGES; page += 1) {
        const params = new URLSearchParams({
          ...query,
          kind: kinds.join(','),
          fields: LEARNER_EVENT_FIELDS,
          pageSize: String(PAGE_SIZE),
          ...(cursor ? { cursor } : {}),
        });
        const answer = EventPage.safeParse(answered(await get(ctx, `/events?${params}`), 200));
        if (!answer.success) throw invalidAnswer('The events service answered a list without its events.');
        events.push(...answer.data.data);
        cursor = answer.data.nextCursor ?? undefined;
        if (!cursor) return events;
      }
      throw new DomainError(
        'curriculum:events_answer_invalid',
        `The student's history on ${query.componentId} is longer than ${MAX_PAGES * PAGE_SIZE} events.`,
      );
    },
    async event(ctx, eventId) {
      const result = await get(ctx, `/events/${encodeURIComponent(eventId)}`);
      if (result.ok && result.status === 404) return undefined;
      const answer = EventDetail.safeParse(answered(result, 200));
      if (!answer.success) throw invalidAnswer('The events service answered an event read without the event.');
      return answer.data.data;
    },
  };
}

const EVENTS_PROBLEMS: CallProblems = {
  service: 'The events service',
  unavailable: 'curriculum:events_unavailable',
  invalid: 'curriculum:events_answer_invalid',
};

const answered = (result: ServiceCallResult, expected: number) => expectAnswer(result, expected, EVENTS_PROBLEMS);

function invalidAnswer(detail: string): DomainError {
  return new DomainError(EVENTS_PROBLEMS.invalid, detail);
}
