import type { CursorCodec, Page } from '../../platform/cursor.ts';
import type { Database } from '../../platform/db.ts';
import type { RequestContext } from '../../platform/context.ts';
import type { CommandResult, IdempotencyTable } from '../../platform/idempotency.ts';
import { httpPeopleClient, type PeopleClient } from '../../platform/people-client.ts';
import { serviceClientOptions, type PlatformRuntime } from '../../platform/service.ts';
import { httpCurriculumClient, type CurriculumClient } from './curriculum-client.ts';
import { httpContentEventsClient, type ContentEventsClient } from './events-client.ts';
import { contentIdempotency } from './tables.ts';
import type { ItemKey } from './inputs.ts';

/** What content's rules need beyond their input: its database and the published APIs it asks. */
export interface ContentDeps {
  db: Database;
  cursors: CursorCodec;
  idempotency: IdempotencyTable;
  curriculum: CurriculumClient;
  events: ContentEventsClient;
  people: PeopleClient;
  /** Public origin of delivery URLs. */
  contentUrl: () => string;
}

/** A write on one item: its id, the request body and the Idempotency-Key. */
export type ItemCommand<T> = (
  deps: ContentDeps,
  ctx: RequestContext,
  input: { contentId: string; body: unknown; idempotencyKey: string | undefined },
) => Promise<CommandResult<T>>;

/** A list of one item's rows: the item's id (and a query, where it pages) in, one page out. */
export type ItemList<T, Input extends ItemKey = ItemKey> = (
  deps: ContentDeps,
  ctx: RequestContext,
  input: Input,
) => Promise<Page<T>>;

export function contentDeps(runtime: PlatformRuntime): ContentDeps {
  return {
    db: runtime.database.db,
    cursors: runtime.cursors,
    idempotency: contentIdempotency,
    curriculum: httpCurriculumClient(serviceClientOptions(runtime, 'curriculumUrl')),
    events: httpContentEventsClient(serviceClientOptions(runtime, 'eventsUrl')),
    people: httpPeopleClient({ ...serviceClientOptions(runtime, 'peopleUrl'), caller: 'content' }),
    contentUrl: () => runtime.config.contentUrl,
  };
}
