import type { CursorCodec } from '../../platform/cursor.ts';
import type { Database } from '../../platform/db.ts';
import type { IdempotencyTable } from '../../platform/idempotency.ts';
import { serviceClientOptions, type PlatformRuntime } from '../../platform/service.ts';
import { httpContentClient, type ContentEligibilityClient } from './content-client.ts';
import { curriculumIdempotency } from './tables.ts';
import { httpEventsClient, type EventsClient } from './events-client.ts';
import { httpContentBanksClient, type ContentBanksClient } from './gates/content-banks.ts';

/** What curriculum's rules need beyond their input: its database and the published APIs it asks. */
export interface CurriculumDeps {
  db: Database;
  cursors: CursorCodec;
  idempotency: IdempotencyTable;
  content: ContentEligibilityClient;
  /** Learner history (served forms, graded results) for the gate reads. */
  events: EventsClient;
  /** Bank members and test-serve authorization for the gate reads. */
  banks: ContentBanksClient;
}

export function curriculumDeps(runtime: PlatformRuntime, content?: ContentEligibilityClient): CurriculumDeps {
  const contentCalls = serviceClientOptions(runtime, 'contentUrl');
  return {
    db: runtime.database.db,
    cursors: runtime.cursors,
    idempotency: curriculumIdempotency,
    content: content ?? httpContentClient(contentCalls),
    events: httpEventsClient(serviceClientOptions(runtime, 'eventsUrl')),
    banks: httpContentBanksClient(contentCalls),
  };
}
