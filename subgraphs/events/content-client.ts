import { z } from 'zod';
import type { RequestContext } from '../../platform/context.ts';
import { DomainError } from '../../platform/errors.ts';
import { MAX_PAGE_SIZE } from '../../platform/cursor.ts';
import {
  expectAnswer,
  serviceGet,
  type CallProblems,
  type ServiceClientOptions,
} from '../../platform/service-client.ts';
import { isUuid } from '../../platform/validation.ts';

/**
 * Events' only way to content: its published GET /items?content_ids= (which of a batch of ids are
 * items of the tenant), with a service token of the caller's tenant and a timeout; one call per
 * batch of up to MAX_PAGE_SIZE ids. Any anomaly fails closed with a typed problem.
 */

const ItemPage = z.object({ data: z.array(z.object({ content_id: z.string() })) });

const CONTENT_PROBLEMS: CallProblems = {
  service: 'The content service',
  unavailable: 'events:content_unavailable',
  invalid: 'events:content_answer_invalid',
};

export interface EventsContentClient {
  /** The ids among `contentIds` that name content items of the caller's tenant. */
  existingItems(ctx: RequestContext, contentIds: readonly string[]): Promise<Set<string>>;
}

export function httpEventsContentClient(options: ServiceClientOptions): EventsContentClient {
  const get = serviceGet(options, 'events', ['read:content']);
  return {
    async existingItems(ctx, contentIds) {
      // Content ids are uuids: anything else names no item and needs no call.
      const asked = [...new Set(contentIds.filter(isUuid).map((id) => id.toLowerCase()))];
      const found = new Set<string>();
      for (let start = 0; start < asked.length; start += MAX_PAGE_SIZE) {
        const batch = asked.slice(start, start + MAX_PAGE_SIZE);
        const params = new URLSearchParams({ content_ids: batch.join(','), limit: String(batch.length) });
        const result = await get(ctx, `/tenants/${encodeURIComponent(ctx.tenantId)}/alpha/content/items?${params}`);
        const answer = ItemPage.safeParse(expectAnswer(result, 200, CONTENT_PROBLEMS));
        if (!answer.success)
          throw new DomainError(CONTENT_PROBLEMS.invalid, 'The content service answered a list without its items.');
        for (const item of answer.data.data) found.add(item.content_id.toLowerCase());
      }
      return found;
    },
  };
}
