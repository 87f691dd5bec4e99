import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  curriculumV1,
  eligibleVersion,
  graphql,
  http,
  newTenant,
  sameTenant,
  startTestPlatform,
  tenantRoot,
  type Caller,
  type TestPlatform,
} from '../kit.ts';
import { ingestComponentId } from '../../subgraphs/curriculum/ingest/ingest.service.ts';
import { createKc, expectProblem } from './helpers.ts';

/** Vendor course ingest (rule 14) through the real content service in the same process. */

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform();
});
afterAll(async () => {
  await platform?.close();
});

const ingestUrl = `${curriculumV1}/ingest/vendor-course-refs`;
type Pin = { contentId: string; versionId: string; contentKind: string };

/** A published item whose version nobody has trusted yet: not release eligible until a QC decision. */
async function untrustedVersion(caller: Caller): Promise<Pin> {
  const root = tenantRoot(caller.tenantId);
  const item = await http(platform, 'POST', `${root}/items`, {
    token: caller.token,
    headers: { 'idempotency-key': randomUUID() },
    body: { content_kind: 'article', title: 'Awaiting QC', status: 'published' },
  });
  const version = await http(platform, 'POST', `${root}/items/${item.body.content_id}/versions`, {
    token: caller.token,
    body: { student_view: { blocks: [{ type: 'text', text: 'Body', order: 0 }] } },
  });
  return { contentId: item.body.content_id, versionId: version.body.version_id, contentKind: 'article' };
}

async function trust(caller: Caller, pin: Pin): Promise<void> {
  const reviewer = await sameTenant(platform, caller);
  const qc = await http(
    platform,
    'POST',
    `${tenantRoot(caller.tenantId)}/items/${pin.contentId}/versions/${pin.versionId}/qc-decisions`,
    {
      token: reviewer.token,
      body: { trust_status: 'trusted', reason: 'reviewed' },
    },
  );
  expect(qc.status).toBe(201);
}

const resource = (
  sourcedId: string,
  unit: string,
  sortOrder: number,
  pin: Pin,
  extra: Record<string, unknown> = {},
) => ({
  source_table: 'component_resources',
  sourced_id: sourcedId,
  course_component_sourced_id: unit,
  title: `Resource ${sourcedId}`,
  sort_order: sortOrder,
  content_id: pin.contentId,
  content_version_id: pin.versionId,
  content_kind: pin.contentKind,
  ...extra,
});

async function componentsOf(caller: Caller, query = ''): Promise<any[]> {
  const listed = await http(platform, 'GET', `${curriculumV1}/components?limit=200${query}`, { token: caller.token });
  return listed.body.data;
}

describe('POST /ingest/vendor-course-refs', () => {
  it('leaves nothing behind when a resource is ineligible, and its retry creates the same identities once', async () => {
    const caller = await newTenant(platform);
    const kc = (await createKc(platform, caller)).kc_id;
    const pins = [
      await eligibleVersion(platform, caller),
      await eligibleVersion(platform, caller),
      await untrustedVersion(caller),
    ];
    const body = {
      source_system: 'vendor-x',
      producer_batch_id: 'run-1',
      records: [
        resource('r-3', 'u-2', 0, pins[2], { scope_kc_refs: [kc] }),
        {
          source_table: 'course_components',
          sourced_id: 'u-2',
          course_sourced_id: 'c-1',
          title: 'Unit 2',
          sort_order: 1,
        },
        {
          source_table: 'courses',
          sourced_id: 'c-1',
          title: 'Fractions',
          subject: 'math',
          grades: ['03', '04'],
          total_xp: 300,
        },
        resource('r-2', 'u-1', 1, pins[1], { scope_kc_refs: [kc], component_kind: 'practice' }),
        {
          source_table: 'course_components',
          sourced_id: 'u-1',
          course_sourced_id: 'c-1',
          title: 'Unit 1',
          sort_order: 0,
        },
        resource('r-1', 'u-1', 0, pins[0], { scope_kc_refs: [kc], expected_xp: 20 }),
      ],
    };
    const refused = await http(platform, 'POST', ingestUrl, { token: caller.token, body });
    expectProblem(refused, 409, 'curriculum:target_not_serveable');
    expect(refused.body.fieldErrors[0].field).toBe('records.0.content_version_id');
    expect(await componentsOf(caller, '&includeRetired=true')).toEqual([]);

    await trust(caller, pins[2]);
    const created = await http(platform, 'POST', ingestUrl, { token: caller.token, body });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = (table: 'courses' | 'course_components' | 'component_resources', sourcedId: string) =>
      ingestComponentId('vendor-x', table, sourcedId);
    expect(created.body.rows.map((row: any) => [row.sourced_id, row.component_id, row.outcome])).toEqual([
      ['c-1', id('courses', 'c-1'), 'created'],
      ['u-2', id('course_components', 'u-2'), 'created'],
      ['u-1', id('course_components', 'u-1'), 'created'],
      ['r-3', id('component_resources', 'r-3'), 'created'],
      ['r-2', id('component_resources', 'r-2'), 'created'],
      ['r-1', id('component_resources', 'r-1'), 'created'],
    ]);
    expect(created.body.courses).toEqual([
      { sourced_id: 'c-1', component_id: id('courses', 'c-1'), routable: true, anchor_reason: null },
    ]);

    const tree = await http(platform, 'GET', `${curriculumV1}/components/${id('courses', 'c-1')}/tree`, {
      token: caller.token,
    });
    const shape = (node: any): unknown => [
      node.kind,
      node.name,
      node.alpha.publication_status,
      node.children.map(shape),
    ];
    expect(shape(tree.body)).toEqual([
      'course',
      'Fractions',
      'published',
      [
        [
          'unit',
          'Unit 1',
          'published',
          [
            ['lesson', 'Resource r-1', 'published', []],
            ['practice', 'Resource r-2', 'published', []],
          ],
        ],
        ['unit', 'Unit 2', 'published', [['lesson', 'Resource r-3', 'published', []]]],
      ],
    ]);
    expect(tree.body.alpha).toMatchObject({
      source_course_ref: 'c-1',
      subject_id: 'math',
      course_grade_mode: 'multi_grade',
      course_grade_levels: [3, 4],
      expected_xp: 300,
    });
    const lesson = tree.body.children[0].children[0];
    expect(lesson.alpha).toMatchObject({
      scope_kc_refs: [kc],
      expected_xp: 20,
      renderer_ref: 'renderer:interactive-lesson',
      target_ref: {
        module: 'content',
        content_kind: 'article',
        content_id: pins[0].contentId,
        content_version_id: pins[0].versionId,
      },
    });
    expect((await componentsOf(caller, '&sourceCourseRef=c-1')).map((row) => row.component_id).sort()).toEqual(
      created.body.rows.map((row: any) => row.component_id).sort(),
    );

    const retried = await http(platform, 'POST', ingestUrl, { token: caller.token, body });
    expect(retried.status).toBe(200);
    expect(retried.body.job_id).toBe(created.body.job_id);
    expect(await componentsOf(caller, '&includeRetired=true')).toHaveLength(6);
    const read = await http(platform, 'GET', `${ingestUrl}/${created.body.job_id}`, { token: caller.token });
    expect([read.status, read.body]).toEqual([200, created.body]);

    // A new run of the same rows reuses every identity and changes nothing.
    const rerun = await http(platform, 'POST', ingestUrl, {
      token: caller.token,
      body: { ...body, producer_batch_id: 'run-2' },
    });
    expect(rerun.status).toBe(201);
    expect(rerun.body.rows.map((row: any) => row.outcome)).toEqual(Array(6).fill('unchanged'));
    expect(await componentsOf(caller, '&includeRetired=true')).toHaveLength(6);
    const changed = await http(platform, 'POST', ingestUrl, {
      token: caller.token,
      body: { ...body, records: body.records.slice(1) },
    });
    expectProblem(changed, 409, 'curriculum:ingest_batch_conflict');
  });

  it('refuses a parent replacement or a second parent and writes nothing', async () => {
    const caller = await newTenant(platform);
    const pin = await eligibleVersion(platform, caller);
    const course = { source_table: 'courses', sourced_id: 'c-1', title: 'Course' };
    const units = [0, 1].map((index) => ({
      source_table: 'course_components',
      sourced_id: `u-${index}`,
      course_sourced_id: 'c-1',
      title: `Unit ${index}`,
      sort_order: index,
    }));
    const first = await http(platform, 'POST', ingestUrl, {
      token: caller.token,
      body: {
        source_system: 'v',
        producer_batch_id: 'b-1',
        records: [course, ...units, resource('r-1', 'u-0', 0, pin)],
      },
    });
    expect(first.status).toBe(201);
    const before = await componentsOf(caller, '&includeRetired=true');
    const moved = await http(platform, 'POST', ingestUrl, {
      token: caller.token,
      body: {
        source_system: 'v',
        producer_batch_id: 'b-2',
        records: [course, ...units, resource('r-1', 'u-1', 0, pin), resource('r-9', 'u-1', 1, pin)],
      },
    });
    expectProblem(moved, 409, 'curriculum:ingest_parent_conflict');
    const twice = await http(platform, 'POST', ingestUrl, {
      token: caller.token,
      body: {
        source_system: 'v',
        producer_batch_id: 'b-3',
        records: [course, ...units, resource('r-7', 'u-0', 0, pin), resource('r-7', 'u-1', 0, pin)],
      },
    });
    expectProblem(twice, 409, 'curriculum:second_parent');
    expect(await componentsOf(caller, '&includeRetired=true')).toEqual(before);
  });

  it('a later run puts back under its parent a component that retiring the parent left as a root', async () => {
    const caller = await newTenant(platform);
    const pin = await eligibleVersion(platform, caller);
    const records = [
      { source_table: 'courses', sourced_id: 'c-1', title: 'Course' },
      { source_table: 'course_components', sourced_id: 'u-0', course_sourced_id: 'c-1', title: 'Unit', sort_order: 0 },
      resource('r-1', 'u-0', 0, pin),
    ];
    const ingest = (batch: string) =>
      http(platform, 'POST', ingestUrl, {
        token: caller.token,
        body: { source_system: 'v', producer_batch_id: batch, records },
      });
    expect((await ingest('b-1')).status).toBe(201);
    const [unitId, resourceId] = [
      ingestComponentId('v', 'course_components', 'u-0'),
      ingestComponentId('v', 'component_resources', 'r-1'),
    ];
    const unit = await http(platform, 'GET', `${curriculumV1}/components/${unitId}`, { token: caller.token });
    const retired = await http(platform, 'DELETE', `${curriculumV1}/components/${unitId}`, {
      token: caller.token,
      headers: { 'idempotency-key': randomUUID(), 'x-curriculum-if-match': unit.headers.get('etag') as string },
    });
    expect(retired.status).toBe(200);
    const again = await ingest('b-2');
    expect(again.status, JSON.stringify(again.body)).toBe(201);
    expect(again.body.rows.map((row: any) => [row.sourced_id, row.outcome])).toEqual([
      ['c-1', 'unchanged'],
      ['u-0', 'reactivated'],
      ['r-1', 'updated'],
    ]);
    const placed = await http(platform, 'GET', `${curriculumV1}/components/${resourceId}`, { token: caller.token });
    expect([placed.body.parent_component_id, placed.body.alpha.publication_status]).toEqual([unitId, 'published']);
    const edges = await http(
      platform,
      'GET',
      `${curriculumV1}/associations?associationType=isChildOf&originId=${resourceId}`,
      { token: caller.token },
    );
    expect(edges.body.data.map((edge: any) => edge.destinationId)).toEqual([unitId]);
  });

  it('takes a OneRoster subjects list of one subject, and refuses one of several rather than keep only the first', async () => {
    const caller = await newTenant(platform);
    const ingest = (batch: string, subjects: string[]) =>
      http(platform, 'POST', ingestUrl, {
        token: caller.token,
        body: { source_system: 'v', producer_batch_id: batch, courses: [{ sourcedId: batch, title: 'C', subjects }] },
      });
    const one = await ingest('one', ['Math']);
    expect(one.status, JSON.stringify(one.body)).toBe(201);
    const course = await http(platform, 'GET', `${curriculumV1}/components/${one.body.courses[0].component_id}`, {
      token: caller.token,
    });
    expect(course.body.alpha.subject_id).toBe('Math');
    const several = await ingest('several', ['Math', 'Science']);
    expectProblem(several, 400, 'curriculum:validation_failed');
    expect(several.body.fieldErrors.map((error: any) => error.field)).toEqual(['courses.0.subject']);
    expect((await componentsOf(caller)).map((component) => component.component_id)).toEqual([
      one.body.courses[0].component_id,
    ]);
  });

  it('takes OneRoster course rows with every column of the layout, and refuses a row marked for deletion', async () => {
    const caller = await newTenant(platform);
    const ingest = (batch: string, courses: unknown[]) =>
      http(platform, 'POST', ingestUrl, {
        token: caller.token,
        body: { source_system: 'roster', producer_batch_id: batch, courses },
      });
    // As a courses.csv reads: every column present, an empty cell where the producer has no value.
    const rows = Array.from({ length: 12 }, (_, index) => ({
      sourcedId: `course-${index}`,
      status: index % 3 === 0 ? '' : 'active',
      dateLastModified: index % 2 === 0 ? '' : `2026-0${1 + (index % 9)}-15T12:00:00.000Z`,
      schoolYearSourcedId: index % 4 === 0 ? '' : 'sy-2026',
      title: `Course ${index} é`,
      courseCode: index % 5 === 0 ? '' : `MATH-${index}`,
      grades: index % 2 === 0 ? '09,10' : '',
      orgSourcedId: 'org-1',
      subjects: index % 3 === 1 ? '' : 'Math',
      subjectCodes: index % 3 === 1 ? '' : ['27.01'],
    }));
    const taken = await ingest('roster', rows);
    expect(taken.status, JSON.stringify(taken.body)).toBe(201);
    expect(taken.body.courses).toHaveLength(rows.length);
    const course = await http(platform, 'GET', `${curriculumV1}/components/${taken.body.courses[0].component_id}`, {
      token: caller.token,
    });
    expect([course.body.name, course.body.alpha.subject_id, course.body.alpha.course_grade_levels]).toEqual([
      'Course 0 é',
      'Math',
      [9, 10],
    ]);

    const deleted = await ingest('deleted', [{ ...rows[1], sourcedId: 'gone', status: 'tobedeleted' }]);
    expectProblem(deleted, 400, 'curriculum:validation_failed');
    expect(deleted.body.fieldErrors).toEqual([
      { field: 'courses.0.status', message: expect.stringMatching(/retire the component/) },
    ]);
    const undated = await ingest('undated', [{ ...rows[1], sourcedId: 'undated', dateLastModified: '15/01/2026' }]);
    expectProblem(undated, 400, 'curriculum:validation_failed');
    expect(undated.body.fieldErrors.map((error: any) => error.field)).toEqual(['courses.0.date_last_modified']);
    expect(await componentsOf(caller)).toHaveLength(rows.length);
  });

  it('keeps reference-only, source-empty and KC-unscoped imports as anchors that are not routable', async () => {
    const caller = await newTenant(platform);
    const pin = await eligibleVersion(platform, caller);
    const answer = await http(platform, 'POST', ingestUrl, {
      token: caller.token,
      body: {
        source_system: 'v',
        producer_batch_id: 'anchors',
        courses: [
          { sourcedId: 'ref-only', title: 'Reference' },
          { sourcedId: 'empty', title: 'Empty' },
          { sourcedId: 'unscoped', title: 'Unscoped' },
        ],
        course_components: [
          { sourcedId: 'e-u', courseSourcedId: 'empty', title: 'Unit', sortOrder: 0 },
          { sourcedId: 'n-u', courseSourcedId: 'unscoped', title: 'Unit', sortOrder: 0 },
        ],
        component_resources: [
          {
            sourcedId: 'n-r',
            courseComponentSourcedId: 'n-u',
            title: 'R',
            sortOrder: 0,
            contentId: pin.contentId,
            contentVersionId: pin.versionId,
            contentKind: 'article',
          },
        ],
      },
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    expect(
      answer.body.courses.map((course: any) => [course.sourced_id, course.routable, course.anchor_reason]),
    ).toEqual([
      ['ref-only', false, 'reference_only'],
      ['empty', false, 'source_empty'],
      ['unscoped', false, 'kc_unscoped'],
    ]);
    const scopes = (await componentsOf(caller, '&sourceCourseRef=unscoped')).map((row) => row.alpha.scope_kc_refs);
    expect(scopes).toEqual([undefined, undefined, undefined]);
  });

  it('refuses malformed rows, unknown KCs and callers without curriculum:import, before writing', async () => {
    const caller = await newTenant(platform);
    const pin = await eligibleVersion(platform, caller);
    const post = (body: unknown, token = caller.token) => http(platform, 'POST', ingestUrl, { token, body });
    const course = { source_table: 'courses', sourced_id: 'c-1', title: 'Course' };
    const unit = {
      source_table: 'course_components',
      sourced_id: 'u-1',
      course_sourced_id: 'c-1',
      title: 'Unit',
      sort_order: 0,
    };
    const orphan = await post({ source_system: 'v', producer_batch_id: 'b', records: [unit] });
    expectProblem(orphan, 400, 'curriculum:validation_failed');
    expect(orphan.body.fieldErrors[0].field).toBe('records.0.course_sourced_id');
    expectProblem(
      await post({ source_system: 'v', producer_batch_id: 'b', records: [{ ...course, source_table: 'students' }] }),
      400,
      'curriculum:validation_failed',
    );
    expectProblem(
      await post({ source_system: 'v', producer_batch_id: 'b', records: [{ ...course, grades: ['grade_3'] }] }),
      400,
      'curriculum:validation_failed',
    );
    expectProblem(
      await post({
        source_system: 'v',
        producer_batch_id: 'b',
        records: [course, unit, resource('r', 'u-1', 0, pin, { scope_kc_refs: [] })],
      }),
      400,
      'curriculum:validation_failed',
    );
    expectProblem(await post({ source_system: 'v', producer_batch_id: 'b' }), 400, 'curriculum:validation_failed');
    const loop = [
      course,
      { ...unit, sourced_id: 'a', parent_sourced_id: 'b' },
      { ...unit, sourced_id: 'b', parent_sourced_id: 'a' },
    ];
    expectProblem(
      await post({ source_system: 'v', producer_batch_id: 'b', records: loop }),
      400,
      'curriculum:validation_failed',
    );
    const unknownKc = await post({
      source_system: 'v',
      producer_batch_id: 'b',
      records: [course, unit, resource('r', 'u-1', 0, pin, { scope_kc_refs: [randomUUID()] })],
    });
    expectProblem(unknownKc, 422, 'curriculum:kc_not_active');
    const reader = await sameTenant(platform, caller, { scopes: ['curriculum:read', 'curriculum:write'] });
    expect((await post({ source_system: 'v', producer_batch_id: 'b', records: [course] }, reader.token)).status).toBe(
      403,
    );
    expect(await componentsOf(caller, '&includeRetired=true')).toEqual([]);
    expectProblem(
      await http(platform, 'GET', `${ingestUrl}/${randomUUID()}`, { token: caller.token }),
      404,
      'curriculum:not_found',
    );
    expectProblem(
      await http(platform, 'GET', `${ingestUrl}/not-a-job`, { token: caller.token }),
      404,
      'curriculum:not_found',
    );
  });

  it('reads a count or an order cell as decimal digits only, and takes a CSV cell of digits as its number', async () => {
    const caller = await newTenant(platform);
    const post = (records: unknown[]) =>
      http(platform, 'POST', ingestUrl, {
        token: caller.token,
        body: { source_system: 'v', producer_batch_id: randomUUID(), records },
      });
    const course = { source_table: 'courses', sourced_id: 'c-1', title: 'Course' };
    const unit = { source_table: 'course_components', sourced_id: 'u-1', course_sourced_id: 'c-1', title: 'Unit' };
    for (const [row, field] of [
      [{ ...course, total_xp: '0x10' }, 'records.0.total_xp'],
      [{ ...course, total_xp: '1e2' }, 'records.0.total_xp'],
      [{ ...course, total_xp: true }, 'records.0.total_xp'],
      [{ ...unit, sort_order: ' ' }, 'records.1.sort_order'],
      [{ ...unit, sort_order: true }, 'records.1.sort_order'],
    ] as const) {
      const records = row.source_table === 'courses' ? [row] : [course, row];
      const refused = await post(records);
      expectProblem(refused, 400, 'curriculum:validation_failed');
      expect(refused.body.fieldErrors.map((error: any) => error.field)).toEqual([field]);
    }
    expect(await componentsOf(caller, '&includeRetired=true')).toEqual([]);
    const imported = await post([
      { ...course, total_xp: '120' },
      { ...unit, sort_order: '7' },
    ]);
    expect(imported.status, JSON.stringify(imported.body)).toBe(201);
    const [courseRow, unitRow] = imported.body.rows;
    const read = async (row: any) =>
      (await http(platform, 'GET', `${curriculumV1}/components/${row.component_id}`, { token: caller.token })).body;
    expect((await read(courseRow)).alpha.expected_xp).toBe(120);
    expect((await read(unitRow)).position).toBe(7);
  });

  it('builds any generated course in source order whatever the row order, preserving each KC cluster', async () => {
    const caller = await newTenant(platform);
    const pin = await eligibleVersion(platform, caller);
    const kcs = [(await createKc(platform, caller)).kc_id, (await createKc(platform, caller)).kc_id];
    const course = fc.record({
      units: fc.array(
        fc.record({ resources: fc.integer({ min: 0, max: 3 }), kcs: fc.subarray(kcs, { minLength: 1 }) }),
        { minLength: 1, maxLength: 4 },
      ),
      seed: fc.integer(),
    });
    let run = 0;
    await fc.assert(
      fc.asyncProperty(course, async ({ units, seed }) => {
        run += 1;
        const courseId = `c-${run}`;
        const records: Array<Record<string, unknown>> = [
          { source_table: 'courses', sourced_id: courseId, title: `Course ${run}` },
        ];
        units.forEach((unit, u) => {
          records.push({
            source_table: 'course_components',
            sourced_id: `${courseId}-u${u}`,
            course_sourced_id: courseId,
            title: `U${u}`,
            sort_order: u * 10,
          });
          for (let r = 0; r < unit.resources; r += 1) {
            records.push(
              resource(`${courseId}-u${u}-r${r}`, `${courseId}-u${u}`, r, pin, {
                title: `R${u}.${r}`,
                scope_kc_refs: unit.kcs,
              }),
            );
          }
        });
        const shuffled = [...records].sort((a, b) => hash(`${seed}${a.sourced_id}`) - hash(`${seed}${b.sourced_id}`));
        const answer = await http(platform, 'POST', ingestUrl, {
          token: caller.token,
          body: { source_system: 'gen', producer_batch_id: courseId, records: shuffled },
        });
        expect(answer.status, JSON.stringify(answer.body)).toBe(201);
        const tree = await http(
          platform,
          'GET',
          `${curriculumV1}/components/${ingestComponentId('gen', 'courses', courseId)}/tree`,
          { token: caller.token },
        );
        expect(
          tree.body.children.map((unit: any) => [
            unit.name,
            unit.children.map((leaf: any) => [leaf.name, leaf.alpha.scope_kc_refs]),
          ]),
        ).toEqual(
          units.map((unit, u) => [`U${u}`, Array.from({ length: unit.resources }, (_, r) => [`R${u}.${r}`, unit.kcs])]),
        );
        expect(answer.body.courses[0].routable).toBe(units.some((unit) => unit.resources > 0));
      }),
      { numRuns: 6 },
    );
  });
});

function hash(text: string): number {
  let value = 0;
  for (const char of text) value = (value * 31 + char.charCodeAt(0)) | 0;
  return value;
}

describe('ingestVendorCourse', () => {
  const INGEST = `mutation($input: VendorCourseIngestInput!) { ingestVendorCourse(input: $input) {
    jobId courses { sourcedId routable anchorReason } rows { sourceTable sourcedId componentId outcome } } }`;
  const codeOf = (reply: { body: { errors?: Array<{ extensions?: Record<string, unknown> }> } }) =>
    reply.body.errors?.[0]?.extensions?.code;

  it('runs the same ingest as REST, answers the job back by id, and refuses with the same codes', async () => {
    const caller = await newTenant(platform);
    const kc = (await createKc(platform, caller)).kc_id;
    const pin = await eligibleVersion(platform, caller);
    const input = {
      sourceSystem: 'gql',
      producerBatchId: 'b-1',
      courses: [{ sourcedId: 'c-1', title: 'Course' }],
      courseComponents: [{ sourcedId: 'u-1', courseSourcedId: 'c-1', title: 'Unit', sortOrder: 0 }],
      componentResources: [
        {
          sourcedId: 'r-1',
          courseComponentSourcedId: 'u-1',
          title: 'Lesson',
          sortOrder: 0,
          scopeKcRefs: [kc],
          contentId: pin.contentId,
          contentVersionId: pin.versionId,
          contentKind: 'article',
        },
      ],
    };
    const created = await graphql(platform, INGEST, { input }, caller.token);
    expect(created.body.errors).toBeUndefined();
    const job = created.body.data.ingestVendorCourse;
    expect(job.courses).toEqual([{ sourcedId: 'c-1', routable: true, anchorReason: null }]);
    expect(job.rows.map((row: any) => [row.sourceTable, row.componentId, row.outcome])).toEqual([
      ['courses', ingestComponentId('gql', 'courses', 'c-1'), 'created'],
      ['course_components', ingestComponentId('gql', 'course_components', 'u-1'), 'created'],
      ['component_resources', ingestComponentId('gql', 'component_resources', 'r-1'), 'created'],
    ]);
    const replay = await graphql(platform, INGEST, { input }, caller.token);
    expect(replay.body.data.ingestVendorCourse.jobId).toBe(job.jobId);
    const read = await graphql(
      platform,
      `
        query ($id: ID!) {
          sourceIngestJob(jobId: $id) {
            jobId
            status
            rows {
              outcome
            }
          }
        }
      `,
      { id: job.jobId },
      caller.token,
    );
    expect(read.body.data.sourceIngestJob).toEqual({
      jobId: job.jobId,
      status: 'completed',
      rows: [{ outcome: 'created' }, { outcome: 'created' }, { outcome: 'created' }],
    });
    expect(
      codeOf(
        await graphql(
          platform,
          INGEST,
          { input: { ...input, courses: [{ sourcedId: 'c-1', title: 'Renamed' }] } },
          caller.token,
        ),
      ),
    ).toBe('curriculum:ingest_batch_conflict');
    const broken = {
      ...input,
      producerBatchId: 'b-2',
      componentResources: [{ ...input.componentResources[0], contentVersionId: randomUUID() }],
    };
    expect(codeOf(await graphql(platform, INGEST, { input: broken }, caller.token))).toBe(
      'curriculum:target_not_serveable',
    );
  });
});
