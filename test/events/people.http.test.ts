import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { startTestPlatform, http, newTenant, ownCallsDuring, roots } from '../kit.ts';
import { platformTest } from '../platform-test.ts';
import { post, producer, root, viewed } from './helpers.ts';

/** Student names come from the people service, joined in presentation only; no answer means no name. */

const it = platformTest();

describe('student names from the people service', () => {
  it('joins the registered name into event and attendance reads', async ({ platform }) => {
    const caller = await producer(platform);
    const operator = await newTenant(platform, { tenantId: caller.tenantId, roles: ['operator'], scopes: [] });
    const person = await http(platform, 'POST', `${roots.people}/people`, {
      token: operator.token,
      body: { personId: 'stu-named', givenName: 'Ada', familyName: 'Lovelace', reality: 'test' },
    });
    expect(person.status).toBe(201);
    const created = await post(platform, caller, [
      viewed(caller.sourceId, { studentId: 'stu-named' }),
      viewed(caller.sourceId, { studentId: 'stu-unknown' }),
    ]);
    expect(created.body.data[0]).not.toHaveProperty('studentName');
    const list = await http(platform, 'GET', `${root}/events`, { token: caller.token });
    expect(list.body.data.map((event: { studentName: string | null }) => event.studentName)).toEqual([
      'Ada Lovelace',
      null,
    ]);
    const one = await http(platform, 'GET', `${root}/events/${created.body.data[0].id}`, { token: caller.token });
    expect(one.body.data.studentName).toBe('Ada Lovelace');
    // A page asked for fields without studentName asks the people service nothing; with it, the names come.
    const unnamed = await ownCallsDuring(platform, `${roots.people}/`, () =>
      http(platform, 'GET', `${root}/events?fields=studentId,kind`, { token: caller.token }),
    );
    expect(unnamed.answer.body.data.map(Object.keys)).toEqual([
      ['id', 'kind', 'studentId'],
      ['id', 'kind', 'studentId'],
    ]);
    expect(unnamed.calls).toEqual([]);
    const named = await ownCallsDuring(platform, `${roots.people}/`, () =>
      http(platform, 'GET', `${root}/events?fields=studentName`, { token: caller.token }),
    );
    expect(named.answer.body.data.map((event: { studentName: string | null }) => event.studentName)).toEqual([
      'Ada Lovelace',
      null,
    ]);
    expect(named.calls.length).toBeGreaterThan(0);
    const imported = await http(platform, 'POST', `${root}/source-imports`, {
      token: caller.token,
      body: {
        sourceSystem: 'sis_system',
        adapter: 'sis_attendance_event_v1',
        records: [
          { student_id: 'stu-named', school_id: 'sch', event_date: '2022-02-02', attendance_event_category: 'Present' },
        ],
      },
    });
    const moment = await http(platform, 'GET', imported.body.data[0].href, { token: caller.token });
    expect(moment.body.data.studentName).toBe('Ada Lovelace');
  });
});

describe('an absent or failing people service', () => {
  let hanging: Server;
  beforeAll(async () => {
    hanging = createServer((request) => {
      // never answers: the client's timeout must cut it
      request.on('close', () => undefined);
    });
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    hanging?.closeAllConnections();
    await new Promise((resolve) => hanging?.close(resolve));
  });

  it.each([
    ['nothing listening', () => 'http://127.0.0.1:9/people'],
    ['a service that never answers', () => `http://127.0.0.1:${(hanging.address() as AddressInfo).port}/people`],
  ])('means no name, never a failed read (%s)', async (_label, peopleUrl) => {
    const broken = await startTestPlatform({ config: { peopleUrl: peopleUrl(), serviceCallTimeoutMs: 300 } });
    try {
      const caller = await producer(broken);
      await post(broken, caller, [viewed(caller.sourceId)]);
      const list = await http(broken, 'GET', `${root}/events`, { token: caller.token });
      expect(list.status).toBe(200);
      expect(list.body.data[0].studentName).toBeNull();
    } finally {
      await broken.close();
    }
  });
});
