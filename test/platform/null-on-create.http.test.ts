import { describe, expect } from 'vitest';
import { curriculumV1, http, newTenant, tenantRoot } from '../kit.ts';
import { platformTest } from '../platform-test.ts';
import { createComponent, kcBody, key } from '../curriculum/helpers.ts';
import { post, producer, viewed } from '../events/helpers.ts';

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
});
