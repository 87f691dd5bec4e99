import { randomUUID } from 'node:crypto';
import { describe, expect } from 'vitest';
import { DEMO_SCOPES } from '../../platform/auth.ts';
import { graphql, http, newTenant, ownCallsDuring, roots, tenantRoot } from '../kit.ts';
import { filePlatform, platformTest } from '../platform-test.ts';
import { producer, root } from './helpers.ts';
import {
  GRADING_EXTENSION_NAMESPACE,
  GRADING_EXTENSION_VALUES,
  KIND_CATALOGUE,
  PLAYER_EXTENSION_KEYS,
  PLAYER_EXTENSION_NAMESPACE,
} from '../../subgraphs/events/vocabulary.ts';

const it = platformTest();

const RECORD = `mutation Record($events: [EventInput!]!, $key: String) {
  recordEvents(events: $events, idempotencyKey: $key) { data { id kind eventType action profile actorRef objectRef caliperEvent } }
}`;

async function setup() {
  const caller = await producer(filePlatform(), { scopes: DEMO_SCOPES });
  const item = await http(filePlatform(), 'POST', `${tenantRoot(caller.tenantId)}/items`, {
    token: caller.token,
    headers: { 'idempotency-key': randomUUID() },
    body: { content_kind: 'article', title: 'Fractions', status: 'published' },
  });
  expect(item.status).toBe(201);
  const operator = await newTenant(filePlatform(), { tenantId: caller.tenantId, roles: ['operator'], scopes: [] });
  await http(filePlatform(), 'POST', `${roots.people}/people`, {
    token: operator.token,
    body: { personId: 'stu-g', givenName: 'Grace', familyName: 'Hopper', reality: 'test' },
  });
  return { caller, contentId: item.body.content_id as string };
}

describe('events subgraph', () => {
  it('records events and reads them with the Person, ContentItem and ActivitySource references', async ({
    platform,
  }) => {
    const { caller, contentId } = await setup();
    const recorded = await graphql(
      platform,
      RECORD,
      {
        events: [
          {
            kind: 'content_viewed',
            studentId: 'stu-g',
            contentId,
            activitySourceId: caller.sourceId,
            happenedAt: '2026-09-01T10:00:00Z',
            orgId: null,
          },
          {
            kind: 'question_answered',
            studentId: 'stu-x',
            contentId,
            activitySourceId: caller.sourceId,
            happenedAt: '2026-09-02T10:00:00Z',
          },
        ],
        key: randomUUID(),
      },
      caller.token,
    );
    expect(recorded.body.errors).toBeUndefined();
    const [viewedEvent] = recorded.body.data.recordEvents.data;
    expect(viewedEvent).toMatchObject({
      kind: 'content_viewed',
      eventType: 'ViewEvent',
      action: 'Viewed',
      actorRef: { type: 'Person' },
    });
    expect(viewedEvent.caliperEvent.type).toBe('ViewEvent');
    // The kind filter takes several comma-separated kinds, as GET /events does.
    const kinds = await graphql(
      platform,
      'query Kinds($contentId: String) { events(contentId: $contentId, kind: "question_answered,content_viewed") { data { kind } } }',
      { contentId },
      caller.token,
    );
    expect(kinds.body.errors).toBeUndefined();
    expect(kinds.body.data.events.data.map((event: { kind: string }) => event.kind)).toEqual([
      'content_viewed',
      'question_answered',
    ]);

    const read = await graphql(
      platform,
      `
        query One($id: ID!) {
          event(id: $id) {
            id
            studentName
            student {
              personId
              givenName
              familyName
            }
            contentItem {
              contentId
              title
            }
            activitySource {
              id
              name
            }
          }
        }
      `,
      { id: viewedEvent.id },
      caller.token,
    );
    expect(read.body.errors).toBeUndefined();
    expect(read.body.data.event).toEqual({
      id: viewedEvent.id,
      studentName: 'Grace Hopper',
      student: { personId: 'stu-g', givenName: 'Grace', familyName: 'Hopper' },
      contentItem: { contentId, title: 'Fractions' },
      activitySource: { id: caller.sourceId, name: 'Vendor player' },
    });

    const list = await graphql(
      platform,
      `
        query List($cursor: String) {
          events(action: "Completed", pageSize: 1, cursor: $cursor) {
            data {
              id
              studentId
            }
            nextCursor
          }
        }
      `,
      {},
      caller.token,
    );
    expect(list.body.data.events).toEqual({ data: [{ id: expect.any(String), studentId: 'stu-x' }], nextCursor: null });

    // A list reads what its selection reads: no studentName, no people call; studentName, the names.
    const unnamed = await ownCallsDuring(platform, `${roots.people}/`, () =>
      graphql(
        platform,
        `
          query Unnamed($contentId: String) {
            events(contentId: $contentId) {
              data {
                ...Kinds
                student {
                  personId
                }
              }
            }
          }
          fragment Kinds on Event {
            kind
            ... on Event {
              happenedAt
            }
          }
        `,
        { contentId },
        caller.token,
      ),
    );
    expect(unnamed.answer.body.errors).toBeUndefined();
    expect(unnamed.answer.body.data.events.data).toEqual([
      { kind: 'content_viewed', happenedAt: '2026-09-01T10:00:00.000Z', student: { personId: 'stu-g' } },
      { kind: 'question_answered', happenedAt: '2026-09-02T10:00:00.000Z', student: { personId: 'stu-x' } },
    ]);
    expect(unnamed.calls).toEqual([]);
    const named = await ownCallsDuring(platform, `${roots.people}/`, () =>
      graphql(
        platform,
        'query Named($contentId: String) { events(contentId: $contentId) { data { studentName caliperEvent } } }',
        { contentId },
        caller.token,
      ),
    );
    const namedEvents = named.answer.body.data.events.data;
    expect(namedEvents.map((event: { studentName: string | null }) => event.studentName)).toEqual([
      'Grace Hopper',
      null,
    ]);
    expect(namedEvents[0].caliperEvent.edApp).toMatchObject({ type: 'SoftwareApplication' });
    expect(named.calls.length).toBeGreaterThan(0);
  });

  it('contributes ContentItem.events (paged) and Person.events', async ({ platform }) => {
    const { caller, contentId } = await setup();
    await graphql(
      platform,
      RECORD,
      {
        events: [1, 2, 3].map((day) => ({
          kind: 'content_viewed',
          studentId: 'stu-g',
          contentId,
          activitySourceId: caller.sourceId,
          happenedAt: `2026-09-0${day}T10:00:00Z`,
        })),
      },
      caller.token,
    );
    const page = await graphql(
      platform,
      `
        query Item($contentId: ID!, $cursor: String) {
          contentItem(contentId: $contentId) {
            title
            events(pageSize: 2, cursor: $cursor) {
              data {
                happenedAt
              }
              nextCursor
            }
          }
        }
      `,
      { contentId },
      caller.token,
    );
    expect(page.body.errors).toBeUndefined();
    expect(page.body.data.contentItem.title).toBe('Fractions');
    expect(page.body.data.contentItem.events.data.map((event: { happenedAt: string }) => event.happenedAt)).toEqual([
      '2026-09-01T10:00:00.000Z',
      '2026-09-02T10:00:00.000Z',
    ]);
    const next = await graphql(
      platform,
      `
        query Item($contentId: ID!, $cursor: String) {
          contentItem(contentId: $contentId) {
            events(pageSize: 2, cursor: $cursor) {
              data {
                happenedAt
              }
              nextCursor
            }
          }
        }
      `,
      { contentId, cursor: page.body.data.contentItem.events.nextCursor },
      caller.token,
    );
    expect(next.body.data.contentItem.events).toEqual({
      data: [{ happenedAt: '2026-09-03T10:00:00.000Z' }],
      nextCursor: null,
    });
    const person = await graphql(
      platform,
      `
        query P($id: ID!) {
          event(id: $id) {
            student {
              events(pageSize: 5) {
                data {
                  id
                }
              }
            }
          }
        }
      `,
      { id: (await http(platform, 'GET', `${root}/events?pageSize=1`, { token: caller.token })).body.data[0].id },
      caller.token,
    );
    expect(person.body.data.event.student.events.data).toHaveLength(3);
  });

  it('filters ContentItem.events and Person.events by componentId, as GET /events does (neither took it)', async ({
    platform,
  }) => {
    const { caller, contentId } = await setup();
    await graphql(
      platform,
      RECORD,
      {
        events: ['lesson-a', 'lesson-b', 'lesson-a'].map((componentId, index) => ({
          kind: 'content_viewed',
          studentId: 'stu-g',
          contentId,
          activitySourceId: caller.sourceId,
          happenedAt: `2026-09-0${index + 1}T10:00:00Z`,
          extensions: { [`${PLAYER_EXTENSION_NAMESPACE}/component_id`]: componentId },
        })),
      },
      caller.token,
    );
    const overRest = await http(platform, 'GET', `${root}/events?componentId=lesson-a&contentId=${contentId}`, {
      token: caller.token,
    });
    const ids = overRest.body.data.map((event: { id: string }) => event.id);
    expect(ids).toHaveLength(2);
    const filtered = await graphql(
      platform,
      `
        query Filtered($contentId: ID!, $eventId: ID!) {
          contentItem(contentId: $contentId) {
            events(componentId: "lesson-a") {
              data {
                id
              }
            }
          }
          event(id: $eventId) {
            student {
              events(componentId: "lesson-a") {
                data {
                  id
                }
              }
            }
          }
        }
      `,
      { contentId, eventId: ids[0] },
      caller.token,
    );
    expect(filtered.body.errors).toBeUndefined();
    const idsOf = (page: { data: Array<{ id: string }> }) => page.data.map((event) => event.id);
    expect(idsOf(filtered.body.data.contentItem.events)).toEqual(ids);
    expect(idsOf(filtered.body.data.event.student.events)).toEqual(ids);
  });

  it("tallies an item's events per kind, at the root and on ContentItem, as GET /event-tallies answers", async ({
    platform,
  }) => {
    const { caller, contentId } = await setup();
    const versionId = randomUUID();
    const rendered = { [`${PLAYER_EXTENSION_NAMESPACE}/rendered_content_id`]: versionId };
    const event = (kind: string, day: number, extensions = {}) => ({
      kind,
      studentId: 'stu-g',
      contentId,
      activitySourceId: caller.sourceId,
      happenedAt: `2026-09-0${day}T10:00:00Z`,
      extensions,
    });
    const recorded = await graphql(
      platform,
      RECORD,
      {
        events: [
          event('content_viewed', 1),
          event('content_viewed', 2, rendered),
          event('assessment_graded', 3, rendered),
        ],
      },
      caller.token,
    );
    expect(recorded.body.errors).toBeUndefined();
    const TALLIES =
      'contentId renderedContentId data { kind eventCount firstHappenedAt lastHappenedAt lastModifiedAt }';
    const tallies = await graphql(
      platform,
      `query($id: ID!, $v: ID) {
        all: eventTallies(contentId: $id) { ${TALLIES} }
        graded: eventTallies(contentId: $id, renderedContentId: $v, kind: "assessment_graded") { ${TALLIES} }
        contentItem(contentId: $id) { title eventTallies(renderedContentId: $v) { ${TALLIES} } }
      }`,
      { id: contentId, v: versionId },
      caller.token,
    );
    expect(tallies.body.errors).toBeUndefined();
    const rest = async (query: string) =>
      (await http(platform, 'GET', `${root}/event-tallies?contentId=${contentId}${query}`, { token: caller.token }))
        .body;
    expect(tallies.body.data.all).toEqual(await rest(''));
    expect(
      tallies.body.data.all.data.map((row: { kind: string; eventCount: number }) => [row.kind, row.eventCount]),
    ).toEqual([
      ['assessment_graded', 1],
      ['content_viewed', 2],
    ]);
    expect(tallies.body.data.graded).toEqual(await rest(`&renderedContentId=${versionId}&kind=assessment_graded`));
    expect(tallies.body.data.contentItem.eventTallies).toEqual(await rest(`&renderedContentId=${versionId}`));
    expect(tallies.body.data.contentItem.eventTallies.data).toHaveLength(2);
  });

  it('reads an activity source by its id in upper case, as GET /activity-sources/{sourceId} does (it was null)', async ({
    platform,
  }) => {
    const caller = await producer(platform);
    const upper = caller.sourceId.toUpperCase();
    const rest = await http(platform, 'GET', `${root}/activity-sources/${upper}`, { token: caller.token });
    expect(rest.status).toBe(200);
    const read = await graphql(
      platform,
      'query S($id: ID!) { activitySource(id: $id) { id name } }',
      { id: upper },
      caller.token,
    );
    expect(read.body).toEqual({ data: { activitySource: { id: caller.sourceId, name: rest.body.data.name } } });
  });

  it("names every catalogue kind and governed extension key in POST /events' OpenAPI and in EventInput (they said 'e.g. content_viewed' and 'player keys only')", async ({
    platform,
  }) => {
    const { token } = await newTenant(platform, { scopes: ['events:read'] });
    const openapi = await http(platform, 'GET', `${root}/openapi.json`);
    const event =
      openapi.body.paths[`${root}/events`].post.requestBody.content['application/json'].schema.properties.events.items
        .properties;
    const introspected = await graphql(
      platform,
      '{ __type(name: "EventInput") { inputFields { name description } } }',
      {},
      token,
    );
    const input = Object.fromEntries(
      introspected.body.data.__type.inputFields.map((field: { name: string; description: string }) => [
        field.name,
        field.description,
      ]),
    );
    const extensionWords = [
      PLAYER_EXTENSION_NAMESPACE,
      ...PLAYER_EXTENSION_KEYS,
      ...Object.entries(GRADING_EXTENSION_VALUES).flatMap(([key, values]) => [
        `${GRADING_EXTENSION_NAMESPACE}/${key}`,
        ...values,
      ]),
    ];
    for (const [kind, extensions] of [
      [event.kind.description, event.extensions.description],
      [input.kind, input.extensions],
    ]) {
      expect(Object.keys(KIND_CATALOGUE).filter((name) => !kind.includes(name))).toEqual([]);
      expect(extensionWords.filter((word) => !extensions.includes(word))).toEqual([]);
    }
  });

  it('applies the REST boundaries, validation and problem codes', async ({ platform }) => {
    const { caller, contentId } = await setup();
    const recorded = await graphql(
      platform,
      RECORD,
      {
        events: [
          {
            kind: 'content_viewed',
            studentId: 'stu-g',
            contentId,
            activitySourceId: caller.sourceId,
            happenedAt: '2026-09-01T10:00:00Z',
          },
        ],
      },
      caller.token,
    );
    const eventId = recorded.body.data.recordEvents.data[0].id;
    const bounded = await newTenant(platform, {
      tenantId: caller.tenantId,
      scopes: ['events:read', 'events:write'],
      boundary: { studentIds: ['someone-else'] },
    });
    const outside = await graphql(
      platform,
      `
        query {
          events(studentId: "stu-g") {
            data {
              id
            }
          }
        }
      `,
      {},
      bounded.token,
    );
    expect(outside.body.errors[0].extensions).toMatchObject({
      code: 'events:boundary_rejected',
      status: 403,
      fieldErrors: [{ field: 'studentId', message: "outside the token's studentIds boundary" }],
    });
    const narrowed = await graphql(
      platform,
      `
        query {
          events {
            data {
              id
            }
          }
        }
      `,
      {},
      bounded.token,
    );
    expect(narrowed.body.data.events.data).toEqual([]);
    const one = await graphql(
      platform,
      `
        query One($id: ID!) {
          event(id: $id) {
            id
          }
        }
      `,
      { id: eventId },
      bounded.token,
    );
    expect(one.body.errors[0].extensions.code).toBe('events:boundary_rejected');
    const write = await graphql(
      platform,
      RECORD,
      {
        events: [
          {
            kind: 'content_viewed',
            studentId: 'stu-g',
            contentId,
            activitySourceId: caller.sourceId,
            happenedAt: '2026-09-01T10:00:00Z',
          },
        ],
      },
      bounded.token,
    );
    expect(write.body.errors[0].extensions.code).toBe('events:boundary_rejected');
    const unknownKind = await graphql(
      platform,
      RECORD,
      {
        events: [
          {
            kind: 'nap_taken',
            studentId: 'stu-g',
            contentId,
            activitySourceId: caller.sourceId,
            happenedAt: '2026-09-01T10:00:00Z',
          },
        ],
      },
      caller.token,
    );
    expect(unknownKind.body.errors[0].extensions).toMatchObject({ code: 'events:unprocessable', status: 422 });
    const badCursor = await graphql(
      platform,
      `
        query {
          events(cursor: "forged") {
            data {
              id
            }
          }
        }
      `,
      {},
      caller.token,
    );
    expect(badCursor.body.errors[0].extensions.code).toBe('events:validation_failed');
    const anonymous = await graphql(
      platform,
      `
        query {
          events {
            data {
              id
            }
          }
        }
      `,
    );
    expect(anonymous.body.errors[0].extensions.code).toBe('events:unauthenticated');
  });

  it('imports source records and serves attendance and discipline moments', async ({ platform }) => {
    const { caller } = await setup();
    const IMPORT = `mutation Import($input: SourceImportInput!) {
      importSourceRecords(input: $input) { import { status dryRun } acceptedCount materializedCount data { record resource href } }
    }`;
    const attendance = {
      sourceSystem: 'sis_system',
      adapter: 'sis_attendance_event_v1',
      records: [
        { student_id: 'stu-g', school_id: 'sch-1', event_date: '2022-03-01', attendance_event_category: 'Tardy' },
      ],
    };
    const imported = await graphql(platform, IMPORT, { input: attendance }, caller.token);
    expect(imported.body.errors).toBeUndefined();
    expect(imported.body.data.importSourceRecords).toMatchObject({
      import: { status: 'materialized', dryRun: false },
      acceptedCount: 1,
      materializedCount: 1,
      data: [{ record: 0, resource: 'attendanceEvents' }],
    });
    const rejected = await graphql(
      platform,
      IMPORT,
      { input: { ...attendance, records: [{ ...attendance.records[0], kind: 'absence' }] } },
      caller.token,
    );
    expect(rejected.body.errors[0].extensions).toMatchObject({
      code: 'events:adapter_rejected',
      fieldErrors: [{ field: 'records.0.kind' }],
    });
    await http(platform, 'POST', `${root}/source-imports`, {
      token: caller.token,
      body: {
        sourceSystem: 'sis_system',
        adapter: 'sis_discipline_event_v1',
        records: [
          {
            incident_id: 'i-1',
            student_id: 'stu-g',
            school_id: 'sch-1',
            incident_date: '2022-03-02',
            behavior: 'Other',
          },
        ],
      },
    });
    const reply = await graphql(
      platform,
      `
        query {
          attendanceEvents(category: "Tardy", from: "2022-03-01", to: "2022-03-01") {
            data {
              id
              category
              categoryDescriptor
              studentName
              student {
                givenName
              }
            }
          }
          disciplineEvents(behavior: "Other") {
            data {
              id
              incidentId
              behaviorDescriptor
              studentName
            }
          }
        }
      `,
      {},
      caller.token,
    );
    expect(reply.body.errors).toBeUndefined();
    expect(reply.body.data.attendanceEvents.data[0]).toMatchObject({
      category: 'Tardy',
      categoryDescriptor: 'uri://ed-fi.org/AttendanceEventCategoryDescriptor#Tardy',
      studentName: 'Grace Hopper',
      student: { givenName: 'Grace' },
    });
    expect(reply.body.data.disciplineEvents.data[0]).toMatchObject({
      incidentId: 'i-1',
      behaviorDescriptor: 'uri://ed-fi.org/BehaviorDescriptor#Other',
    });
    const one = await graphql(
      platform,
      `
        query One($id: ID!) {
          attendanceEvent(id: $id) {
            eventDate
          }
        }
      `,
      { id: reply.body.data.attendanceEvents.data[0].id },
      caller.token,
    );
    expect(one.body.data.attendanceEvent.eventDate).toBe('2022-03-01');
  });

  it("refuses an X-Vendor-Tenant naming another tenant, as the REST paths do (it answered the token's tenant)", async ({
    platform,
  }) => {
    const owner = await producer(platform);
    const posted = await http(platform, 'POST', `${root}/events`, {
      token: owner.token,
      body: {
        events: [
          {
            kind: 'content_viewed',
            studentId: 'stu-1',
            contentId: 'c-1',
            activitySourceId: owner.sourceId,
            happenedAt: '2026-09-01T10:00:00Z',
          },
        ],
      },
    });
    expect(posted.status).toBe(202);
    const other = await newTenant(platform);
    const asTenant = (tenant: string) =>
      http(platform, 'POST', '/graphql', {
        token: owner.token,
        headers: { 'x-vendor-tenant': tenant },
        body: { query: '{ events { data { id studentId } } }' },
      });
    const rest = await http(platform, 'GET', `${root}/events`, {
      token: owner.token,
      headers: { 'x-vendor-tenant': other.tenantId },
    });
    expect([rest.status, rest.body.code]).toEqual([403, 'events:tenant_mismatch']);
    const refused = await asTenant(other.tenantId);
    expect(refused.body.data?.events ?? null).toBeNull();
    expect(refused.body.errors.map((error: { extensions: { code: string } }) => error.extensions.code)).toEqual([
      'events:tenant_mismatch',
    ]);
    const empty = await asTenant('');
    expect(empty.body.errors.map((error: { extensions: { code: string } }) => error.extensions.code)).toEqual([
      'events:validation_failed',
    ]);
    const own = await asTenant(owner.tenantId);
    expect(own.body.data.events.data).toEqual([{ id: posted.body.data[0].id, studentId: 'stu-1' }]);
  });
});
