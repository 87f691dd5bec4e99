import type { CursorCodec } from '../../platform/cursor.ts';
import type { Database } from '../../platform/db.ts';
import type { IdempotencyTable } from '../../platform/idempotency.ts';
import { httpPeopleClient, type PeopleClient } from '../../platform/people-client.ts';
import { serviceClientOptions, type PlatformRuntime } from '../../platform/service.ts';
import { httpEventsContentClient, type EventsContentClient } from './content-client.ts';
import { eventsIdempotency } from './tables.ts';

/** What the events rules need beyond their input: its database and the people and content services it asks. */
export interface EventsDeps {
  db: Database;
  cursors: CursorCodec;
  idempotency: IdempotencyTable;
  people: PeopleClient;
  content: EventsContentClient;
}

export function eventsDeps(runtime: PlatformRuntime): EventsDeps {
  return {
    db: runtime.database.db,
    cursors: runtime.cursors,
    idempotency: eventsIdempotency,
    people: httpPeopleClient({ ...serviceClientOptions(runtime, 'peopleUrl'), caller: 'events' }),
    content: httpEventsContentClient(serviceClientOptions(runtime, 'contentUrl')),
  };
}
