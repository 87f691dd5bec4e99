import { randomUUID } from 'node:crypto';
import { describe, expect } from 'vitest';
import { curriculumV1, eligibleVersion, http, newTenant, sameTenant, tenantRoot, type Caller } from '../kit.ts';
import { filePlatform, platformTest } from '../platform-test.ts';

// Every failure of the eligibility call, on every command that asks it: test/curriculum/content-faults.http.test.ts.

const it = platformTest();

function lesson(
  componentId: string,
  pin: { contentId: string; versionId: string; contentKind: string },
  extra: Record<string, unknown> = {},
) {
  return {
    component_id: componentId,
    kind: 'lesson',
    name: 'Lesson',
    alpha: {
      publication_status: 'draft',
      target_ref: {
        module: 'content',
        content_kind: pin.contentKind,
        content_id: pin.contentId,
        content_version_id: pin.versionId,
      },
      ...extra,
    },
  };
}

async function componentCount(caller: Caller): Promise<number> {
  const listed = await http(filePlatform(), 'GET', `${curriculumV1}/components?includeRetired=true`, {
    token: caller.token,
  });
  return listed.body.data.length;
}

describe('POST /components with an exact content pin', () => {
  it('stores a pin that content answers release eligible, and reads it back with an ETag', async ({ platform }) => {
    const caller = await newTenant(platform);
    const pin = await eligibleVersion(platform, caller);
    const created = await http(platform, 'POST', `${curriculumV1}/components`, {
      token: caller.token,
      body: lesson('l-1', pin),
    });
    expect(created.status).toBe(201);
    expect(created.body.alpha.target_ref).toEqual({
      module: 'content',
      content_kind: 'article',
      content_id: pin.contentId,
      content_version_id: pin.versionId,
    });
    const read = await http(platform, 'GET', `${curriculumV1}/components/l-1`, { token: caller.token });
    expect(read.status).toBe(200);
    expect(read.headers.get('etag')).toBe(created.body.etag);
    const again = await http(platform, 'POST', `${curriculumV1}/components`, {
      token: caller.token,
      body: lesson('l-1', pin),
    });
    expect(again.status).toBe(200);
    const changed = await http(platform, 'POST', `${curriculumV1}/components`, {
      token: caller.token,
      body: { ...lesson('l-1', pin), name: 'Other' },
    });
    expect([changed.status, changed.body.code]).toEqual([409, 'curriculum:component_exists']);
  });

  it('refuses an ineligible or unknown version with a typed problem and stores nothing', async ({ platform }) => {
    const caller = await newTenant(platform);
    const root = tenantRoot(caller.tenantId);
    const item = await http(platform, 'POST', `${root}/items`, {
      token: caller.token,
      headers: { 'idempotency-key': randomUUID() },
      body: { content_kind: 'article', title: 'Untrusted', status: 'published' },
    });
    const untrusted = {
      contentId: item.body.content_id,
      versionId: item.body.latest_version_id,
      contentKind: 'article',
    };
    const refused = await http(platform, 'POST', `${curriculumV1}/components`, {
      token: caller.token,
      body: lesson('l-untrusted', untrusted),
    });
    expect([refused.status, refused.body.code]).toEqual([409, 'curriculum:target_not_serveable']);
    const unknown = await http(platform, 'POST', `${curriculumV1}/components`, {
      token: caller.token,
      body: lesson('l-unknown', { ...untrusted, versionId: randomUUID() }),
    });
    expect([unknown.status, unknown.body.code]).toEqual([409, 'curriculum:target_not_serveable']);
    const wrongKind = await http(platform, 'POST', `${curriculumV1}/components`, {
      token: caller.token,
      body: lesson('l-kind', { ...(await eligibleVersion(platform, caller)), contentKind: 'video' }),
    });
    expect([wrongKind.status, wrongKind.body.code]).toEqual([409, 'curriculum:target_not_serveable']);
    expect(await componentCount(caller)).toBe(0);
  });

  it('refuses, through the real content service, a version of an unpublished or archived item and one whose trust was revoked', async ({
    platform,
  }) => {
    const caller = await newTenant(platform);
    const unpublished = await eligibleVersion(platform, caller, { status: 'draft' });
    const archived = await eligibleVersion(platform, caller, { status: 'archived' });
    const revoked = await eligibleVersion(platform, caller);
    const reviewer = await sameTenant(platform, caller);
    const qc = await http(
      platform,
      'POST',
      `${tenantRoot(caller.tenantId)}/items/${revoked.contentId}/versions/${revoked.versionId}/qc-decisions`,
      {
        token: reviewer.token,
        body: { trust_status: 'failed', reason: 'revoked' },
      },
    );
    expect(qc.status).toBe(201);
    for (const [name, pin] of [
      ['unpublished', unpublished],
      ['archived', archived],
      ['revoked', revoked],
    ] as const) {
      const refused = await http(platform, 'POST', `${curriculumV1}/components`, {
        token: caller.token,
        body: lesson(`l-${name}`, pin),
      });
      expect([name, refused.status, refused.body.code]).toEqual([name, 409, 'curriculum:target_not_serveable']);
    }
    expect(await componentCount(caller)).toBe(0);
  });

  it("never substitutes another tenant's version", async ({ platform }) => {
    const owner = await newTenant(platform);
    const pin = await eligibleVersion(platform, owner);
    const stranger = await newTenant(platform);
    const refused = await http(platform, 'POST', `${curriculumV1}/components`, {
      token: stranger.token,
      body: lesson('l-x', pin),
    });
    expect(refused.body.code).toBe('curriculum:target_not_serveable');
    expect(await componentCount(stranger)).toBe(0);
  });

  it('checks the target_ref shape before any I/O and refuses bad bodies, tokens and scopes', async ({ platform }) => {
    const caller = await newTenant(platform);
    const pin = { contentId: randomUUID(), versionId: randomUUID(), contentKind: 'article' };
    const shapes = [
      lesson('l-a', pin, {
        target_ref: { content_kind: 'article', content_id: 'not-a-uuid', content_version_id: pin.versionId },
      }),
      lesson('l-b', pin, { target_ref: { content_kind: 'article', content_id: pin.contentId } }),
      lesson('l-c', pin, { target_ref: { ...lesson('x', pin).alpha.target_ref, assessment_role: 'form' } }),
      {
        ...lesson('l-d', pin),
        kind: 'mastery_gate',
        alpha: { publication_status: 'draft', target_ref: lesson('x', pin).alpha.target_ref },
      },
      { ...lesson('l-e', pin), kind: 'unit' },
      { ...lesson('l-f', pin), surprise: true },
      {
        ...lesson('l-g', pin),
        alpha: { ...lesson('x', pin).alpha, course_grade_mode: 'single_grade', course_grade_levels: [3, 4] },
      },
      { ...lesson('l-h', pin), alpha: { ...lesson('x', pin).alpha, grade_level: 13 } },
      { ...lesson('l-i', pin), alpha: { ...lesson('x', pin).alpha, scope_kc_refs: [] } },
    ];
    for (const body of shapes) {
      const refused = await http(platform, 'POST', `${curriculumV1}/components`, { token: caller.token, body });
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body.code).toBe('curriculum:validation_failed');
      expect(refused.body.fieldErrors.length).toBeGreaterThan(0);
    }
    const noToken = await http(platform, 'POST', `${curriculumV1}/components`, { body: lesson('l-1', pin) });
    expect([noToken.status, noToken.body.code]).toEqual([401, 'curriculum:unauthenticated']);
    const reader = await sameTenant(platform, caller, { scopes: ['curriculum:read'] });
    const noScope = await http(platform, 'POST', `${curriculumV1}/components`, {
      token: reader.token,
      body: lesson('l-1', pin),
    });
    expect([noScope.status, noScope.body.code]).toEqual([403, 'curriculum:forbidden']);
    const unscoped = await http(platform, 'GET', `${curriculumV1}/components`, {
      token: (await sameTenant(platform, caller, { scopes: [] })).token,
    });
    expect(unscoped.status).toBe(403);
    const unknownKc = await http(platform, 'POST', `${curriculumV1}/components`, {
      token: caller.token,
      body: { component_id: 'u-1', kind: 'unit', alpha: { scope_kc_refs: [randomUUID()] } },
    });
    expect([unknownKc.status, unknownKc.body.code]).toEqual([422, 'curriculum:kc_not_active']);
    expect(await componentCount(caller)).toBe(0);
  });

  it('lists with filters and cursors, and reads trees in sibling order', async ({ platform }) => {
    const caller = await newTenant(platform);
    const pin = await eligibleVersion(platform, caller);
    const post = (body: unknown) => http(platform, 'POST', `${curriculumV1}/components`, { token: caller.token, body });
    await post({ component_id: 'c', kind: 'course' });
    await post({ component_id: 'u', kind: 'unit', parent_component_id: 'c' });
    await post({ ...lesson('l2', pin), parent_component_id: 'u', position: 2 });
    await post({ ...lesson('l1', pin), parent_component_id: 'u', position: 1 });
    const orphan = await post({ component_id: 'o', kind: 'unit', parent_component_id: 'missing' });
    expect([orphan.status, orphan.body.code]).toEqual([422, 'curriculum:parent_not_found']);
    const tree = await http(platform, 'GET', `${curriculumV1}/courses/c/tree`, { token: caller.token });
    expect(tree.body.children[0].children.map((node: { component_id: string }) => node.component_id)).toEqual([
      'l1',
      'l2',
    ]);
    expect((await http(platform, 'GET', `${curriculumV1}/courses/u/tree`, { token: caller.token })).status).toBe(404);
    const lessons = await http(platform, 'GET', `${curriculumV1}/components?kind=lesson&limit=1`, {
      token: caller.token,
    });
    expect(lessons.body.data).toHaveLength(1);
    const next = await http(
      platform,
      'GET',
      `${curriculumV1}/components?kind=lesson&limit=1&cursor=${lessons.body.next_cursor}`,
      { token: caller.token },
    );
    expect(next.body.data[0].component_id).not.toBe(lessons.body.data[0].component_id);
    expect(next.body.next_cursor).toBeNull();
    const otherFilters = await http(
      platform,
      'GET',
      `${curriculumV1}/components?kind=unit&cursor=${lessons.body.next_cursor}`,
      { token: caller.token },
    );
    expect(otherFilters.status).toBe(400);
    const inCourse = await http(platform, 'GET', `${curriculumV1}/components?courseId=c`, { token: caller.token });
    expect(inCourse.body.data.map((node: { component_id: string }) => node.component_id).sort()).toEqual([
      'c',
      'l1',
      'l2',
      'u',
    ]);
    const badLimit = await http(platform, 'GET', `${curriculumV1}/components?limit=-1`, { token: caller.token });
    expect(badLimit.status).toBe(400);
    expect((await http(platform, 'GET', `${curriculumV1}/components/nope`, { token: caller.token })).body.code).toBe(
      'curriculum:not_found',
    );
  });
});
