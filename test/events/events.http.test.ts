import { randomUUID } from 'node:crypto';
import { describe, expect } from 'vitest';
import { http, newTenant, sameTenant } from '../kit.ts';
import { platformTest } from '../platform-test.ts';
import { holdLock } from '../held-lock.ts';
import { attendanceRow, post, producer, root, viewed } from './helpers.ts';
import { eq, sql } from 'drizzle-orm';
import type { RequestContext } from '../../platform/context.ts';
import { rowsOf, runsInEventLoop } from '../../platform/db.ts';
import { deriveCaliper, type DerivedCaliper } from '../../subgraphs/events/caliper.ts';
import { insertEvents, type PreparedEvent } from '../../subgraphs/events/learning/events.service.ts';
import { PLAYER_EXTENSION_NAMESPACE } from '../../subgraphs/events/vocabulary.ts';
import { commitHeads, learningEvents } from '../../subgraphs/events/tables.ts';

const it = platformTest();

/** An event as `prepareEvent` makes it, for the service's own store. */
const preparedEvent = (activitySourceId: string): PreparedEvent => ({
  eventId: randomUUID(),
  kind: 'content_viewed',
  studentId: `stu-${randomUUID()}`,
  contentId: 'c-1',
  orgId: null,
  activitySourceId,
  happenedAt: new Date().toISOString(),
  sourceEventId: null,
  derived: deriveCaliper({ kind: 'content_viewed', studentId: 's', contentId: 'c-1' }, 'e').value as DerivedCaliper,
  extensions: {},
  rawPayload: {},
});

describe('POST /events', () => {
  it('accepts a batch with 202, issues ids and derives the Caliper 1.2 fields', async ({ platform }) => {
    const caller = await producer(platform);
    const accepted = await post(platform, caller, [
      viewed(caller.sourceId, { id: undefined }),
      {
        kind: 'question_answered',
        studentId: 's-2',
        contentId: 'q-9',
        activitySourceId: caller.sourceId,
        occurredAt: '2026-09-01T10:05:00+02:00',
      },
    ]);
    expect(accepted.status).toBe(202);
    expect(accepted.body.data).toHaveLength(2);
    const [view, answer] = accepted.body.data;
    expect(view).toMatchObject({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      kind: 'content_viewed',
      eventType: 'ViewEvent',
      action: 'Viewed',
      profile: 'ReadingProfile',
      actorRef: { id: 'urn:alpha:student:stu-1', type: 'Person' },
      objectRef: { id: 'urn:alpha:content:c-1', type: 'DigitalResource' },
    });
    expect(answer).toMatchObject({
      eventType: 'AssessmentItemEvent',
      action: 'Completed',
      happenedAt: '2026-09-01T08:05:00.000Z',
    });
    expect(view.id).not.toBe(answer.id);
    const read = await http(platform, 'GET', `${root}/events/${view.id}`, { token: caller.token });
    expect(read.status).toBe(200);
    expect(read.body.data).toMatchObject({ id: view.id, kind: 'content_viewed', studentName: null });
  });

  it('keeps consistent compatibility fields and refuses contradicting ones with 422', async ({ platform }) => {
    const caller = await producer(platform);
    const same = await post(platform, caller, [
      viewed(caller.sourceId, { eventType: 'ViewEvent', action: 'Viewed', profile: 'ReadingProfile' }),
    ]);
    expect(same.status).toBe(202);
    const contradicting = await post(platform, caller, [viewed(caller.sourceId, { action: 'Submitted' })]);
    expect([contradicting.status, contradicting.body.code]).toEqual([422, 'events:unprocessable']);
    expect(contradicting.body.fieldErrors).toEqual([expect.objectContaining({ field: 'events.0.action' })]);
  });

  it('refuses unknown kinds, bad timestamps, unknown activity sources and missing actors with 422 naming the fields', async ({
    platform,
  }) => {
    const caller = await producer(platform);
    const unknownKind = await post(platform, caller, [
      viewed(caller.sourceId),
      viewed(caller.sourceId, { kind: 'lesson_liked' }),
    ]);
    expect(unknownKind.status).toBe(422);
    expect(unknownKind.body.fieldErrors.map((error: { field: string }) => error.field)).toEqual(['events.1.kind']);
    const badTime = await post(platform, caller, [viewed(caller.sourceId, { happenedAt: 'yesterday' })]);
    expect([badTime.status, badTime.body.fieldErrors[0].field]).toEqual([422, 'events.0.happenedAt']);
    // A day the calendar lacks is refused, not stored as the day Date.parse rolls it over to; so is an instant its
    // offset moves into the year 0 or 10000 (PostgreSQL refused those: a 500).
    const outOfYears = ['0001-01-01T00:00:00+01:00', '9999-12-31T23:00:00-05:00'];
    for (const happenedAt of ['2024-02-30T10:00:00Z', '2024-01-01T24:00:00Z', ...outOfYears]) {
      const rolled = await post(platform, caller, [viewed(caller.sourceId, { happenedAt })]);
      expect([rolled.status, rolled.body.fieldErrors?.[0].field], happenedAt).toEqual([422, 'events.0.happenedAt']);
    }
    const rolledFilter = await http(platform, 'GET', `${root}/events?happenedAtFrom=2024-02-30T00:00:00Z`, {
      token: caller.token,
    });
    expect([rolledFilter.status, rolledFilter.body.code]).toEqual([400, 'events:validation_failed']);
    for (const filter of ['happenedAtFrom', 'happenedAtTo', 'modifiedSince']) {
      for (const instant of outOfYears) {
        const query = `${filter}=${encodeURIComponent(instant)}`;
        const outOfRange = await http(platform, 'GET', `${root}/events?${query}`, { token: caller.token });
        expect([outOfRange.status, outOfRange.body.code], query).toEqual([400, 'events:validation_failed']);
      }
    }
    const noTime = await post(platform, caller, [viewed(caller.sourceId, { happenedAt: undefined })]);
    expect([noTime.status, noTime.body.fieldErrors[0].field]).toEqual([422, 'events.0.happenedAt']);
    const foreignSource = await post(platform, caller, [viewed(randomUUID())]);
    expect([foreignSource.status, foreignSource.body.fieldErrors[0].field]).toEqual([422, 'events.0.activitySourceId']);
    const noActor = await post(platform, caller, [viewed(caller.sourceId, { studentId: undefined })]);
    expect([noActor.status, noActor.body.fieldErrors[0].field]).toEqual([422, 'events.0.studentId']);
    const list = await http(platform, 'GET', `${root}/events`, { token: caller.token });
    expect(list.body.data).toEqual([]);
  });

  it("refuses a kind or grading key named like an object's own members (constructor, toString) with 422, not 500", async ({
    platform,
  }) => {
    const caller = await producer(platform);
    for (const kind of ['constructor', 'toString', 'hasOwnProperty', 'valueOf']) {
      const refused = await post(platform, caller, [viewed(caller.sourceId, { kind })]);
      expect([refused.status, refused.body.fieldErrors?.[0].field], kind).toEqual([422, 'events.0.kind']);
    }
    for (const key of ['constructor', 'toString']) {
      const field = `urn:alpha:events:grading/${key}`;
      const refused = await post(platform, caller, [
        viewed(caller.sourceId, { kind: 'assessment_graded', extensions: { [field]: 'passed' } }),
      ]);
      expect([refused.status, refused.body.fieldErrors?.[0].field], key).toEqual([422, `events.0.extensions.${field}`]);
    }
  });

  it('stores a batch without a key in one statement whatever its size; a refused batch moves no commit head', async ({
    platform,
  }) => {
    const caller = await producer(platform);
    const { stats, db } = platform.runtime.database;
    const statementsOf = async (events: unknown[]) => {
      const before = stats.queries;
      expect((await post(platform, caller, events)).status).toBe(202);
      return stats.queries - before;
    };
    const sizes = [1, 2 + Math.floor(Math.random() * 40)];
    expect([
      await statementsOf([viewed(caller.sourceId)]),
      await statementsOf(Array.from({ length: sizes[1] }, () => viewed(caller.sourceId))),
    ]).toEqual([1, 1]);
    const head = async () =>
      (await db.select({ seq: commitHeads.seq }).from(commitHeads).where(eq(commitHeads.tenantId, caller.tenantId)))[0]
        .seq;
    expect(await head()).toBe(sizes[0] + sizes[1]);
    const mixed = await post(platform, caller, [viewed(caller.sourceId), viewed(randomUUID())]);
    expect([mixed.status, mixed.body.fieldErrors.map((error: { field: string }) => error.field)]).toEqual([
      422,
      ['events.1.activitySourceId'],
    ]);
    expect(await head()).toBe(sizes[0] + sizes[1]);
    const list = await http(platform, 'GET', `${root}/events?pageSize=100`, { token: caller.token });
    expect(list.body.data).toHaveLength(sizes[0] + sizes[1]);
  });

  it('parses the batch statement once per connection: it is a prepared statement of the connection that ran it', async ({
    platform,
  }) => {
    const caller = await producer(platform);
    const ctx = { tenantId: caller.tenantId } as RequestContext;
    const event = () => preparedEvent(caller.sourceId);
    // One transaction is one connection: what it prepared is listed there.
    const prepared = await platform.runtime.database.db.transaction(async (tx) => {
      await insertEvents(tx, ctx, { events: [event()] });
      await insertEvents(tx, ctx, { events: Array.from({ length: 2 + Math.floor(Math.random() * 9) }, event) });
      return rowsOf<{ statement: string }>(
        await tx.execute(
          sql`select statement from pg_prepared_statements where statement like '%jsonb_array_elements%' and statement not like '%pg_prepared_statements%'`,
        ),
      );
    });
    expect(prepared).toHaveLength(1);
  });

  it('stores a batch whose source id is in upper case, answering that source for each event', async ({ platform }) => {
    const caller = await producer(platform);
    const ctx = { tenantId: caller.tenantId } as RequestContext;
    const sourceId = caller.sourceId.toUpperCase();
    const stored = await insertEvents(platform.runtime.database.db, ctx, {
      events: [preparedEvent(sourceId), preparedEvent(caller.sourceId)],
      selfCommitting: true,
    });
    const [upper, lower] = stored.map((event) => event.caliperEvent.edApp);
    expect(upper).toEqual({ id: expect.stringMatching(/^https:\/\/vendor\.example\//), type: 'SoftwareApplication' });
    expect(lower).toEqual(upper);
  });

  it('answers each recorded event exactly as the feed reads it back: same members, same order', async ({
    platform,
  }) => {
    const caller = await producer(platform);
    const attempt = `${PLAYER_EXTENSION_NAMESPACE}/attempt_ordinal`;
    const events = Array.from({ length: 2 + Math.floor(Math.random() * 12) }, (_, index) => ({
      kind: index % 2 === 0 ? 'content_viewed' : 'question_answered',
      studentId: `stu-${randomUUID()}`,
      contentId: `c-${randomUUID()}`,
      activitySourceId: caller.sourceId,
      happenedAt: new Date(Date.UTC(2026, 8, 1, 10, index, Math.floor(Math.random() * 60))).toISOString(),
      ...(index % 3 === 0 ? { sourceEventId: `p-${index}`, extensions: { [attempt]: 1 + index } } : {}),
    }));
    const accepted = await post(platform, caller, events);
    expect(accepted.status).toBe(202);
    const list = await http(platform, 'GET', `${root}/events?pageSize=100`, { token: caller.token });
    const read = list.body.data.map(({ studentName, ...event }: { studentName: unknown }) => {
      expect(studentName).toBeNull();
      return event;
    });
    expect(JSON.stringify(read)).toBe(JSON.stringify(accepted.body.data));
    expect(accepted.body.data.map((event: { caliperEvent: { edApp?: unknown } }) => event.caliperEvent.edApp)).toEqual(
      events.map(() => ({ id: expect.stringMatching(/^https:\/\/vendor\.example\//), type: 'SoftwareApplication' })),
    );
  });

  it('writes concurrent keyless batches of a tenant together, each whole or refused alone, numbered without gaps', async ({
    platform,
  }) => {
    const caller = await producer(platform);
    const { stats, db, driver } = platform.runtime.database;
    // PGlite gathers each group; on PostgreSQL the next statement is sent before the last one's answers.
    expect(runsInEventLoop(db)).toBe(driver === 'pglite');
    const first = await post(platform, caller, [viewed(caller.sourceId, { contentId: 'first' })]);
    expect(first.status).toBe(202);
    const sizes = Array.from({ length: 8 }, () => 1 + Math.floor(Math.random() * 5));
    const refusedAt = Math.floor(Math.random() * sizes.length);
    // On PostgreSQL the test holds the tenant's commit head, so the first batch's statement waits on it
    // and the others arrive while it runs: they must go in the next statement together.
    const head =
      driver === 'postgres'
        ? await holdLock((tx) => tx`select 1 from events.commit_heads where tenant_id = ${caller.tenantId} for update`)
        : undefined;
    const before = stats.queries;
    const sent = Promise.all(
      sizes.map((size, batch) =>
        post(
          platform,
          caller,
          Array.from({ length: size }, (_, index) =>
            viewed(batch === refusedAt && index === size - 1 ? randomUUID() : caller.sourceId, {
              contentId: `b${batch}-${index}`,
            }),
          ),
        ),
      ),
    );
    if (head) {
      await head.waitedOn();
      await new Promise((resolve) => setTimeout(resolve, 300));
      await head.release();
    }
    const replies = await sent;
    const statements = stats.queries - before;
    expect(replies.map((reply) => reply.status)).toEqual(sizes.map((_, batch) => (batch === refusedAt ? 422 : 202)));
    // One statement for the waiting batch, one for the rest, one to name the refused batch's unknown source,
    // and one more when the refused batch came first (it moves no head, so it waits for nothing).
    if (head) expect(statements).toBeLessThanOrEqual(4);
    else expect(statements).toBeLessThanOrEqual(sizes.length + 1);
    // Each stored batch holds consecutive seqs in its own order; together they leave no gap.
    const rows = await db
      .select({ seq: learningEvents.seq, contentId: learningEvents.contentId })
      .from(learningEvents)
      .where(eq(learningEvents.tenantId, caller.tenantId))
      .orderBy(learningEvents.seq);
    expect(rows.map((row) => Number(row.seq))).toEqual(rows.map((_, index) => index + 1));
    const order = rows.map((row) => row.contentId);
    sizes.forEach((size, batch) => {
      const own = Array.from({ length: size }, (_, index) => `b${batch}-${index}`);
      const at = order.indexOf(own[0]);
      if (batch === refusedAt) expect(at).toBe(-1);
      else expect(order.slice(at, at + size)).toEqual(own);
    });
    const list = await http(platform, 'GET', `${root}/events?pageSize=100`, { token: caller.token });
    const stored = sizes.reduce((sum, size, batch) => sum + (batch === refusedAt ? 0 : size), 1);
    expect(list.body.data).toHaveLength(stored);
  });

  it('checks actorRef and objectRef against studentId and contentId and accepts them in their place', async ({
    platform,
  }) => {
    const caller = await producer(platform);
    const refs = await post(platform, caller, [
      {
        kind: 'tool_used',
        actorRef: { id: 'https://sis.example/users/9', type: 'Person' },
        objectRef: { id: 'https://tools.example/calc', type: 'SoftwareApplication', name: 'Calc' },
        activitySourceId: caller.sourceId,
        occurredAt: '2026-09-01T10:00:00Z',
      },
    ]);
    expect(refs.status).toBe(202);
    expect(refs.body.data[0]).toMatchObject({
      studentId: null,
      eventType: 'ToolUseEvent',
      objectRef: { name: 'Calc' },
    });
    const mismatch = await post(platform, caller, [
      viewed(caller.sourceId, { actorRef: { id: 'urn:alpha:student:someone-else', type: 'Person' } }),
    ]);
    expect([mismatch.status, mismatch.body.fieldErrors[0].field]).toEqual([422, 'events.0.actorRef.id']);
    const twoTimes = await post(platform, caller, [viewed(caller.sourceId, { occurredAt: '2026-09-01T11:00:00Z' })]);
    expect([twoTimes.status, twoTimes.body.fieldErrors[0].field]).toEqual([422, 'events.0.occurredAt']);
    // The same instant written with another offset is one time, not two (it was refused as two different times).
    const oneTime = await post(platform, caller, [
      viewed(caller.sourceId, { occurredAt: '2026-09-01T12:00:00+02:00' }),
    ]);
    expect([oneTime.status, oneTime.body.data?.[0].happenedAt]).toEqual([202, '2026-09-01T10:00:00.000Z']);
  });

  it('accepts player extension keys of the governed registry only', async ({ platform }) => {
    const caller = await producer(platform);
    const known = await post(platform, caller, [
      viewed(caller.sourceId, {
        extensions: {
          [`${PLAYER_EXTENSION_NAMESPACE}/renderer_ref`]: 'qti3-player@2',
          [`${PLAYER_EXTENSION_NAMESPACE}/attempt_count`]: 2,
        },
      }),
    ]);
    expect(known.status).toBe(202);
    expect(known.body.data[0].extensions).toEqual({
      [`${PLAYER_EXTENSION_NAMESPACE}/renderer_ref`]: 'qti3-player@2',
      [`${PLAYER_EXTENSION_NAMESPACE}/attempt_count`]: 2,
    });
    const unknown = await post(platform, caller, [
      viewed(caller.sourceId, { extensions: { [`${PLAYER_EXTENSION_NAMESPACE}/mood`]: 'happy' } }),
    ]);
    expect([unknown.status, unknown.body.fieldErrors[0].field]).toEqual([
      422,
      `events.0.extensions.${PLAYER_EXTENSION_NAMESPACE}/mood`,
    ]);
    const outside = await post(platform, caller, [
      viewed(caller.sourceId, { extensions: { 'https://other.example/x': 1 } }),
    ]);
    expect(outside.status).toBe(422);
    const badValue = await post(platform, caller, [
      viewed(caller.sourceId, { extensions: { [`${PLAYER_EXTENSION_NAMESPACE}/first_attempt`]: 'yes' } }),
    ]);
    expect(badValue.status).toBe(422);
  });

  it('replays an identical batch under its Idempotency-Key and refuses a changed one with 409', async ({
    platform,
  }) => {
    const caller = await producer(platform);
    const key = randomUUID();
    const first = await post(platform, caller, [viewed(caller.sourceId)], { 'idempotency-key': key });
    const replay = await post(platform, caller, [viewed(caller.sourceId)], { 'idempotency-key': key });
    expect(replay.status).toBe(202);
    expect(replay.headers.get('idempotency-replayed')).toBe('true');
    expect(replay.body.data[0].id).toBe(first.body.data[0].id);
    const changed = await post(platform, caller, [viewed(caller.sourceId, { contentId: 'c-2' })], {
      'idempotency-key': key,
    });
    expect([changed.status, changed.body.code]).toEqual([409, 'events:idempotency_conflict']);
    const untrimmed = await post(platform, caller, [viewed(caller.sourceId, { studentId: ' stu-1 ' })], {
      'idempotency-key': key,
    });
    expect([untrimmed.status, untrimmed.body.code]).toEqual([409, 'events:idempotency_conflict']);
    const all = await http(platform, 'GET', `${root}/events`, { token: caller.token });
    expect(all.body.data).toHaveLength(1);
  });

  it('answers ids and commit times only under Prefer: return=minimal, and stores the whole batch all the same', async ({
    platform,
  }) => {
    const caller = await producer(platform);
    const minimal = await post(platform, caller, [viewed(caller.sourceId), viewed(caller.sourceId)], {
      prefer: 'respond-async, return=minimal; foo="bar"',
    });
    expect(minimal.status).toBe(202);
    expect(minimal.headers.get('preference-applied')).toBe('return=minimal');
    expect(minimal.body.data).toEqual([
      { id: expect.any(String), modifiedAt: expect.any(String) },
      { id: expect.any(String), modifiedAt: minimal.body.data[0].modifiedAt },
    ]);
    const stored = await http(platform, 'GET', `${root}/events`, { token: caller.token });
    expect(stored.body.data).toEqual(
      minimal.body.data.map((event: object) => expect.objectContaining({ ...event, kind: 'content_viewed' })),
    );
    // Whole events unless minimal is asked for alone: representation, an unknown value, or both at once.
    for (const prefer of ['return=representation', 'return=everything', 'return=minimal, return=representation']) {
      const whole = await post(platform, caller, [viewed(caller.sourceId)], { prefer });
      expect(whole.status).toBe(202);
      expect(whole.headers.get('preference-applied')).toBeNull();
      expect(whole.body.data[0]).toHaveProperty('caliperEvent');
    }
    const refused = await post(platform, caller, [viewed(caller.sourceId, { kind: 'not_a_kind' })], {
      prefer: 'return=minimal',
    });
    expect([refused.status, refused.body.code, refused.headers.get('preference-applied')]).toEqual([
      422,
      'events:unprocessable',
      null,
    ]);
  });

  it('replays a keyed batch in the form each replay prefers', async ({ platform }) => {
    const caller = await producer(platform);
    const key = randomUUID();
    const first = await post(platform, caller, [viewed(caller.sourceId)], {
      'idempotency-key': key,
      prefer: 'return=minimal',
    });
    const whole = await post(platform, caller, [viewed(caller.sourceId)], { 'idempotency-key': key });
    const minimal = await post(platform, caller, [viewed(caller.sourceId)], {
      'idempotency-key': key,
      prefer: 'return=minimal',
    });
    expect([whole.status, whole.headers.get('idempotency-replayed')]).toEqual([202, 'true']);
    expect(whole.body.data[0]).toMatchObject({ ...first.body.data[0], kind: 'content_viewed', studentId: 'stu-1' });
    expect([minimal.status, minimal.headers.get('idempotency-replayed')]).toEqual([202, 'true']);
    expect(minimal.body).toEqual(first.body);
  });

  it('never returns raw payloads', async ({ platform }) => {
    const caller = await producer(platform);
    const accepted = await post(platform, caller, [viewed(caller.sourceId, { sourceEventId: 'vendor-77' })]);
    const read = await http(platform, 'GET', `${root}/events/${accepted.body.data[0].id}`, { token: caller.token });
    for (const body of [accepted.body.data[0], read.body.data]) {
      expect(Object.keys(body)).not.toContain('rawPayload');
      expect(Object.keys(body)).not.toContain('raw_payload');
    }
    expect(read.body.data.sourceEventId).toBe('vendor-77');
  });

  it('keeps as evidence every payload its row does not restate, and only those', async ({ platform }) => {
    const caller = await producer(platform);
    const pick = <T>(values: T[]) => values[Math.floor(Math.random() * values.length)];
    // An event sent as the row stores it: the row is its evidence.
    const restated = (index: number): Record<string, unknown> => ({
      kind: 'content_viewed',
      studentId: `stu-${index}`,
      contentId: `c-${index}`,
      activitySourceId: caller.sourceId,
      happenedAt: new Date(Date.UTC(2026, 8, 1, 10, 0, index)).toISOString(),
      ...pick([{}, { orgId: `org-${index}` }]),
      ...pick([{}, { sourceEventId: `vendor-${index}` }]),
      ...pick([{}, { extensions: { [`${PLAYER_EXTENSION_NAMESPACE}/attempt_count`]: index } }]),
    });
    // Each says something its row does not: a different form of a stored value, or a member the row derives.
    const departures: Array<(event: Record<string, unknown>) => Record<string, unknown>> = [
      ({ happenedAt, ...event }) => ({ ...event, occurredAt: happenedAt }),
      (event) => ({ ...event, happenedAt: (event.happenedAt as string).replace('.000Z', 'Z') }),
      (event) => ({ ...event, happenedAt: (event.happenedAt as string).replace('T10', 'T12').replace('Z', '+02:00') }),
      (event) => ({ ...event, activitySourceId: caller.sourceId.toUpperCase() }),
      (event) => ({ ...event, studentId: ` ${event.studentId as string} ` }),
      (event) => ({ ...event, orgId: null }),
      (event) => ({ ...event, extensions: {} }),
      (event) => ({ ...event, action: 'Viewed' }),
      (event) => ({ ...event, actorRef: { id: `urn:alpha:student:${event.studentId as string}`, type: 'Person' } }),
    ];
    const sent = Array.from({ length: 40 }, (_, index) => {
      const event = restated(index);
      return index % 2 === 0 ? event : pick(departures)(event);
    });
    const accepted = await post(platform, caller, sent);
    expect(accepted.status).toBe(202);
    const stored = new Map(
      (
        await platform.runtime.database.db
          .select({ eventId: learningEvents.eventId, rawPayload: learningEvents.rawPayload })
          .from(learningEvents)
          .where(eq(learningEvents.tenantId, caller.tenantId))
      ).map((row) => [row.eventId, row.rawPayload]),
    );
    accepted.body.data.forEach((event: Record<string, unknown>, index: number) => {
      if (index % 2 === 1) {
        expect(stored.get(event.id as string)).toEqual(sent[index]);
        return;
      }
      expect(stored.get(event.id as string)).toBeNull();
      // What the row restates is the payload: its non-null stored fields, and its extensions when it has any.
      const extensions = event.extensions as Record<string, unknown>;
      const fields = ['kind', 'studentId', 'contentId', 'orgId', 'activitySourceId', 'happenedAt', 'sourceEventId'];
      expect({
        ...Object.fromEntries(fields.filter((field) => event[field] !== null).map((field) => [field, event[field]])),
        ...(Object.keys(extensions).length > 0 ? { extensions } : {}),
      }).toEqual(sent[index]);
    });
  });

  it('answers 400 for malformed bodies and undocumented fields, 415 for non-JSON', async ({ platform }) => {
    const caller = await producer(platform);
    const notJson = await http(platform, 'POST', `${root}/events`, {
      token: caller.token,
      rawBody: '{"events": [',
      headers: { 'content-type': 'application/json' },
    });
    expect([notJson.status, notJson.body.code]).toEqual([400, 'events:validation_failed']);
    const empty = await post(platform, caller, []);
    expect(empty.status).toBe(400);
    const extra = await post(platform, caller, [viewed(caller.sourceId, { id: 'client-id' })]);
    expect([extra.status, extra.body.fieldErrors[0]]).toEqual([
      400,
      { field: 'events.0.id', message: 'unknown field' },
    ]);
    const wrongType = await post(platform, caller, [viewed(caller.sourceId, { studentId: 42 })]);
    expect(wrongType.status).toBe(400);
    const text = await http(platform, 'POST', `${root}/events`, {
      token: caller.token,
      rawBody: 'events',
      headers: { 'content-type': 'text/plain' },
    });
    expect([text.status, text.body.code]).toEqual([415, 'events:unsupported_media_type']);
  });

  it('answers 412 to a precondition header on an event write: events are immutable', async ({ platform }) => {
    const caller = await producer(platform);
    for (const header of ['if-match', 'if-none-match', 'if-unmodified-since']) {
      const refused = await post(platform, caller, [viewed(caller.sourceId)], {
        [header]: header === 'if-unmodified-since' ? new Date().toUTCString() : '"x"',
      });
      expect([refused.status, refused.body.code]).toEqual([412, 'events:precondition_failed']);
    }
    const accepted = await post(platform, caller, [viewed(caller.sourceId)]);
    const id = accepted.body.data[0].id;
    const update = await http(platform, 'PUT', `${root}/events/${id}`, {
      token: caller.token,
      body: viewed(caller.sourceId),
      headers: { 'if-match': '"x"' },
    });
    expect(update.status).toBe(412);
    for (const method of ['PUT', 'PATCH', 'DELETE']) {
      // RFC 9110: a 405 names the methods the resource has.
      const refused = await http(platform, method, `${root}/events/${id}`, { token: caller.token });
      expect([method, refused.status, refused.headers.get('allow')]).toEqual([method, 405, 'GET, HEAD']);
    }
    expect((await http(platform, 'GET', `${root}/events/${id}`, { token: caller.token })).status).toBe(200);
    expect((await http(platform, 'GET', `${root}/events`, { token: caller.token })).body.data).toHaveLength(1);
  });

  it('answers 401 for missing, malformed, wrongly signed and expired tokens', async ({ platform }) => {
    const caller = await producer(platform);
    const expired = await platform.runtime.auth.sign({
      tenantId: caller.tenantId,
      subject: 'u',
      scopes: ['events:read', 'events:write'],
      roles: [],
      ttlSeconds: 0,
    });
    for (const token of [undefined, 'not-a-jwt', `${caller.token.slice(0, -4)}AAAA`, expired]) {
      const refused = await post(platform, { ...caller, token: token as string }, [viewed(caller.sourceId)]);
      expect([refused.status, refused.body.code]).toEqual([401, 'events:unauthenticated']);
      const read = await http(platform, 'GET', `${root}/events`, { token });
      expect(read.status).toBe(401);
    }
  });

  it('answers 403 for another tenant in X-Vendor-Tenant (400 for an empty one) and for missing scopes', async ({
    platform,
  }) => {
    const caller = await producer(platform);
    const mismatch = await post(platform, caller, [viewed(caller.sourceId)], { 'x-vendor-tenant': 'someone-else' });
    expect([mismatch.status, mismatch.body.code]).toEqual([403, 'events:tenant_mismatch']);
    const empty = await post(platform, caller, [viewed(caller.sourceId)], { 'x-vendor-tenant': '' });
    expect([empty.status, empty.body.code, empty.body.fieldErrors]).toEqual([
      400,
      'events:validation_failed',
      [{ field: 'X-Vendor-Tenant', message: 'must not be empty' }],
    ]);
    const matching = await post(platform, caller, [viewed(caller.sourceId)], { 'x-vendor-tenant': caller.tenantId });
    expect(matching.status).toBe(202);
    const reader = await sameTenant(platform, caller, { scopes: ['events:read'] });
    const noWrite = await post(platform, reader, [viewed(caller.sourceId)]);
    expect([noWrite.status, noWrite.body.code]).toEqual([403, 'events:forbidden']);
    const writer = await sameTenant(platform, caller, { scopes: ['events:write'] });
    expect((await http(platform, 'GET', `${root}/events`, { token: writer.token })).status).toBe(403);
  });

  it('lets the demo token record events on its default activity source', async ({ platform }) => {
    const minted = await http(platform, 'POST', `${root}/dev/mint?tenantId=demo`);
    const demo = { tenantId: 'demo', token: minted.body.token };
    const accepted = await post(
      platform,
      demo,
      [viewed(minted.body.defaultActivitySourceId, { studentId: `demo-${randomUUID()}` })],
      { 'x-vendor-tenant': 'demo' },
    );
    expect(accepted.status).toBe(202);
    // A query of another shape is refused naming what is wrong, not as if the tenant were not demo.
    for (const [query, field] of [
      ['tenantId=demo&scope=events:sources:write', 'scope'],
      ['tenantId=demo&tenantId=demo', 'tenantId'],
    ]) {
      const refused = await http(platform, 'POST', `${root}/dev/mint?${query}`);
      expect([refused.status, refused.body.code, refused.body.fieldErrors?.[0].field, refused.body.detail]).toEqual([
        400,
        'events:demo_mint_refused',
        field,
        'Send tenantId=demo, once, and nothing else.',
      ]);
    }
  });
});

describe('GET /events and /events/{id}', () => {
  it('filters by every documented field', async ({ platform }) => {
    const caller = await producer(platform);
    const other = await http(platform, 'POST', `${root}/activity-sources`, {
      token: caller.token,
      body: { sourceIri: `https://other.example/${randomUUID()}`, name: 'Other' },
    });
    const created = await post(platform, caller, [
      viewed(caller.sourceId, { studentId: 'a', contentId: 'c1', orgId: 'o1', happenedAt: '2026-01-01T00:00:00Z' }),
      viewed(caller.sourceId, { studentId: 'b', contentId: 'c2', orgId: 'o2', happenedAt: '2026-02-01T00:00:00Z' }),
      {
        kind: 'assessment_started',
        studentId: 'a',
        contentId: 'c2',
        orgId: 'o1',
        activitySourceId: other.body.id,
        happenedAt: '2026-03-01T00:00:00Z',
      },
    ]);
    const [first, second, third] = created.body.data.map((event: { id: string }) => event.id);
    // Minted time-ordered (version 7), so a tenant's events append to the primary key's rightmost leaf.
    for (const id of [first, second, third]) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab]/);
    const ids = async (query: string) => {
      const reply = await http(platform, 'GET', `${root}/events?${query}`, { token: caller.token });
      expect(reply.status).toBe(200);
      return reply.body.data.map((event: { id: string }) => event.id);
    };
    expect(await ids('studentId=a')).toEqual([first, third]);
    expect(await ids('contentId=c2')).toEqual([second, third]);
    expect(await ids('orgId=o2')).toEqual([second]);
    expect(await ids(`activitySourceId=${other.body.id}`)).toEqual([third]);
    expect(await ids('kind=assessment_started')).toEqual([third]);
    // Several kinds, comma-separated: events of any of them, in commit order (a repeated kind counts once).
    expect(await ids('kind=assessment_started,content_viewed')).toEqual([first, second, third]);
    expect(await ids('kind=assessment_started,assessment_graded&studentId=a')).toEqual([third]);
    expect(await ids('kind=content_viewed,content_viewed')).toEqual([first, second]);
    expect(await ids('action=Viewed')).toEqual([first, second]);
    expect(await ids('eventType=AssessmentEvent')).toEqual([third]);
    expect(await ids('happenedAtFrom=2026-01-15T00:00:00Z')).toEqual([second, third]);
    expect(await ids('happenedAtTo=2026-02-01T00:00:00Z')).toEqual([first, second]);
    expect(await ids('happenedAtFrom=2026-01-15T00:00:00Z&happenedAtTo=2026-02-15T00:00:00Z&studentId=b')).toEqual([
      second,
    ]);
    expect(await ids(`modifiedSince=${encodeURIComponent(new Date(Date.now() + 3_600_000).toISOString())}`)).toEqual(
      [],
    );
    expect(await ids('modifiedSince=2020-01-01T00:00:00Z')).toEqual([first, second, third]);
  });

  it('answers modifiedSince from the instant of each commit, inclusive, with other filters and cursors', async ({
    platform,
  }) => {
    const caller = await producer(platform);
    const commits: Array<{ ids: string[]; modifiedAt: string }> = [];
    for (let commit = 0; commit < 9; commit += 1) {
      // No writer leaves a gap in seq, but the search for the first commit must not depend on it.
      if (commit % 3 === 2)
        await platform.runtime.database.db
          .update(commitHeads)
          .set({ seq: sql`${commitHeads.seq} + ${1 + Math.floor(Math.random() * 1000)}` })
          .where(eq(commitHeads.tenantId, caller.tenantId));
      const size = 1 + Math.floor(Math.random() * 4);
      const reply = await post(
        platform,
        caller,
        Array.from({ length: size }, (_, index) => viewed(caller.sourceId, { studentId: `s${index % 2}` })),
      );
      expect(reply.status).toBe(202);
      const data = reply.body.data as Array<{ id: string; modifiedAt: string }>;
      commits.push({ ids: data.map((event) => event.id), modifiedAt: data[0].modifiedAt });
      // The next commit gets a later millisecond.
      while (new Date().toISOString() <= data[0].modifiedAt) await new Promise((resolve) => setTimeout(resolve, 1));
    }
    const read = async (query: string) => {
      const found: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await http(
          platform,
          'GET',
          `${root}/events?pageSize=2&${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
          { token: caller.token },
        );
        expect(page.status).toBe(200);
        found.push(...page.body.data.map((event: { id: string }) => event.id));
        cursor = page.body.nextCursor ?? undefined;
      } while (cursor);
      return found;
    };
    const since = (instant: string) => `modifiedSince=${encodeURIComponent(instant)}`;
    for (const [at, commit] of commits.entries()) {
      expect(await read(since(commit.modifiedAt))).toEqual(commits.slice(at).flatMap((each) => each.ids));
      // Between two commits: the later ones only.
      const justAfter = new Date(Date.parse(commit.modifiedAt) + 1).toISOString();
      expect(await read(since(justAfter))).toEqual(commits.slice(at + 1).flatMap((each) => each.ids));
    }
    const all = await http(platform, 'GET', `${root}/events?pageSize=100&studentId=s1`, { token: caller.token });
    const ofS1 = new Set(all.body.data.map((event: { id: string }) => event.id));
    expect(await read(`studentId=s1&${since(commits[2].modifiedAt)}`)).toEqual(
      commits.slice(2).flatMap((each) => each.ids.filter((id) => ofS1.has(id))),
    );
  });

  it('reads a filter instant finer than a millisecond as it is: no event before happenedAtFrom or modifiedSince', async ({
    platform,
  }) => {
    const caller = await producer(platform);
    const recorded = await post(platform, caller, [
      viewed(caller.sourceId, { happenedAt: '2026-09-01T10:00:00.000Z' }),
    ]);
    const { id, modifiedAt } = recorded.body.data[0];
    const idsFor = async (filters: Record<string, string>) => {
      const query = new URLSearchParams({ ...filters, fields: 'id' });
      const page = await http(platform, 'GET', `${root}/events?${query}`, { token: caller.token });
      expect(page.status, query.toString()).toBe(200);
      return page.body.data.map((event: { id: string }) => event.id);
    };
    // Events are stored to the millisecond; an instant 100 microseconds after one is after it.
    expect(await idsFor({ happenedAtFrom: '2026-09-01T10:00:00.0001Z' })).toEqual([]);
    expect(await idsFor({ happenedAtFrom: '2026-09-01T09:59:59.9999Z' })).toEqual([id]);
    expect(await idsFor({ happenedAtTo: '2026-09-01T09:59:59.9999Z' })).toEqual([]);
    expect(await idsFor({ happenedAtTo: '2026-09-01T10:00:00.0001Z' })).toEqual([id]);
    expect(await idsFor({ modifiedSince: modifiedAt.replace('Z', '1Z') })).toEqual([]);
    expect(await idsFor({ modifiedSince: modifiedAt.replace('Z', '0000Z') })).toEqual([id]);
  });

  it('pages with opaque cursors and pageSize, and refuses forged or re-filtered cursors', async ({ platform }) => {
    const caller = await producer(platform);
    await post(
      platform,
      caller,
      Array.from({ length: 5 }, (_, index) => viewed(caller.sourceId, { contentId: `c-${index}` })),
    );
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = `pageSize=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const page = await http(platform, 'GET', `${root}/events?${query}`, { token: caller.token });
      expect(page.status).toBe(200);
      seen.push(...page.body.data.map((event: { contentId: string }) => event.contentId));
      cursor = page.body.nextCursor;
      pages += 1;
    } while (cursor);
    expect(seen).toEqual(['c-0', 'c-1', 'c-2', 'c-3', 'c-4']);
    expect(pages).toBe(3);
    const firstPage = await http(platform, 'GET', `${root}/events?pageSize=2`, { token: caller.token });
    const forged = await http(platform, 'GET', `${root}/events?cursor=${firstPage.body.nextCursor}x`, {
      token: caller.token,
    });
    expect([forged.status, forged.body.code]).toEqual([400, 'events:validation_failed']);
    const refiltered = await http(
      platform,
      'GET',
      `${root}/events?kind=content_viewed&cursor=${firstPage.body.nextCursor}`,
      { token: caller.token },
    );
    expect(refiltered.status).toBe(400);
  });

  it("refuses another list's cursor with 400, not as a position of this list (a 500, or wrong rows)", async ({
    platform,
  }) => {
    const caller = await producer(platform);
    await post(platform, caller, [viewed(caller.sourceId), viewed(caller.sourceId)]);
    const imported = await http(platform, 'POST', `${root}/source-imports`, {
      token: caller.token,
      body: {
        sourceSystem: 'sis_system',
        adapter: 'sis_attendance_event_v1',
        records: [attendanceRow(), attendanceRow()],
      },
    });
    expect(imported.status).toBe(200);
    const cursorOf = async (list: string) =>
      (await http(platform, 'GET', `${root}/${list}?pageSize=1`, { token: caller.token })).body.nextCursor as string;
    for (const [issuer, list] of [
      ['attendance-events', 'events'],
      ['attendance-events', 'discipline-events'],
      ['attendance-events', 'activity-sources'],
      ['events', 'attendance-events'],
    ]) {
      const cursor = encodeURIComponent(await cursorOf(issuer));
      const reply = await http(platform, 'GET', `${root}/${list}?cursor=${cursor}`, { token: caller.token });
      expect([issuer, list, reply.status, reply.body.code]).toEqual([issuer, list, 400, 'events:validation_failed']);
    }
  });

  it('answers only the fields asked for, with the id, in the order of the whole event', async ({ platform }) => {
    const caller = await producer(platform);
    await post(platform, caller, [
      viewed(caller.sourceId, { studentId: 'a', contentId: 'c1', happenedAt: '2026-01-01T00:00:00Z' }),
      viewed(caller.sourceId, { studentId: 'b', contentId: 'c2', happenedAt: '2026-02-01T00:00:00Z' }),
    ]);
    const whole = await http(platform, 'GET', `${root}/events`, { token: caller.token });
    const page = (fields: string) => http(platform, 'GET', `${root}/events?fields=${fields}`, { token: caller.token });
    const sparse = await page('happenedAt,kind,kind');
    expect(sparse.status).toBe(200);
    expect(sparse.body.data).toEqual(
      whole.body.data.map(({ id, kind, happenedAt }: Record<string, unknown>) => ({ id, kind, happenedAt })),
    );
    // The Caliper form names the activity source's IRI (edApp), as in the whole event.
    const caliper = await page('caliperEvent');
    expect(caliper.body.data.map((event: { caliperEvent: unknown }) => event.caliperEvent)).toEqual(
      whole.body.data.map((event: { caliperEvent: unknown }) => event.caliperEvent),
    );
    // Fields and filters and cursors together: the cursor pages the same events whatever the fields.
    const first = await http(platform, 'GET', `${root}/events?fields=id&pageSize=1`, { token: caller.token });
    expect(first.body.data).toEqual([{ id: whole.body.data[0].id }]);
    const second = await http(
      platform,
      'GET',
      `${root}/events?fields=contentId&pageSize=1&cursor=${first.body.nextCursor}`,
      { token: caller.token },
    );
    expect(second.body.data).toEqual([{ id: whole.body.data[1].id, contentId: 'c2' }]);
  });

  it('answers 400 for invalid queries', async ({ platform }) => {
    const caller = await producer(platform);
    for (const query of [
      'pageSize=0',
      'pageSize=5000',
      'modifiedSince=yesterday',
      'happenedAtFrom=2026-13-01',
      'activitySourceId=nope',
      'kind=content_viewed,,assessment_started',
      'kind=content_viewed,',
      'fields=color',
      'fields=kind,,id',
      'fields=',
      'fields=rawPayload',
      `kind=${Array.from({ length: 51 }, (_, index) => `kind_${index}`).join(',')}`,
      'color=blue',
    ]) {
      const reply = await http(platform, 'GET', `${root}/events?${query}`, { token: caller.token });
      expect([query, reply.status, reply.body.code]).toEqual([query, 400, 'events:validation_failed']);
    }
  });

  it("answers 404 for an unknown id, a malformed id and another tenant's event", async ({ platform }) => {
    const caller = await producer(platform);
    const stranger = await producer(platform);
    const theirs = await post(platform, stranger, [viewed(stranger.sourceId)]);
    for (const id of [randomUUID(), 'not-a-uuid', theirs.body.data[0].id]) {
      const reply = await http(platform, 'GET', `${root}/events/${id}`, { token: caller.token });
      expect([reply.status, reply.body.code]).toEqual([404, 'events:not_found']);
    }
  });

  it('keeps tenants apart in lists', async ({ platform }) => {
    const caller = await producer(platform);
    const stranger = await producer(platform);
    await post(platform, stranger, [viewed(stranger.sourceId)]);
    expect((await http(platform, 'GET', `${root}/events`, { token: caller.token })).body.data).toEqual([]);
  });
});

describe('activity sources', () => {
  it('creates 201, replays 200 with Idempotency-Replayed, refuses another name with 409 and undocumented fields with 400', async ({
    platform,
  }) => {
    const caller = await newTenant(platform, { scopes: ['events:read', 'events:sources:write'] });
    const body = { sourceIri: `https://vendor.example/${randomUUID()}`, name: 'Player' };
    const created = await http(platform, 'POST', `${root}/activity-sources`, { token: caller.token, body });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      id: expect.any(String),
      sourceIri: body.sourceIri,
      name: 'Player',
      status: 'active',
    });
    const replay = await http(platform, 'POST', `${root}/activity-sources`, { token: caller.token, body });
    expect([replay.status, replay.headers.get('idempotency-replayed'), replay.body.id]).toEqual([
      200,
      'true',
      created.body.id,
    ]);
    const renamed = await http(platform, 'POST', `${root}/activity-sources`, {
      token: caller.token,
      body: { ...body, name: 'Other' },
    });
    expect([renamed.status, renamed.body.code]).toEqual([409, 'resource_conflict']);
    // Not IRIs, though a URL parser takes them (they were registered and became Caliper edApp ids).
    for (const sourceIri of ['https://vendor.example/a b', 'https://vendor.example/<x>', 'urn:x:a\tb']) {
      const refused = await http(platform, 'POST', `${root}/activity-sources`, {
        token: caller.token,
        body: { sourceIri, name: 'Player' },
      });
      expect([sourceIri, refused.status, refused.body.fieldErrors?.[0].field]).toEqual([sourceIri, 400, 'sourceIri']);
    }
    for (const extra of [{ id: randomUUID() }, { credentialRef: 'x' }, { metadata: {} }, { tokens: [] }]) {
      const refused = await http(platform, 'POST', `${root}/activity-sources`, {
        token: caller.token,
        body: { ...body, ...extra },
      });
      expect(refused.status).toBe(400);
    }
    const text = await http(platform, 'POST', `${root}/activity-sources`, {
      token: caller.token,
      rawBody: 'x',
      headers: { 'content-type': 'text/plain' },
    });
    expect(text.status).toBe(415);
    expect((await http(platform, 'POST', `${root}/activity-sources`, { body })).status).toBe(401);
    const listed = await http(platform, 'GET', `${root}/activity-sources?status=active&pageSize=10`, {
      token: caller.token,
    });
    expect(listed.body.data.map((source: { id: string }) => source.id)).toEqual([created.body.id]);
    expect(
      (await http(platform, 'GET', `${root}/activity-sources/${created.body.id}`, { token: caller.token })).body.data
        .id,
    ).toBe(created.body.id);
    expect(
      (await http(platform, 'GET', `${root}/activity-sources/${randomUUID()}`, { token: caller.token })).status,
    ).toBe(404);
  });

  it('refuses source registration to the demo token', async ({ platform }) => {
    const minted = await http(platform, 'POST', `${root}/dev/mint?tenantId=demo`);
    const refused = await http(platform, 'POST', `${root}/activity-sources`, {
      token: minted.body.token,
      body: { sourceIri: 'https://demo.example/x', name: 'x' },
    });
    expect([refused.status, refused.body.code]).toEqual([403, 'events:forbidden']);
    expect(minted.body.identityBoundary).toMatchObject({ canRegisterActivitySources: false });
  });
});
