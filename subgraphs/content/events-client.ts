import { z } from 'zod';
import type { RequestContext } from '../../platform/context.ts';
import { DomainError } from '../../platform/errors.ts';
import {
  expectAnswer,
  serviceGet,
  type CallProblems,
  type ServiceClientOptions,
} from '../../platform/service-client.ts';

/**
 * Content's only way to learner activity: the events service's published read GET /event-tallies
 * (counts per kind of the events on one exact content version), over HTTP with a timeout and a
 * service token of the caller's tenant. Content stores none of it; any anomaly fails closed with a
 * typed problem.
 */

const EventTally = z.object({
  kind: z.string(),
  eventCount: z.number().int().nonnegative(),
  lastHappenedAt: z.string(),
});
export type EventTally = z.infer<typeof EventTally>;

const TallyAnswer = z.object({
  contentId: z.string(),
  renderedContentId: z.string().nullable(),
  data: z.array(EventTally),
});

const EVENTS_PROBLEMS: CallProblems = {
  service: 'The events service',
  unavailable: 'content.events_unavailable',
  invalid: 'content.events_answer_invalid',
};

export interface ContentEventsClient {
  /** Per kind, the events that name this exact version (player extension rendered_content_id). */
  versionTallies(ctx: RequestContext, version: { contentId: string; versionId: string }): Promise<EventTally[]>;
}

export function httpContentEventsClient(options: ServiceClientOptions): ContentEventsClient {
  const get = serviceGet(options, 'content', ['events:read']);
  return {
    async versionTallies(ctx, version) {
      const params = new URLSearchParams({ contentId: version.contentId, renderedContentId: version.versionId });
      const result = await get(ctx, `/event-tallies?${params}`);
      const answer = TallyAnswer.safeParse(expectAnswer(result, 200, EVENTS_PROBLEMS));
      if (
        !answer.success ||
        answer.data.contentId !== version.contentId ||
        answer.data.renderedContentId !== version.versionId
      ) {
        throw new DomainError(
          EVENTS_PROBLEMS.invalid,
          'The events service answered without the tallies of this version.',
        );
      }
      return answer.data.data;
    },
  };
}
