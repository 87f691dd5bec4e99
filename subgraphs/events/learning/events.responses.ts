import { z } from 'zod';
import { JsonObject, Timestamp } from '../../../platform/openapi.ts';
import { EventsPage, One } from '../envelopes.ts';

const EntityRef = z
  .object({ id: z.string(), type: z.string() })
  .catchall(z.unknown())
  .describe('Caliper entity reference');

export const EventResponse = z.strictObject({
  id: z.string(),
  kind: z.string(),
  studentId: z.string().nullable(),
  contentId: z.string().nullable(),
  orgId: z.string().nullable(),
  activitySourceId: z.string(),
  happenedAt: Timestamp,
  occurredAt: Timestamp.describe('Alias of happenedAt'),
  sourceEventId: z.string().nullable(),
  eventType: z.string(),
  profile: z.string(),
  action: z.string(),
  actorRef: EntityRef,
  objectRef: EntityRef,
  extensions: JsonObject,
  modifiedAt: Timestamp,
  caliperEvent: JsonObject.describe('The event as a Caliper 1.2 envelope member'),
});

const NamedEventResponse = EventResponse.extend({
  studentName: z.string().nullable().describe('From the people service; null when it does not answer'),
});

const RecordedEventsResponse = z.strictObject({ data: z.array(EventResponse) });
/** What `Prefer: return=minimal` asks of a recorded batch: each event's id and commit time. */
const MinimalRecordedEventsResponse = z.strictObject({
  data: z.array(z.strictObject({ id: z.string(), modifiedAt: Timestamp })),
});
export const RecordedEventsAnswer = z.union([RecordedEventsResponse, MinimalRecordedEventsResponse]);
/** An event of a page asked for some `fields` only: those, and its id. */
const EventFieldsResponse = NamedEventResponse.partial().required({ id: true });

export const EventPageResponse = EventsPage(z.union([NamedEventResponse, EventFieldsResponse]));
export const OneEventResponse = One(NamedEventResponse);

export const EventTallyResponse = z.strictObject({
  contentId: z.string(),
  renderedContentId: z.string().nullable(),
  data: z.array(
    z.strictObject({
      kind: z.string(),
      eventCount: z.number().int(),
      firstHappenedAt: Timestamp,
      lastHappenedAt: Timestamp,
      lastModifiedAt: Timestamp.describe('When the last of them was committed'),
    }),
  ),
});
