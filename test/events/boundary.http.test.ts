import { describe, expect } from 'vitest';
import { graphql, http, newTenant, type Caller, type Reply } from '../kit.ts';
import { filePlatform, platformTest } from '../platform-test.ts';
import { attendanceRow, disciplineRow, post, producer, root, vendorRow, viewed } from './helpers.ts';

const it = platformTest();

const SCOPES = ['events:read', 'events:write'];

/** A tenant-scoped producer with events for two students, two orgs and two content items. */
async function seeded() {
  const owner = await producer(filePlatform());
  const created = await post(filePlatform(), owner, [
    viewed(owner.sourceId, { studentId: 'in', orgId: 'school-in', contentId: 'c-in' }),
    viewed(owner.sourceId, { studentId: 'out', orgId: 'school-out', contentId: 'c-out' }),
  ]);
  const [inside, outside] = created.body.data.map((event: { id: string }) => event.id);
  const bounded = (boundary: Record<string, string[]>): Promise<Caller> =>
    newTenant(filePlatform(), { tenantId: owner.tenantId, scopes: SCOPES, boundary });
  return { owner, inside, outside, bounded };
}

function expectRejected(reply: { status: number; body: any }, field: string, claim: string) {
  expect([reply.status, reply.body.code]).toEqual([403, 'events:boundary_rejected']);
  expect(reply.body.fieldErrors).toEqual([{ field, message: `outside the token's ${claim} boundary` }]);
}

describe('boundary-scoped tokens', () => {
  it('narrows lists to the studentIds boundary and rejects reads and writes outside it', async ({ platform }) => {
    const { owner, inside, outside, bounded } = await seeded();
    const caller = await bounded({ studentIds: ['in'] });
    const list = await http(platform, 'GET', `${root}/events`, { token: caller.token });
    expect(list.body.data.map((event: { id: string }) => event.id)).toEqual([inside]);
    expect((await http(platform, 'GET', `${root}/events/${inside}`, { token: caller.token })).status).toBe(200);
    expectRejected(
      await http(platform, 'GET', `${root}/events/${outside}`, { token: caller.token }),
      'studentId',
      'studentIds',
    );
    expectRejected(
      await http(platform, 'GET', `${root}/events?studentId=out`, { token: caller.token }),
      'studentId',
      'studentIds',
    );
    expect((await post(platform, caller, [viewed(owner.sourceId, { studentId: 'in' })])).status).toBe(202);
    expectRejected(
      await post(platform, caller, [viewed(owner.sourceId, { studentId: 'out' })]),
      'events.0.studentId',
      'studentIds',
    );
  });

  it('enforces orgIds and schoolIds on the event org and contentIds on the content', async ({ platform }) => {
    const { owner, inside, bounded } = await seeded();
    for (const claim of ['orgIds', 'schoolIds']) {
      const caller = await bounded({ [claim]: ['school-in'] });
      const list = await http(platform, 'GET', `${root}/events`, { token: caller.token });
      expect(list.body.data.map((event: { id: string }) => event.id)).toEqual([inside]);
      expectRejected(
        await http(platform, 'GET', `${root}/events?orgId=school-out`, { token: caller.token }),
        'orgId',
        'orgIds/schoolIds',
      );
      expectRejected(
        await post(platform, caller, [viewed(owner.sourceId, { orgId: 'school-out' })]),
        'events.0.orgId',
        'orgIds/schoolIds',
      );
      expectRejected(await post(platform, caller, [viewed(owner.sourceId)]), 'events.0.orgId', 'orgIds/schoolIds');
    }
    const content = await bounded({ contentIds: ['c-in'] });
    expect(
      (await http(platform, 'GET', `${root}/events`, { token: content.token })).body.data.map(
        (event: { id: string }) => event.id,
      ),
    ).toEqual([inside]);
    expectRejected(
      await post(platform, content, [viewed(owner.sourceId, { contentId: 'c-out' })]),
      'events.0.contentId',
      'contentIds',
    );
    expectRejected(
      await http(platform, 'GET', `${root}/events?contentId=c-out`, { token: content.token }),
      'contentId',
      'contentIds',
    );
  });

  it('enforces the boundary on source imports and on attendance and discipline views', async ({ platform }) => {
    const { bounded } = await seeded();
    const caller = await bounded({ studentIds: ['s-1'], schoolIds: ['school-1'] });
    const owner = await newTenant(platform, { tenantId: caller.tenantId, scopes: SCOPES });
    const row = (student: string, school: string) => ({
      student_id: student,
      school_id: school,
      event_date: '2022-01-10',
      attendance_event_category: 'Tardy',
    });
    const importBody = (records: unknown[]) => ({
      sourceSystem: 'sis_system',
      adapter: 'sis_attendance_event_v1',
      records,
    });
    const rejected = await http(platform, 'POST', `${root}/source-imports`, {
      token: caller.token,
      body: importBody([row('s-1', 'school-1'), row('s-2', 'school-1')]),
    });
    expectRejected(rejected, 'records.1.student_id', 'studentIds');
    const outsideSchool = await http(platform, 'POST', `${root}/source-imports`, {
      token: caller.token,
      body: importBody([row('s-1', 'school-2')]),
    });
    expectRejected(outsideSchool, 'records.0.school_id', 'orgIds/schoolIds');
    const own = await http(platform, 'POST', `${root}/source-imports`, {
      token: caller.token,
      body: importBody([row('s-1', 'school-1')]),
    });
    expect(own.status).toBe(200);
    const other = await http(platform, 'POST', `${root}/source-imports`, {
      token: owner.token,
      body: importBody([row('s-2', 'school-2')]),
    });
    expect(other.status).toBe(200);
    const list = await http(platform, 'GET', `${root}/attendance-events`, { token: caller.token });
    expect(list.body.data.map((moment: { studentId: string }) => moment.studentId)).toEqual(['s-1']);
    expectRejected(
      await http(platform, 'GET', `${root}/attendance-events?schoolId=school-2`, { token: caller.token }),
      'schoolId',
      'orgIds/schoolIds',
    );
    expectRejected(
      await http(platform, 'GET', other.body.data[0].href, { token: caller.token }),
      'studentId',
      'studentIds',
    );
    expect((await http(platform, 'GET', `${root}/attendance-events`, { token: owner.token })).body.data).toHaveLength(
      2,
    );
    const discipline = await http(platform, 'GET', `${root}/discipline-events?studentId=s-9`, { token: caller.token });
    expectRejected(discipline, 'studentId', 'studentIds');
  });

  it('refuses a token whose boundary claim is malformed with 401', async ({ platform }) => {
    const { owner } = await seeded();
    const { SignJWT } = await import('jose');
    const keyring = platform.runtime.keyring;
    const token = await new SignJWT({ tenant_id: owner.tenantId, scope: 'events:read', studentIds: 'in' })
      .setProtectedHeader({ alg: 'ES256', kid: keyring.kid })
      .setIssuer('urn:adaptive-learning:platform')
      .setSubject('u')
      .setExpirationTime('1h')
      .sign(keyring.privateKey);
    expect((await http(platform, 'GET', `${root}/events`, { token })).status).toBe(401);
  });
});

/** A token's claim, the values it allows, and which kinds of row it can be checked on. */
const CLAIMS = [
  { claim: 'studentIds', name: 'studentIds', values: ['in'], moments: true, vendorRows: true },
  { claim: 'orgIds', name: 'orgIds/schoolIds', values: ['school-in'], moments: true, vendorRows: false },
  { claim: 'schoolIds', name: 'orgIds/schoolIds', values: ['school-in'], moments: true, vendorRows: false },
  { claim: 'contentIds', name: 'contentIds', values: ['c-in'], moments: false, vendorRows: false },
] as const;

function expectUncheckable(reply: Reply, claim: string) {
  expect([reply.status, reply.body.code]).toEqual([403, 'events:boundary_rejected']);
  expect(reply.body.fieldErrors.map((error: { field: string }) => error.field)).toEqual([claim]);
}

function expectGraphRejected(reply: Reply) {
  expect(reply.body.errors?.map((error: { extensions: { code: string } }) => error.extensions.code)).toEqual([
    'events:boundary_rejected',
  ]);
}

const momentImport = (adapter: string, records: unknown[]) => ({ sourceSystem: 'sis_system', adapter, records });
const MOMENTS = [
  { path: 'attendance-events', adapter: 'sis_attendance_event_v1', row: attendanceRow, field: 'attendanceEvent' },
  { path: 'discipline-events', adapter: 'sis_discipline_event_v1', row: disciplineRow, field: 'disciplineEvent' },
] as const;

describe('every boundary claim on every path', () => {
  for (const { claim, name, values, moments, vendorRows } of CLAIMS) {
    it(`${claim}: moments, imports, activity sources and GraphQL root fields`, async ({ platform }) => {
      const { owner, bounded } = await seeded();
      const caller = await newTenant(platform, {
        tenantId: owner.tenantId,
        scopes: [...SCOPES, 'events:sources:write'],
        boundary: { [claim]: [...values] },
      });
      const eventsOnly = await bounded({ [claim]: [...values] });
      const graphEvents = await graphql(
        platform,
        '{ events { data { studentId orgId contentId } } }',
        {},
        eventsOnly.token,
      );
      expect(graphEvents.body.data.events.data).toEqual([{ studentId: 'in', orgId: 'school-in', contentId: 'c-in' }]);
      const inRow = { student_id: 'in', school_id: 'school-in' };
      const outRow = { student_id: 'out', school_id: 'school-out' };
      for (const moment of MOMENTS) {
        const seededRows = await http(platform, 'POST', `${root}/source-imports`, {
          token: owner.token,
          body: momentImport(moment.adapter, [moment.row(inRow), moment.row(outRow)]),
        });
        expect(seededRows.status).toBe(200);
        const [inId, outId] = seededRows.body.data.map((row: { id: string }) => row.id);
        const list = await http(platform, 'GET', `${root}/${moment.path}`, { token: caller.token });
        const one = await http(platform, 'GET', `${root}/${moment.path}/${inId}`, { token: caller.token });
        const other = await http(platform, 'GET', `${root}/${moment.path}/${outId}`, { token: caller.token });
        const graphList = await graphql(platform, `{ ${moment.field}s { data { id } } }`, {}, caller.token);
        const graphOne = await graphql(platform, `{ ${moment.field}(id: "${inId}") { id } }`, {}, caller.token);
        // Written last, so the reads above see only the seeded rows.
        const imported = await http(platform, 'POST', `${root}/source-imports`, {
          token: caller.token,
          body: momentImport(moment.adapter, [moment.row(inRow)]),
        });
        if (moments) {
          expect(list.body.data.map((row: { id: string }) => row.id)).toEqual([inId]);
          expect(one.status).toBe(200);
          expect([other.status, other.body.code]).toEqual([403, 'events:boundary_rejected']);
          expect(imported.status).toBe(200);
          expect(graphList.body.data[`${moment.field}s`].data).toEqual([{ id: inId }]);
          expect(graphOne.body.data[moment.field]).toEqual({ id: inId });
        } else {
          for (const reply of [list, one, other, imported]) expectUncheckable(reply, name);
          expectGraphRejected(graphList);
          expectGraphRejected(graphOne);
        }
      }
      const vendor = await http(platform, 'POST', `${root}/source-imports`, {
        token: caller.token,
        body: {
          sourceSystem: 'vendor_production',
          adapter: 'vendor_learning_event_v1',
          records: [vendorRow(0, { user_id: 'in', activity_id: 'c-in' })],
        },
      });
      if (vendorRows) expect(vendor.status).toBe(200);
      else if (claim !== 'contentIds') expectUncheckable(vendor, name);
      else expect(vendor.status).toBe(200);
      const sourcePaths = [
        ['GET', `${root}/activity-sources`],
        ['GET', `${root}/activity-sources/${owner.sourceId}`],
        ['POST', `${root}/activity-sources`],
      ] as const;
      for (const [method, path] of sourcePaths) {
        const reply = await http(platform, method, path, {
          token: caller.token,
          ...(method === 'POST' ? { body: { sourceIri: 'https://vendor.example/bounded', name: 'Bounded' } } : {}),
        });
        expectUncheckable(reply, name);
      }
      for (const query of [
        '{ activitySources { data { id } } }',
        `{ activitySource(id: "${owner.sourceId}") { id } }`,
        'mutation { registerActivitySource(sourceIri: "https://vendor.example/bounded", name: "Bounded") { id } }',
      ]) {
        expectGraphRejected(await graphql(platform, query, {}, caller.token));
      }
    });
  }
});
