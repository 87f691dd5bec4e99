import { describe, expect } from 'vitest';
import { randomUUID } from 'node:crypto';
import { curriculumV1, http, newTenant, tenantRoot, type Reply } from '../kit.ts';
import { platformTest } from '../platform-test.ts';
import { casePackage, checksumOf, createComponent, createKc, kcBody, key } from '../curriculum/helpers.ts';
import { attendanceRow, post, producer, root as eventsRoot, viewed } from '../events/helpers.ts';
import { createItem, PNG } from '../content/helpers.ts';

const it = platformTest();

describe('an explicit null on a create', () => {
  it('is the optional member left out on every create of the three services; a required one is still refused', async ({
    platform,
  }) => {
    const caller = await newTenant(platform);
    const item = await http(platform, 'POST', `${tenantRoot(caller.tenantId)}/items`, {
      token: caller.token,
      headers: key(),
      body: {
        content_kind: 'article',
        title: 'Item',
        subtype: null,
        dok: null,
        source_record_id: null,
        content_id: null,
      },
    });
    expect([item.status, item.body.subtype, item.body.dok, item.body.source_record_id]).toEqual([
      201,
      null,
      null,
      null,
    ]);
    const untitled = await http(platform, 'POST', `${tenantRoot(caller.tenantId)}/items`, {
      token: caller.token,
      headers: key(),
      body: { content_kind: 'article', title: null },
    });
    expect([untitled.status, untitled.body.fieldErrors?.[0]?.field]).toEqual([400, 'title']);

    const kc = await http(platform, 'POST', `${curriculumV1}/kcs`, {
      token: caller.token,
      body: kcBody({ kc_id: null, source_kc_id: null, publication_status: null, document_id: null }),
    });
    expect([kc.status, kc.body.publication_status]).toEqual([201, 'draft']);
    const course = await http(platform, 'POST', `${curriculumV1}/components`, {
      token: caller.token,
      body: { component_id: 'course', kind: 'course', parent_component_id: null, name: null, alpha: null },
    });
    expect([course.status, course.body.parent_component_id], JSON.stringify(course.body)).toEqual([201, null]);
    const unit = await http(platform, 'POST', `${curriculumV1}/components`, {
      token: caller.token,
      body: { component_id: 'unit', kind: 'unit', position: null, alpha: { subject_id: null, target_ref: null } },
    });
    expect(unit.status, JSON.stringify(unit.body)).toBe(201);
    await createComponent(platform, caller, { component_id: 'unit-2', kind: 'unit' });
    const edge = await http(platform, 'POST', `${curriculumV1}/associations`, {
      token: caller.token,
      headers: key(),
      body: { associationType: 'isChildOf', originId: 'unit-2', destinationId: 'course', sequence_number: null },
    });
    expect(edge.status, JSON.stringify(edge.body)).toBe(201);

    const source = await producer(platform);
    const recorded = await post(platform, source, [
      viewed(source.sourceId, { orgId: null, sourceEventId: null, eventType: null, extensions: null }),
    ]);
    expect([recorded.status, recorded.body.data[0].sourceEventId ?? null]).toEqual([202, null]);
    const unsourced = await post(platform, source, [viewed(source.sourceId, { activitySourceId: null })]);
    expect([unsourced.status, unsourced.body.fieldErrors?.[0]?.field]).toEqual([400, 'events.0.activitySourceId']);
  });

  /** A refusal naming exactly one field, and that field. */
  const refusedOn = (reply: Reply) => [
    reply.status,
    reply.body.fieldErrors?.map((error: { field: string }) => error.field),
  ];

  it("is the optional member left out on content's other creates; a required one is still refused", async ({
    platform,
  }) => {
    const caller = await newTenant(platform);
    const send = (path: string, body: unknown) =>
      http(platform, 'POST', `${tenantRoot(caller.tenantId)}${path}`, { token: caller.token, headers: key(), body });
    const item = await createItem(platform, caller, { content_kind: 'article' });
    const items = `/items/${item.content_id}`;

    const version = await send(`${items}/versions`, {
      student_view: { blocks: [{ type: 'text', text: 'Halves', url: null, alt: null, order: 0 }] },
      canonical_xml: null,
    });
    expect([version.status, version.body.student_view], JSON.stringify(version.body)).toEqual([
      201,
      { blocks: [{ type: 'text', text: 'Halves', order: 0 }] },
    ]);
    expect(refusedOn(await send(`${items}/versions`, { student_view: null, canonical_xml: null }))).toEqual([
      400,
      ['student_view'],
    ]);
    const unordered = { student_view: { blocks: [{ type: 'text', text: 'Halves', order: null }] } };
    expect(refusedOn(await send(`${items}/versions`, unordered))).toEqual([400, ['student_view.blocks.0.order']]);

    const media = { media_kind: 'thumbnail', mime_type: 'image/png', data_base64: PNG.toString('base64') };
    const uploaded = await send(`${items}/media`, { ...media, file_name: null });
    expect([uploaded.status, uploaded.body.file_name], JSON.stringify(uploaded.body)).toEqual([201, null]);
    expect(refusedOn(await send(`${items}/media`, { ...media, data_base64: null }))).toEqual([400, ['data_base64']]);

    const facet = await send('/catalog-facets', {
      facet_key: 'modality',
      value_type: 'text',
      grain: null,
      status: null,
      allowed_values: null,
    });
    expect([facet.status, facet.body.grain, facet.body.status], JSON.stringify(facet.body)).toEqual([
      201,
      'content_item',
      'active',
    ]);
    expect(refusedOn(await send('/catalog-facets', { facet_key: null, value_type: 'text' }))).toEqual([
      400,
      ['facet_key'],
    ]);
    const assigned = await send(`${items}/catalog-facets`, {
      facet_key: 'modality',
      facet_value: 'video',
      provenance: null,
    });
    expect([assigned.status, assigned.body.provenance], JSON.stringify(assigned.body)).toEqual([201, null]);
    expect(refusedOn(await send(`${items}/catalog-facets`, { facet_key: 'modality', facet_value: null }))).toEqual([
      400,
      ['facet_value'],
    ]);

    const link = await createItem(platform, caller, { content_kind: 'external_link' });
    const linkBody = { url: 'https://example.org/a', external_open_policy: 'new_tab' };
    const linked = await send(`/items/${link.content_id}/external-link`, { ...linkBody, provider: null, title: null });
    expect([linked.status, linked.body.provider, linked.body.title], JSON.stringify(linked.body)).toEqual([
      201,
      null,
      null,
    ]);
    expect(refusedOn(await send(`/items/${link.content_id}/external-link`, { ...linkBody, url: null }))).toEqual([
      400,
      ['url'],
    ]);

    // An authorization of versions that do not exist: past validation, the null surface is not what refuses it.
    const selection = {
      bank_content_id: randomUUID(),
      bank_version_id: randomUUID(),
      form_content_id: randomUUID(),
      form_version_id: randomUUID(),
      test_identity_id: 'cohort-1',
    };
    const unknown = await send('/test-serve-authorizations', { ...selection, producer_surface: null });
    expect(unknown.status, JSON.stringify(unknown.body)).toBe(404);
    expect(refusedOn(await send('/test-serve-authorizations', { ...selection, test_identity_id: null }))).toEqual([
      400,
      ['test_identity_id'],
    ]);
  });

  it("is the optional member left out on curriculum's other creates; a required one is still refused", async ({
    platform,
  }) => {
    const caller = await newTenant(platform);
    const send = (path: string, body: unknown) =>
      http(platform, 'POST', `${curriculumV1}${path}`, { token: caller.token, headers: key(), body });
    const kc = await createKc(platform, caller);

    const version = await send(`/kcs/${kc.kc_id}/versions`, { definition: null, alpha: { kc_kind: null } });
    expect([version.status, version.body.definition, version.body.alpha], JSON.stringify(version.body)).toEqual([
      201,
      kc.definition,
      {},
    ]);
    const versionId = version.body.version_id;

    for (const [path, required, body] of [
      ['/kc-review-decisions', 'decision', { decision: 'approved', reason: null }],
      ['/kc-firming-events', 'source', { source: 'first_genuine_response', evidence: null }],
    ] as const) {
      const recorded = await send(path, { kc_version_id: versionId, ...body });
      expect(recorded.status, JSON.stringify(recorded.body)).toBe(201);
      expect(refusedOn(await send(path, { kc_version_id: versionId, [required]: null }))).toEqual([400, [required]]);
    }

    const pkg = casePackage();
    const imported = await send('/standards-frameworks/import', {
      checksum_sha256: checksumOf(pkg),
      package: pkg,
      standard_kc_maps: null,
    });
    expect(imported.status, JSON.stringify(imported.body)).toBe(201);
    expect(refusedOn(await send('/standards-frameworks/import', { checksum_sha256: null, package: pkg }))).toEqual([
      400,
      ['checksum_sha256'],
    ]);

    const ingest = {
      source_system: 'vendor-x',
      producer_batch_id: 'run-1',
      records: [{ source_table: 'courses', sourced_id: 'c-1', title: 'Fractions' }],
      courses: null,
      course_components: null,
      component_resources: null,
    };
    const ingested = await send('/ingest/vendor-course-refs', ingest);
    expect(ingested.status, JSON.stringify(ingested.body)).toBeLessThan(300);
    expect(refusedOn(await send('/ingest/vendor-course-refs', { ...ingest, producer_batch_id: null }))).toEqual([
      400,
      ['producer_batch_id'],
    ]);

    // A course with no lessons: past validation, the null digests are not what refuses its approval.
    await createComponent(platform, caller, { component_id: 'course', kind: 'course' });
    const approval = {
      approved_by: 'reviewer:ada',
      provenance: { source: 'authoring_ui', course_ref: null },
      expected_course_graph_sha256: null,
      expected_kc_snapshot_sha256: null,
    };
    const approved = await send('/courses/course/approvals', approval);
    expect(approved.body.fieldErrors ?? [], JSON.stringify(approved.body)).toEqual([]);
    expect(refusedOn(await send('/courses/course/approvals', { ...approval, approved_by: null }))).toEqual([
      400,
      ['approved_by'],
    ]);
  });

  it('is the optional member left out on source imports; a required one is still refused', async ({ platform }) => {
    const caller = await newTenant(platform, { scopes: ['events:read', 'events:write'] });
    const send = (body: unknown) =>
      http(platform, 'POST', `${eventsRoot}/source-imports`, { token: caller.token, headers: key(), body });
    const body = { sourceSystem: 'sis_system', adapter: 'sis_attendance_event_v1', records: [attendanceRow()] };
    const imported = await send({ ...body, importId: null, dryRun: null });
    expect(imported.status, JSON.stringify(imported.body)).toBe(200);
    expect(refusedOn(await send({ ...body, adapter: null }))).toEqual([400, ['adapter']]);
  });
});
