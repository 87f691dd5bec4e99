import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect } from 'vitest';
import { curriculumV1, http, newTenant, type Caller } from '../kit.ts';
import { filePlatform, platformTest } from '../platform-test.ts';
import { createComponent, expectProblem, key, readComponent, rowsOf, tenantRowCounts } from './helpers.ts';
import { startFakeContent, type FakeContent, type FakeMode } from './fake-content.ts';

/**
 * Every way the content eligibility call can fail, against every command that asks it: each fails
 * closed with its typed problem and leaves nothing behind.
 */

let fake: FakeContent;
beforeAll(async () => {
  fake = await startFakeContent();
});
afterAll(async () => {
  await fake?.close();
});
const it = platformTest(() => ({ config: { contentUrl: fake.url, serviceCallTimeoutMs: 300 } }));
beforeEach(() => {
  fake.mode = 'eligible';
});

const componentsUrl = `${curriculumV1}/components`;
const pin = (contentKind = 'article') => ({
  module: 'content',
  content_kind: contentKind,
  content_id: randomUUID(),
  content_version_id: randomUUID(),
});

const FAULTS: Array<[FakeMode, number, string]> = [
  ['timeout', 503, 'curriculum:content_unavailable'],
  ['500', 503, 'curriculum:content_unavailable'],
  ['503', 503, 'curriculum:content_unavailable'],
  ['reset', 503, 'curriculum:content_unavailable'],
  ['truncated', 502, 'curriculum:content_answer_invalid'],
  ['wrong_id', 502, 'curriculum:content_answer_invalid'],
  ['wrong_version', 502, 'curriculum:content_answer_invalid'],
  ['ineligible', 409, 'curriculum:target_not_serveable'],
  ['failed_trust', 409, 'curriculum:target_not_serveable'],
  ['missing', 409, 'curriculum:target_not_serveable'],
  ['missing_fields', 502, 'curriculum:content_answer_invalid'],
  ['kind_mismatch', 409, 'curriculum:target_not_serveable'],
  ['untyped_problem', 502, 'curriculum:content_answer_invalid'],
];

async function pinnedLesson(caller: Caller) {
  const target = pin();
  await createComponent(filePlatform(), caller, { component_id: 'course', kind: 'course' });
  const lesson = await createComponent(filePlatform(), caller, {
    component_id: 'lesson',
    kind: 'lesson',
    parent_component_id: 'course',
    alpha: { target_ref: target },
  });
  return { lesson, target };
}

describe('content eligibility faults: nothing is written', () => {
  it.each(FAULTS)('POST /components when content answers %s', async (mode, status, code) => {
    const caller = await newTenant(filePlatform());
    await createComponent(filePlatform(), caller, { component_id: 'course', kind: 'course' });
    const before = await tenantRowCounts(filePlatform(), caller.tenantId);
    fake.mode = mode;
    const reply = await http(filePlatform(), 'POST', componentsUrl, {
      token: caller.token,
      body: { component_id: 'lesson', kind: 'lesson', parent_component_id: 'course', alpha: { target_ref: pin() } },
    });
    expectProblem(reply, status, code);
    expect(await tenantRowCounts(filePlatform(), caller.tenantId)).toEqual(before);
  });

  it.each(FAULTS)('PATCH of the target when content answers %s', async (mode, status, code) => {
    const caller = await newTenant(filePlatform());
    const { lesson } = await pinnedLesson(caller);
    const before = await tenantRowCounts(filePlatform(), caller.tenantId);
    fake.mode = mode;
    const reply = await http(filePlatform(), 'PATCH', `${componentsUrl}/lesson`, {
      token: caller.token,
      headers: { ...key(), 'x-curriculum-if-match': lesson.etag },
      body: { alpha: { target_ref: pin() } },
    });
    expectProblem(reply, status, code);
    expect(await tenantRowCounts(filePlatform(), caller.tenantId)).toEqual(before);
    expect((await readComponent(filePlatform(), caller, 'lesson')).body).toEqual(lesson);
  });

  it.each(FAULTS)('repoint when content answers %s', async (mode, status, code) => {
    const caller = await newTenant(filePlatform());
    const { lesson, target } = await pinnedLesson(caller);
    const before = await tenantRowCounts(filePlatform(), caller.tenantId);
    fake.mode = mode;
    const reply = await http(filePlatform(), 'POST', `${componentsUrl}/lesson/repoint`, {
      token: caller.token,
      headers: key(),
      body: {
        operation: 'repoint',
        expected_target_ref: target,
        target_ref: { ...target, content_version_id: randomUUID() },
      },
    });
    expectProblem(
      reply,
      status,
      code === 'curriculum:target_not_serveable' ? 'curriculum:repoint_target_not_serveable' : code,
    );
    expect(await tenantRowCounts(filePlatform(), caller.tenantId)).toEqual(before);
    expect((await readComponent(filePlatform(), caller, 'lesson')).body).toEqual(lesson);
  });

  it('asks for the exact version with the caller tenant, and stores the pin when content answers eligible', async ({
    platform,
  }) => {
    const caller = await newTenant(platform);
    const target = pin();
    await createComponent(platform, caller, { component_id: 'lesson', kind: 'lesson', alpha: { target_ref: target } });
    expect(fake.lastPath).toBe(
      `/tenants/${caller.tenantId}/alpha/content/items/${target.content_id}/versions/${target.content_version_id}/release-eligibility`,
    );
    expect((await readComponent(platform, caller, 'lesson')).body.alpha.target_ref).toEqual(target);
  });

  it('a malformed pin is refused before content is asked', async ({ platform }) => {
    const caller = await newTenant(platform);
    const calls = fake.calls;
    const reply = await http(platform, 'POST', componentsUrl, {
      token: caller.token,
      body: {
        component_id: 'lesson',
        kind: 'lesson',
        alpha: { target_ref: { ...pin(), assessment_role: 'summative' } },
      },
    });
    expectProblem(reply, 400, 'curriculum:validation_failed');
    expect(fake.calls).toBe(calls);
  });

  it('a repoint to a version that is not practice_eligible is refused', async ({ platform }) => {
    const caller = await newTenant(platform);
    const { target } = await pinnedLesson(caller);
    fake.mode = 'not_practice';
    const reply = await http(platform, 'POST', `${componentsUrl}/lesson/repoint`, {
      token: caller.token,
      headers: key(),
      body: {
        operation: 'repoint',
        expected_target_ref: target,
        target_ref: { ...target, content_version_id: randomUUID() },
      },
    });
    expectProblem(reply, 409, 'curriculum:repoint_target_not_serveable');
  });
});

describe('mastery gate publication (rule 17)', () => {
  function publish(caller: Caller, etag: string, alpha: Record<string, unknown>) {
    return http(filePlatform(), 'PATCH', `${componentsUrl}/gate`, {
      token: caller.token,
      headers: { ...key(), 'x-curriculum-if-match': etag },
      body: { alpha },
    });
  }

  it('publishes only with the exact test_bank target_ref and renderer:qti-test in the same patch, after content agrees', async ({
    platform,
  }) => {
    const caller = await newTenant(platform);
    const bank = pin('test_bank');
    fake.kinds.set(bank.content_version_id, 'test_bank');
    expectProblem(
      await http(platform, 'POST', componentsUrl, {
        token: caller.token,
        body: { component_id: 'g0', kind: 'mastery_gate' },
      }),
      400,
      'curriculum:validation_failed',
    );
    expectProblem(
      await http(platform, 'POST', componentsUrl, {
        token: caller.token,
        body: {
          component_id: 'g1',
          kind: 'mastery_gate',
          alpha: { publication_status: 'draft', target_ref: pin('test') },
        },
      }),
      400,
      'curriculum:validation_failed',
    );
    const gate = await createComponent(platform, caller, {
      component_id: 'gate',
      kind: 'mastery_gate',
      alpha: { publication_status: 'draft', target_ref: bank, renderer_ref: 'renderer:qti-test' },
    });
    const noTarget = await publish(caller, gate.etag, { publication_status: 'published' });
    expectProblem(noTarget, 400, 'curriculum:validation_failed');
    expect(noTarget.body.fieldErrors.map((error: any) => error.field)).toContain('alpha.target_ref');
    expectProblem(
      await publish(caller, gate.etag, { publication_status: 'published', target_ref: bank }),
      400,
      'curriculum:validation_failed',
    );
    expectProblem(
      await publish(caller, gate.etag, {
        publication_status: 'published',
        target_ref: bank,
        renderer_ref: 'renderer:interactive-lesson',
      }),
      400,
      'curriculum:validation_failed',
    );
    for (const mode of ['ineligible', 'failed_trust', 'wrong_id', 'timeout'] as const) {
      fake.mode = mode;
      const refused = await publish(caller, gate.etag, {
        publication_status: 'published',
        target_ref: bank,
        renderer_ref: 'renderer:qti-test',
      });
      expect(refused.status, mode).toBeGreaterThanOrEqual(409);
    }
    expect((await readComponent(platform, caller, 'gate')).body.alpha.publication_status).toBe('draft');
    fake.mode = 'eligible';
    const published = await publish(caller, gate.etag, {
      publication_status: 'published',
      target_ref: bank,
      renderer_kind: 'qti_test',
    });
    expect(published.status, JSON.stringify(published.body)).toBe(200);
    expect(published.body.alpha).toMatchObject({
      publication_status: 'published',
      renderer_ref: 'renderer:qti-test',
      target_ref: bank,
    });
  });

  it('a gate publishes with the renderer alias named in renderer_ref, stored as the canonical renderer', async ({
    platform,
  }) => {
    const caller = await newTenant(platform);
    const bank = pin('test_bank');
    fake.kinds.set(bank.content_version_id, 'test_bank');
    const gate = await createComponent(platform, caller, {
      component_id: 'gate',
      kind: 'mastery_gate',
      alpha: { publication_status: 'draft', target_ref: bank },
    });
    const published = await publish(caller, gate.etag, {
      publication_status: 'published',
      target_ref: bank,
      renderer_ref: 'qti_test',
    });
    expect(published.status, JSON.stringify(published.body)).toBe(200);
    expect(published.body.alpha).toMatchObject({ publication_status: 'published', renderer_ref: 'renderer:qti-test' });
  });

  it('a published gate pinning its bank is frozen to repoints', async ({ platform }) => {
    const caller = await newTenant(platform);
    const bank = await publishedGate(caller);
    const next = { ...bank, content_version_id: randomUUID() };
    fake.kinds.set(next.content_version_id, 'test_bank');
    const reply = await http(platform, 'POST', `${componentsUrl}/gate/repoint`, {
      token: caller.token,
      headers: key(),
      body: { operation: 'repoint', expected_target_ref: bank, target_ref: next },
    });
    expectProblem(reply, 409, 'curriculum:approved_chain_repoint_frozen');
  });
});

/** A mastery_gate created draft and published by PATCH (rule 17); answers its bank pin. */
async function publishedGate(caller: Caller) {
  const bank = pin('test_bank');
  fake.kinds.set(bank.content_version_id, 'test_bank');
  const gate = await createComponent(filePlatform(), caller, {
    component_id: 'gate',
    kind: 'mastery_gate',
    alpha: { publication_status: 'draft' },
  });
  const published = await http(filePlatform(), 'PATCH', `${componentsUrl}/gate`, {
    token: caller.token,
    headers: { ...key(), 'x-curriculum-if-match': gate.etag },
    body: { alpha: { publication_status: 'published', target_ref: bank, renderer_ref: 'renderer:qti-test' } },
  });
  expect(published.status, JSON.stringify(published.body)).toBe(200);
  return bank;
}

async function pinAuditOf(componentId: string, tenantId: string) {
  const result = await filePlatform().runtime.database.db.execute(
    sql`select operation, previous_target_ref, target_ref from curriculum.pin_audit
        where tenant_id = ${tenantId} and component_id = ${componentId} order by audit_seq`,
  );
  return rowsOf<{ operation: string; previous_target_ref: unknown; target_ref: unknown }>(result);
}

describe('the assessment-chain freeze holds on every path (rule 7)', () => {
  it('PATCH cannot re-pin a published gate, nor a published component pinning a test; content is not asked', async ({
    platform,
  }) => {
    const caller = await newTenant(platform);
    const bank = await publishedGate(caller);
    const test = pin('test');
    fake.kinds.set(test.content_version_id, 'test');
    const quiz = await createComponent(platform, caller, {
      component_id: 'quiz',
      kind: 'practice',
      alpha: { target_ref: test },
    });
    const publishedQuiz = await http(platform, 'PATCH', `${componentsUrl}/quiz`, {
      token: caller.token,
      headers: { ...key(), 'x-curriculum-if-match': quiz.etag },
      body: { alpha: { publication_status: 'published' } },
    });
    expect(publishedQuiz.status).toBe(200);
    for (const [componentId, current] of [
      ['gate', bank],
      ['quiz', test],
    ] as const) {
      const before = (await readComponent(platform, caller, componentId)).body;
      const counts = await tenantRowCounts(platform, caller.tenantId);
      const calls = fake.calls;
      const next = { ...current, content_version_id: randomUUID() };
      fake.kinds.set(next.content_version_id, current.content_kind);
      const reply = await http(platform, 'PATCH', `${componentsUrl}/${componentId}`, {
        token: caller.token,
        headers: { ...key(), 'x-curriculum-if-match': before.etag },
        body: { alpha: { target_ref: next } },
      });
      expectProblem(reply, 409, 'curriculum:approved_chain_repoint_frozen');
      expect(fake.calls).toBe(calls);
      expect(await tenantRowCounts(platform, caller.tenantId)).toEqual(counts);
      expect((await readComponent(platform, caller, componentId)).body).toEqual(before);
    }
  });

  it('PATCH cannot unpublish a published gate, so its bank pin cannot move by way of a draft; a lesson can', async ({
    platform,
  }) => {
    const caller = await newTenant(platform);
    await publishedGate(caller);
    const before = (await readComponent(platform, caller, 'gate')).body;
    const counts = await tenantRowCounts(platform, caller.tenantId);
    const unpublished = await http(platform, 'PATCH', `${componentsUrl}/gate`, {
      token: caller.token,
      headers: { ...key(), 'x-curriculum-if-match': before.etag },
      body: { alpha: { publication_status: 'draft' } },
    });
    expectProblem(unpublished, 409, 'curriculum:approved_chain_repoint_frozen');
    expect(await tenantRowCounts(platform, caller.tenantId)).toEqual(counts);
    expect((await readComponent(platform, caller, 'gate')).body).toEqual(before);
    const { lesson } = await pinnedLesson(caller);
    const published = await http(platform, 'PATCH', `${componentsUrl}/lesson`, {
      token: caller.token,
      headers: { ...key(), 'x-curriculum-if-match': lesson.etag },
      body: { alpha: { publication_status: 'published' } },
    });
    const draftAgain = await http(platform, 'PATCH', `${componentsUrl}/lesson`, {
      token: caller.token,
      headers: { ...key(), 'x-curriculum-if-match': published.body.etag },
      body: { alpha: { publication_status: 'draft' } },
    });
    expect([draftAgain.status, draftAgain.body.alpha?.publication_status]).toEqual([200, 'draft']);
  });

  it("rule 8's PATCH of a published lesson's direct target still works, and PATCH and repoint audit alike", async ({
    platform,
  }) => {
    const caller = await newTenant(platform);
    const { lesson, target } = await pinnedLesson(caller);
    const published = await http(platform, 'PATCH', `${componentsUrl}/lesson`, {
      token: caller.token,
      headers: { ...key(), 'x-curriculum-if-match': lesson.etag },
      body: { alpha: { publication_status: 'published' } },
    });
    const second = pin();
    const patched = await http(platform, 'PATCH', `${componentsUrl}/lesson`, {
      token: caller.token,
      headers: { ...key(), 'x-curriculum-if-match': published.body.etag },
      body: { alpha: { target_ref: second } },
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    const third = { ...second, content_version_id: randomUUID() };
    const repointed = await http(platform, 'POST', `${componentsUrl}/lesson/repoint`, {
      token: caller.token,
      headers: key(),
      body: { operation: 'repoint', expected_target_ref: second, target_ref: third },
    });
    expect(repointed.status, JSON.stringify(repointed.body)).toBe(201);
    expect(await pinAuditOf('lesson', caller.tenantId)).toEqual([
      { operation: 'create', previous_target_ref: null, target_ref: target },
      { operation: 'patch', previous_target_ref: target, target_ref: second },
      { operation: 'repoint', previous_target_ref: second, target_ref: third },
    ]);
  });
});

describe('the assessment-chain freeze on re-ingest (rule 7)', () => {
  it('a re-ingest cannot move the published pin of a resource that pins a test', async ({ platform }) => {
    const caller = await newTenant(platform);
    const test = pin('test');
    fake.kinds.set(test.content_version_id, 'test');
    const body = (target: typeof test) => ({
      source_system: 'vendor-x',
      producer_batch_id: `run-${randomUUID()}`,
      records: [
        { source_table: 'courses', sourced_id: 'c-1', title: 'Fractions', subject: 'math', grades: ['03'] },
        { source_table: 'course_components', sourced_id: 'u-1', course_sourced_id: 'c-1', title: 'U', sort_order: 0 },
        {
          source_table: 'component_resources',
          sourced_id: 'r-1',
          course_component_sourced_id: 'u-1',
          title: 'Quiz',
          sort_order: 0,
          component_kind: 'practice',
          content_id: target.content_id,
          content_version_id: target.content_version_id,
          content_kind: target.content_kind,
        },
      ],
    });
    const ingest = (target: typeof test) =>
      http(platform, 'POST', `${curriculumV1}/ingest/vendor-course-refs`, { token: caller.token, body: body(target) });
    const first = await ingest(test);
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const counts = await tenantRowCounts(platform, caller.tenantId);
    const next = { ...test, content_version_id: randomUUID() };
    fake.kinds.set(next.content_version_id, 'test');
    expectProblem(await ingest(next), 409, 'curriculum:approved_chain_repoint_frozen');
    expect(await tenantRowCounts(platform, caller.tenantId)).toEqual(counts);
  });
});

describe('preconditions come before content is asked', () => {
  it('a POST that can only be refused (another definition of an active id, a reactivation changing kind) does not ask content', async ({
    platform,
  }) => {
    const caller = await newTenant(platform);
    const { lesson } = await pinnedLesson(caller);
    const calls = fake.calls;
    const post = (body: unknown) => http(platform, 'POST', componentsUrl, { token: caller.token, body });
    expectProblem(
      await post({ component_id: 'lesson', kind: 'lesson', alpha: { target_ref: pin() } }),
      409,
      'curriculum:component_exists',
    );
    const retired = await http(platform, 'DELETE', `${componentsUrl}/lesson`, {
      token: caller.token,
      headers: { ...key(), 'x-curriculum-if-match': lesson.etag },
    });
    expect(retired.status).toBe(200);
    expectProblem(
      await post({ component_id: 'lesson', kind: 'practice', alpha: { target_ref: pin() } }),
      400,
      'curriculum:validation_failed',
    );
    expect(fake.calls).toBe(calls);
  });

  it('PATCH with a new pin answers 428 or 412 on a missing or stale ETag without asking content', async ({
    platform,
  }) => {
    const caller = await newTenant(platform);
    const { lesson } = await pinnedLesson(caller);
    const renamed = await http(platform, 'PATCH', `${componentsUrl}/lesson`, {
      token: caller.token,
      headers: { ...key(), 'x-curriculum-if-match': lesson.etag },
      body: { name: 'Renamed' },
    });
    expect(renamed.status).toBe(200);
    const calls = fake.calls;
    for (const mode of ['timeout', 'ineligible', 'eligible'] as const) {
      fake.mode = mode;
      const send = (headers: Record<string, string>) =>
        http(platform, 'PATCH', `${componentsUrl}/lesson`, {
          token: caller.token,
          headers: { ...key(), ...headers },
          body: { alpha: { target_ref: pin() } },
        });
      expectProblem(await send({}), 428, 'curriculum:precondition_required');
      expectProblem(await send({ 'x-curriculum-if-match': lesson.etag }), 412, 'curriculum:precondition_failed');
    }
    expect(fake.calls).toBe(calls);
    expect((await readComponent(platform, caller, 'lesson')).body).toEqual(renamed.body);
  });
});
