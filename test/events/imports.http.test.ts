import fs from 'node:fs';
import { randomUUID } from 'node:crypto';
import { describe, expect } from 'vitest';
import { FIXTURES, http, type Reply, newTenant, sameTenant, type Caller } from '../kit.ts';
import { filePlatform, platformTest } from '../platform-test.ts';
import { attendanceRow, disciplineRow, root, vendorRow } from './helpers.ts';
import { EDFI_DESCRIPTORS } from '../../subgraphs/events/vocabulary.ts';

const it = platformTest();

async function importer(): Promise<Caller> {
  return newTenant(filePlatform(), { scopes: ['events:read', 'events:write'] });
}

function runImport(caller: Caller, body: Record<string, unknown>, headers: Record<string, string> = {}) {
  return http(filePlatform(), 'POST', `${root}/source-imports`, { token: caller.token, body, headers });
}

const vendorImport = (records: unknown[], extra: Record<string, unknown> = {}) => ({
  sourceSystem: 'vendor_production',
  adapter: 'vendor_learning_event_v1',
  records,
  ...extra,
});

describe('POST /source-imports: vendor_learning_event_v1', () => {
  it('materializes every row as a readable Caliper event with derived fields', async ({ platform }) => {
    const caller = await importer();
    const reply = await runImport(
      caller,
      vendorImport([vendorRow(1), vendorRow(2, { date: '2026-09-03T14:30:00Z' })], { importId: 'nightly-1' }),
    );
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({
      acceptedCount: 2,
      materializedCount: 2,
      import: { status: 'materialized', importId: 'nightly-1' },
    });
    const [first, second] = reply.body.data;
    expect(first.href).toBe(`${root}/events/${first.id}`);
    const read = await http(platform, 'GET', first.href, { token: caller.token });
    expect(read.status).toBe(200);
    expect(read.body.data).toMatchObject({
      kind: 'activity_completed',
      studentId: 'stu-1',
      contentId: 'act-1',
      sourceEventId: 'v-1',
      eventType: 'AssignableEvent',
      action: 'Completed',
      happenedAt: '2026-09-02T00:00:00.000Z',
    });
    expect(JSON.stringify(read.body)).not.toContain('xp_earned');
    expect((await http(platform, 'GET', second.href, { token: caller.token })).body.data.happenedAt).toBe(
      '2026-09-03T14:30:00.000Z',
    );
    const listed = await http(platform, 'GET', `${root}/events?kind=activity_completed`, { token: caller.token });
    expect(listed.body.data).toHaveLength(2);
  });

  it('is all-or-nothing: one bad row among 1000 writes nothing and is named', async ({ platform }) => {
    const caller = await importer();
    const records = Array.from({ length: 1000 }, (_, index) => vendorRow(index));
    records[637] = vendorRow(637, { correct_questions: 11 });
    const refused = await runImport(caller, vendorImport(records));
    expect([refused.status, refused.body.code]).toEqual([422, 'events:adapter_rejected']);
    expect(refused.body.fieldErrors).toEqual([
      { field: 'records.637.correct_questions', message: 'greater than total_questions' },
    ]);
    expect((await http(platform, 'GET', `${root}/events`, { token: caller.token })).body.data).toEqual([]);
    records[637] = vendorRow(637);
    const accepted = await runImport(caller, vendorImport(records));
    expect(accepted.status).toBe(200);
    expect([accepted.body.acceptedCount, accepted.body.materializedCount]).toEqual([1000, 1000]);
    let count = 0;
    let cursor: string | null = null;
    do {
      const page: Reply = await http(
        platform,
        'GET',
        `${root}/events?pageSize=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        { token: caller.token },
      );
      count += page.body.data.length;
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(count).toBe(1000);
  });

  it('refuses caller-derived fields and unknown fields, naming rows and fields', async () => {
    const caller = await importer();
    const refused = await runImport(
      caller,
      vendorImport([
        vendorRow(1),
        vendorRow(2, { activity_kind: 'lesson' }),
        vendorRow(3, { eventType: 'ViewEvent', actorRef: {} }),
        vendorRow(4, { colour: 'red' }),
        vendorRow(5, { user_id: undefined }),
      ]),
    );
    expect(refused.status).toBe(422);
    expect(refused.body.fieldErrors).toEqual([
      { field: 'records.1.activity_kind', message: 'caller-derived field: the server derives it' },
      { field: 'records.2.eventType', message: 'caller-derived field: the server derives it' },
      { field: 'records.2.actorRef', message: 'caller-derived field: the server derives it' },
      { field: 'records.3.colour', message: 'unknown field' },
      expect.objectContaining({ field: 'records.4.user_id' }),
    ]);
  });

  it('dryRun validates and writes nothing', async ({ platform }) => {
    const caller = await importer();
    const dry = await runImport(caller, vendorImport([vendorRow(1), vendorRow(2)], { dryRun: true }));
    expect(dry.status).toBe(200);
    expect(dry.body).toMatchObject({
      acceptedCount: 2,
      materializedCount: 0,
      import: { status: 'validated', dryRun: true },
    });
    expect((await http(platform, 'GET', `${root}/events`, { token: caller.token })).body.data).toEqual([]);
    const dryBad = await runImport(caller, vendorImport([vendorRow(1, { kind: 'x' })], { dryRun: true }));
    expect(dryBad.status).toBe(422);
  });

  it('replays a retried import by importId or Idempotency-Key and refuses a changed one with 409', async ({
    platform,
  }) => {
    const caller = await importer();
    const first = await runImport(caller, vendorImport([vendorRow(1)], { importId: 'retry-me' }));
    const again = await runImport(caller, vendorImport([vendorRow(1)], { importId: 'retry-me' }));
    expect([again.status, again.headers.get('idempotency-replayed'), again.body.data[0].id]).toEqual([
      200,
      'true',
      first.body.data[0].id,
    ]);
    const changed = await runImport(caller, vendorImport([vendorRow(2)], { importId: 'retry-me' }));
    expect([changed.status, changed.body.code]).toEqual([409, 'events:idempotency_conflict']);
    const key = randomUUID();
    const keyed = await runImport(caller, vendorImport([vendorRow(3)]), { 'idempotency-key': key });
    const keyedAgain = await runImport(caller, vendorImport([vendorRow(3)]), { 'idempotency-key': key });
    expect(keyedAgain.body.data[0].id).toBe(keyed.body.data[0].id);
    expect((await http(platform, 'GET', `${root}/events`, { token: caller.token })).body.data).toHaveLength(2);
  });

  it('answers 400 for malformed requests, 401, 403 and 415', async ({ platform }) => {
    const caller = await importer();
    const cases: Array<[Record<string, unknown>, string]> = [
      [vendorImport([]), 'records'],
      [vendorImport(Array.from({ length: 1001 }, (_, index) => vendorRow(index))), 'records'],
      [vendorImport([vendorRow(1)], { adapter: 'csv_v9' }), 'adapter'],
      [vendorImport([vendorRow(1)], { sourceSystem: 'sis_system' }), 'sourceSystem'],
      [vendorImport([vendorRow(1)], { dryRun: 'yes' }), 'dryRun'],
      [vendorImport([vendorRow(1)], { extra: 1 }), 'extra'],
    ];
    for (const [body, field] of cases) {
      const reply = await runImport(caller, body);
      expect([field, reply.status, reply.body.code]).toEqual([field, 400, 'events:validation_failed']);
      expect(reply.body.fieldErrors.map((error: { field: string }) => error.field)).toContain(field);
    }
    expect(
      (await http(platform, 'POST', `${root}/source-imports`, { body: vendorImport([vendorRow(1)]) })).status,
    ).toBe(401);
    const reader = await sameTenant(platform, caller, { scopes: ['events:read'] });
    expect((await runImport(reader, vendorImport([vendorRow(1)]))).status).toBe(403);
    const text = await http(platform, 'POST', `${root}/source-imports`, {
      token: caller.token,
      rawBody: 'a,b',
      headers: { 'content-type': 'text/csv' },
    });
    expect(text.status).toBe(415);
  });
});

describe('sis_attendance_event_v1 and GET /attendance-events', () => {
  it('normalizes with Ed-Fi descriptors, serves read-only rows with every filter and hides reasons and raw payloads', async ({
    platform,
  }) => {
    const caller = await importer();
    const imported = await runImport(caller, {
      sourceSystem: 'sis_system',
      adapter: 'sis_attendance_event_v1',
      records: [
        attendanceRow(),
        attendanceRow({ event_date: '2021-11-09', attendance_event_category: 'Tardy', class_id: 'BIO-2' }),
        attendanceRow({
          student_id: '604823',
          school_id: '255901044',
          event_date: '2021-12-15',
          attendance_event_category: 'unexcused absence',
        }),
      ],
    });
    expect(imported.status).toBe(200);
    expect(imported.body.materializedCount).toBe(3);
    const detail = await http(platform, 'GET', imported.body.data[0].href, { token: caller.token });
    expect(detail.status).toBe(200);
    expect(detail.body.data).toMatchObject({
      studentId: '604822',
      schoolId: '255901001',
      classId: 'ALG-1-01',
      eventDate: '2021-08-31',
      category: 'Excused Absence',
      categoryDescriptor: 'uri://ed-fi.org/AttendanceEventCategoryDescriptor#Excused Absence',
      durationDays: 1,
      studentName: null,
    });
    expect(JSON.stringify(detail.body)).not.toMatch(/family emergency|rawPayload|attendance_event_reason/);
    const dates = async (query: string) => {
      const reply = await http(platform, 'GET', `${root}/attendance-events?${query}`, { token: caller.token });
      expect([query, reply.status]).toEqual([query, 200]);
      return reply.body.data.map((row: { eventDate: string }) => row.eventDate);
    };
    expect(await dates('')).toEqual(['2021-08-31', '2021-11-09', '2021-12-15']);
    expect(await dates('studentId=604823')).toEqual(['2021-12-15']);
    expect(await dates('schoolId=255901001')).toEqual(['2021-08-31', '2021-11-09']);
    expect(await dates('classId=BIO-2')).toEqual(['2021-11-09']);
    expect(await dates('category=Tardy')).toEqual(['2021-11-09']);
    expect(
      await dates(
        `category=${encodeURIComponent('uri://ed-fi.org/AttendanceEventCategoryDescriptor#Unexcused Absence')}`,
      ),
    ).toEqual(['2021-12-15']);
    expect(await dates('from=2021-11-09&to=2021-11-09')).toEqual(['2021-11-09']);
    expect(await dates('from=2021-09-01')).toEqual(['2021-11-09', '2021-12-15']);
    expect(await dates('to=2021-11-08')).toEqual(['2021-08-31']);
    const first = await http(platform, 'GET', `${root}/attendance-events?pageSize=2`, { token: caller.token });
    const rest = await http(
      platform,
      'GET',
      `${root}/attendance-events?pageSize=2&cursor=${encodeURIComponent(first.body.nextCursor)}`,
      { token: caller.token },
    );
    expect(rest.body.data.map((row: { eventDate: string }) => row.eventDate)).toEqual(['2021-12-15']);
    expect(rest.body.nextCursor).toBeNull();
    for (const query of [
      'category=Sleeping',
      'from=2021-13-01',
      'from=2021-09-01T00:00:00Z',
      'pageSize=0',
      'cursor=abc',
      'colour=red',
    ]) {
      expect((await http(platform, 'GET', `${root}/attendance-events?${query}`, { token: caller.token })).status).toBe(
        400,
      );
    }
    expect(
      (await http(platform, 'GET', `${root}/attendance-events/${randomUUID()}`, { token: caller.token })).status,
    ).toBe(404);
    expect((await http(platform, 'GET', `${root}/attendance-events`)).status).toBe(401);
    const writer = await sameTenant(platform, caller, { scopes: ['events:write'] });
    expect((await http(platform, 'GET', `${root}/attendance-events`, { token: writer.token })).status).toBe(403);
    expect(
      (await http(platform, 'POST', `${root}/attendance-events`, { token: caller.token, body: attendanceRow() }))
        .status,
    ).toBe(405);
  });

  it('rejects rows outside the Ed-Fi vocabulary, naming them', async ({ platform }) => {
    const caller = await importer();
    const refused = await runImport(caller, {
      sourceSystem: 'sis_system',
      adapter: 'sis_attendance_event_v1',
      records: [
        attendanceRow(),
        attendanceRow({ attendance_event_category: 'Sleeping' }),
        attendanceRow({ event_date: '31/08/2021', kind: 'attendance' }),
      ],
    });
    expect(refused.status).toBe(422);
    expect(refused.body.fieldErrors.map((error: { field: string }) => error.field)).toEqual([
      'records.1.attendance_event_category',
      'records.2.kind',
    ]);
    expect((await http(platform, 'GET', `${root}/attendance-events`, { token: caller.token })).body.data).toEqual([]);
  });
});

describe('sis_attendance_event_v1 with Ed-Fi API resources, as a SIS serves them', () => {
  const categories = EDFI_DESCRIPTORS.AttendanceEventCategoryDescriptor;
  const schoolEvent = (index: number, overrides: Record<string, unknown> = {}) => ({
    id: randomUUID().replaceAll('-', ''),
    studentReference: {
      studentUniqueId: `S${1000 + index}`,
      link: { rel: 'Student', href: `/ed-fi/students/${index}` },
    },
    schoolReference: { schoolId: 255901000 + index },
    sessionReference: { schoolId: 255901000 + index, schoolYear: 2022, sessionName: '2021-2022 Fall Semester' },
    eventDate: `2021-09-${String(10 + index).padStart(2, '0')}`,
    attendanceEventCategoryDescriptor: `uri://ed-fi.org/AttendanceEventCategoryDescriptor#${categories[index % categories.length]}`,
    attendanceEventReason: 'reason kept out of every answer',
    eventDuration: 0.5,
    arrivalTime: '09:10:00',
    _etag: '5250168731208835353',
    _lastModifiedDate: '2021-09-10T12:00:00Z',
    ...overrides,
  });
  const sectionEvent = (index: number, overrides: Record<string, unknown> = {}) => ({
    id: randomUUID().replaceAll('-', ''),
    studentReference: { studentUniqueId: `S${2000 + index}` },
    sectionReference: {
      localCourseCode: 'ALG-1',
      schoolId: 255901001,
      schoolYear: 2022,
      sectionIdentifier: `ALG-1-0${index}`,
      sessionName: '2021-2022 Spring Semester',
    },
    eventDate: '2022-02-0' + (index + 1),
    attendanceEventCategoryDescriptor: 'uri://ed-fi.org/AttendanceEventCategoryDescriptor#Tardy',
    classPeriods: [{ classPeriodReference: { classPeriodName: 'First', schoolId: 255901001 } }],
    sectionAttendanceDuration: 15,
    ...overrides,
  });

  it('normalizes school and section events to the same moments as flattened rows', async ({ platform }) => {
    const caller = await importer();
    const schoolEvents = categories.map((_, index) => schoolEvent(index));
    const imported = await runImport(caller, {
      sourceSystem: 'sis_system',
      adapter: 'sis_attendance_event_v1',
      records: [...schoolEvents, sectionEvent(1), sectionEvent(2, { eventDuration: 1 })],
    });
    expect([imported.status, imported.body.materializedCount]).toEqual([200, categories.length + 2]);
    const rows = (await http(platform, 'GET', `${root}/attendance-events?pageSize=100`, { token: caller.token })).body
      .data;
    expect(rows).toHaveLength(categories.length + 2);
    expect(rows[0]).toMatchObject({
      studentId: 'S1000',
      schoolId: '255901000',
      classId: null,
      eventDate: '2021-09-10',
      category: categories[0],
      categoryDescriptor: `uri://ed-fi.org/AttendanceEventCategoryDescriptor#${categories[0]}`,
      durationDays: 0.5,
      sessionName: '2021-2022 Fall Semester',
      schoolYear: '2022',
      sourceRecordId: schoolEvents[0].id,
    });
    expect(rows.map((row: { category: string }) => row.category).slice(0, categories.length)).toEqual([...categories]);
    expect(rows.slice(-2)).toMatchObject([
      { studentId: 'S2001', schoolId: '255901001', classId: 'ALG-1-01', category: 'Tardy', durationDays: null },
      { studentId: 'S2002', classId: 'ALG-1-02', sessionName: '2021-2022 Spring Semester', durationDays: 1 },
    ]);
    expect(JSON.stringify(rows)).not.toMatch(/reason kept out/);
  });

  it('refuses a resource with a member Ed-Fi does not have, or without a key, naming the field', async ({
    platform,
  }) => {
    const caller = await importer();
    const refused = await runImport(caller, {
      sourceSystem: 'sis_system',
      adapter: 'sis_attendance_event_v1',
      records: [
        schoolEvent(1),
        schoolEvent(2, { student_id: 'S9' }),
        sectionEvent(3, { sectionReference: { schoolId: 255901001, schoolYear: 2022, sessionName: 'x' } }),
        schoolEvent(4, {
          attendanceEventCategoryDescriptor: 'uri://ed-fi.org/AttendanceEventCategoryDescriptor#Asleep',
        }),
      ],
    });
    expect(refused.status).toBe(422);
    expect(refused.body.fieldErrors.map((error: { field: string }) => error.field)).toEqual([
      'records.1.student_id',
      'records.2.sectionReference.localCourseCode',
      'records.2.sectionReference.sectionIdentifier',
      'records.3.attendanceEventCategoryDescriptor',
    ]);
    expect((await http(platform, 'GET', `${root}/attendance-events`, { token: caller.token })).body.data).toEqual([]);
  });
});

describe('dates the calendar lacks (they reached PostgreSQL and were answered 500)', () => {
  it('are refused in imported rows and in the moment lists, naming the field', async ({ platform }) => {
    const caller = await importer();
    for (const [adapter, row] of [
      ['sis_attendance_event_v1', attendanceRow({ event_date: '2021-02-30' })],
      ['sis_discipline_event_v1', disciplineRow({ incident_date: '0000-01-01' })],
    ] as const) {
      const refused = await runImport(caller, { sourceSystem: 'sis_system', adapter, records: [row] });
      expect([refused.status, refused.body.fieldErrors]).toEqual([
        422,
        [{ field: expect.stringMatching(/^records\.0\.(event|incident)_date$/), message: 'not a calendar date' }],
      ]);
    }
    expect((await http(platform, 'GET', `${root}/attendance-events`, { token: caller.token })).body.data).toEqual([]);
    for (const query of ['attendance-events?from=2021-04-31', 'discipline-events?to=2023-02-29']) {
      const reply = await http(platform, 'GET', `${root}/${query}`, { token: caller.token });
      expect([query, reply.status, reply.body.fieldErrors]).toEqual([
        query,
        400,
        [{ field: query.includes('from') ? 'from' : 'to', message: 'not a calendar date' }],
      ]);
    }
    const leapDay = await http(platform, 'GET', `${root}/attendance-events?from=2024-02-29`, { token: caller.token });
    expect(leapDay.status).toBe(200);
  });

  it('refuse an incident time of day that does not exist, which was stored and served as sent', async ({
    platform,
  }) => {
    const caller = await importer();
    const times = ['24:00', '23:60', '09:00:60', '99:99:99'];
    const refused = await runImport(caller, {
      sourceSystem: 'sis_system',
      adapter: 'sis_discipline_event_v1',
      records: times.map((incident_time) => disciplineRow({ incident_time })),
    });
    expect([refused.status, refused.body.code]).toEqual([422, 'events:adapter_rejected']);
    expect(refused.body.fieldErrors.map((error: { field: string }) => error.field)).toEqual(
      times.map((_, index) => `records.${index}.incident_time`),
    );
    expect((await http(platform, 'GET', `${root}/discipline-events`, { token: caller.token })).body.data).toEqual([]);
    const valid = ['00:00', '23:59:59'];
    const accepted = await runImport(caller, {
      sourceSystem: 'sis_system',
      adapter: 'sis_discipline_event_v1',
      records: valid.map((incident_time) => disciplineRow({ incident_time })),
    });
    expect([accepted.status, accepted.body.materializedCount]).toEqual([200, 2]);
  });

  it('refuse a vendor date Date.parse would roll over, read in local time, or move out of the years 1 to 9999', async ({
    platform,
  }) => {
    const caller = await importer();
    const dates = [
      '2024-01-01T24:00:00Z',
      '2024-01-01T10:00:00',
      '2024-01-01 (Monday)',
      '0001-01-01T00:00:00+01:00',
      '9999-12-31T23:00:00-05:00',
    ];
    const refused = await runImport(caller, vendorImport(dates.map((date, index) => vendorRow(index, { date }))));
    expect([refused.status, refused.body.code]).toEqual([422, 'events:adapter_rejected']);
    expect(refused.body.fieldErrors.map((error: { field: string }) => error.field)).toEqual(
      dates.map((_, index) => `records.${index}.date`),
    );
    expect((await http(platform, 'GET', `${root}/events`, { token: caller.token })).body.data).toEqual([]);
    const offset = await runImport(caller, vendorImport([vendorRow(1, { date: '2024-01-01T23:30:00-01:00' })]));
    const read = await http(platform, 'GET', offset.body.data[0].href, { token: caller.token });
    expect(read.body.data.happenedAt).toBe('2024-01-02T00:30:00.000Z');
  });
});

describe('sis_discipline_event_v1 and GET /discipline-events', () => {
  it('normalizes descriptors, filters, and never publishes narratives or reporter names', async ({ platform }) => {
    const caller = await importer();
    const imported = await runImport(caller, {
      sourceSystem: 'sis_system',
      adapter: 'sis_discipline_event_v1',
      records: [
        disciplineRow(),
        disciplineRow({
          incident_id: '12',
          incident_date: '2021-10-21',
          behavior: 'School Code of Conduct',
          incident_location: 'Classroom',
          participation_code: 'Witness',
          student_id: '604900',
        }),
      ],
    });
    expect(imported.status).toBe(200);
    const detail = await http(platform, 'GET', imported.body.data[0].href, { token: caller.token });
    expect(detail.body.data).toMatchObject({
      incidentId: '10',
      eventDate: '2021-10-18',
      behavior: 'State Offense',
      behaviorDescriptor: 'uri://ed-fi.org/BehaviorDescriptor#State Offense',
      participationCode: 'Perpetrator',
      location: 'Parking lot',
      locationDescriptor: 'uri://ed-fi.org/IncidentLocationDescriptor#Parking lot',
      disciplineAction: 'In School Suspension',
      reporterDescription: 'Staff',
    });
    expect(JSON.stringify(detail.body)).not.toMatch(/narrative|Hickman|Detailed Desciption|rawPayload/);
    const incidents = async (query: string) => {
      const reply = await http(platform, 'GET', `${root}/discipline-events?${query}`, { token: caller.token });
      expect([query, reply.status]).toEqual([query, 200]);
      return reply.body.data.map((row: { incidentId: string }) => row.incidentId);
    };
    expect(await incidents('')).toEqual(['10', '12']);
    expect(await incidents('studentId=604900')).toEqual(['12']);
    expect(await incidents('schoolId=255901001')).toEqual(['10', '12']);
    expect(await incidents('behavior=State%20Offense')).toEqual(['10']);
    expect(await incidents('participationCode=Witness')).toEqual(['12']);
    expect(
      await incidents(`location=${encodeURIComponent('uri://ed-fi.org/IncidentLocationDescriptor#Classroom')}`),
    ).toEqual(['12']);
    expect(await incidents('from=2021-10-19')).toEqual(['12']);
    expect(await incidents('to=2021-10-18')).toEqual(['10']);
    expect(
      (await http(platform, 'GET', `${root}/discipline-events?behavior=Arson`, { token: caller.token })).status,
    ).toBe(400);
    expect((await http(platform, 'GET', `${root}/discipline-events/not-an-id`, { token: caller.token })).status).toBe(
      404,
    );
    const stranger = await importer();
    expect((await http(platform, 'GET', imported.body.data[0].href, { token: stranger.token })).status).toBe(404);
  });
});

describe('Ed-Fi vocabularies', () => {
  it('holds exactly the code values of the Ed-Fi 5.2 descriptor files', () => {
    for (const [name, values] of Object.entries(EDFI_DESCRIPTORS)) {
      const xml = fs.readFileSync(`${FIXTURES}/edfi/descriptors/${name}.xml`, 'utf8');
      const codes = [...xml.matchAll(/<CodeValue>([^<]*)<\/CodeValue>/g)].map((match) =>
        match[1].replaceAll('&apos;', "'"),
      );
      expect([name, [...values].sort()]).toEqual([name, codes.sort()]);
    }
  });
});

describe('optional row members a producer writes as null', () => {
  const nulled = (row: Record<string, unknown>, members: string[]) =>
    Object.fromEntries(Object.entries(row).map(([name, value]) => [name, members.includes(name) ? null : value]));

  it('are read as absent in each adapter (they were 422), and a null required member is still refused', async ({
    platform,
  }) => {
    const caller = await importer();
    const vendorOptional = ['subject', 'app', 'course_id', 'total_questions', 'correct_questions', 'xp_earned'];
    const vendorOptionalToo = ['mastered_units', 'active_seconds', 'source_system', 'score_type', 'score_given'];
    const vendor = await runImport(
      caller,
      vendorImport([nulled(vendorRow(1), [...vendorOptional, ...vendorOptionalToo, 'max_score']), vendorRow(2)]),
    );
    expect([vendor.status, vendor.body.materializedCount]).toEqual([200, 2]);
    const event = await http(platform, 'GET', vendor.body.data[0].href, { token: caller.token });
    expect(event.body.data).toMatchObject({ studentId: 'stu-1', contentId: 'act-1', sourceEventId: 'v-1' });

    /** One SIS row imported, and its moment read back. */
    const sisMoment = async (adapter: string, row: Record<string, unknown>) => {
      const imported = await runImport(caller, { sourceSystem: 'sis_system', adapter, records: [row] });
      expect(imported.status, adapter).toBe(200);
      return (await http(platform, 'GET', imported.body.data[0].href, { token: caller.token })).body.data;
    };
    const attendanceOptional = ['id', 'class_id', 'attendance_event_reason', 'event_duration', 'session_name'];
    const attendance = nulled(attendanceRow(), [...attendanceOptional, 'school_year']);
    expect(await sisMoment('sis_attendance_event_v1', attendance)).toMatchObject({
      classId: null,
      durationDays: null,
      sessionName: null,
      schoolYear: null,
      sourceRecordId: null,
      category: 'Excused Absence',
    });
    const disciplineOptional = ['id', 'incident_time', 'behavior_detailed_description', 'participation_code'];
    const disciplineOptionalToo = ['incident_location', 'discipline', 'reporter_description', 'reporter_name'];
    const discipline = nulled(disciplineRow(), [
      ...disciplineOptional,
      ...disciplineOptionalToo,
      'incident_description',
    ]);
    expect(await sisMoment('sis_discipline_event_v1', discipline)).toMatchObject({
      incidentTime: null,
      participationCode: null,
      location: null,
      disciplineAction: null,
      reporterDescription: null,
      behavior: 'State Offense',
    });

    const nullRequired = await runImport(caller, vendorImport([nulled(vendorRow(3), ['user_id'])]));
    expect([nullRequired.status, nullRequired.body.fieldErrors?.[0].field]).toEqual([422, 'records.0.user_id']);
  });
});

describe('a flattened attendance row', () => {
  it("takes Ed-Fi's integer SchoolYear as school_year and serves it as text, as the Ed-Fi resources' (it was 422)", async () => {
    const caller = await importer();
    const imported = await runImport(caller, {
      sourceSystem: 'sis_system',
      adapter: 'sis_attendance_event_v1',
      records: [attendanceRow({ school_year: 2022 }), attendanceRow({ school_year: 2022.5 })],
    });
    expect([imported.status, imported.body.fieldErrors?.map((error: { field: string }) => error.field)]).toEqual([
      422,
      ['records.1.school_year'],
    ]);
    const whole = await runImport(caller, {
      sourceSystem: 'sis_system',
      adapter: 'sis_attendance_event_v1',
      records: [attendanceRow({ school_year: 2022 })],
    });
    expect(whole.status).toBe(200);
    const moment = await http(filePlatform(), 'GET', whole.body.data[0].href, { token: caller.token });
    expect(moment.body.data.schoolYear).toBe('2022');
  });
});

describe("a source system's activity source", () => {
  it('is the one the tenant registered under its IRI, whatever its name (an import was 409 on a name it never sent)', async () => {
    const caller = await importer();
    const operator = await newTenant(filePlatform(), {
      tenantId: caller.tenantId,
      roles: ['operator'],
      scopes: ['events:read', 'events:sources:write'],
    });
    const registered = await http(filePlatform(), 'POST', `${root}/activity-sources`, {
      token: operator.token,
      body: { sourceIri: 'urn:alpha:source-system:vendor_production', name: 'Our vendor feed' },
    });
    expect(registered.status).toBe(201);
    const imported = await runImport(caller, vendorImport([vendorRow(1)]));
    expect(imported.status).toBe(200);
    const event = await http(filePlatform(), 'GET', imported.body.data[0].href, { token: caller.token });
    expect(event.body.data.activitySourceId).toBe(registered.body.id);
  });
});
