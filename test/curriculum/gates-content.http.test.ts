import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { curriculumV1, http, roots, sameTenant, tenantRoot, type Caller } from '../kit.ts';
import { platformTest } from '../platform-test.ts';
import type { RunningPlatform } from '../../gateway/platform.ts';
import { post, producer } from '../events/helpers.ts';
import { PLAYER_EXTENSION_NAMESPACE } from '../../subgraphs/events/vocabulary.ts';
import { policies } from '../../subgraphs/content/tables.ts';
import { createComponent, createKc, expectProblem } from './helpers.ts';

/**
 * Mastery gates against the real content service of the test platform: test_bank and test versions
 * authored, published and trusted through content's REST, bank members and test-serve
 * authorization answered by content itself, served forms recorded in the real events service.
 * (Faults content cannot be made to commit, an answer for another bank version, a slow or absent
 * service, stay in gates.http.test.ts and content-faults.http.test.ts with stand-ins.)
 */

const it = platformTest();

interface Form {
  content_id: string;
  version_id: string;
}

async function contentPost(platform: RunningPlatform, caller: Caller, path: string, body: unknown) {
  const reply = await http(platform, 'POST', `${tenantRoot(caller.tenantId)}${path}`, {
    token: caller.token,
    headers: { 'idempotency-key': randomUUID() },
    body,
  });
  expect(reply.status, `${path} ${JSON.stringify(reply.body)}`).toBe(201);
  return reply.body;
}

async function trust(platform: RunningPlatform, caller: Caller, contentId: string, versionId: string) {
  const reviewer = await sameTenant(platform, caller);
  await contentPost(platform, reviewer, `/items/${contentId}/versions/${versionId}/qc-decisions`, {
    trust_status: 'trusted',
    reason: 'reviewed',
  });
}

/** A published test form whose exact version embeds one KC-tagged question; trusted unless asked otherwise. */
async function authorForm(
  platform: RunningPlatform,
  caller: Caller,
  kcId: string,
  options: { trusted?: boolean; usageScope?: string } = {},
): Promise<Form> {
  const question = await contentPost(platform, caller, '/items', { content_kind: 'question', title: 'Q' });
  await contentPost(platform, caller, `/items/${question.content_id}/kc-tags`, { kc_id: kcId, weight: 1 });
  const form = await contentPost(platform, caller, '/items', {
    content_kind: 'test',
    title: 'Form',
    status: 'published',
    ...(options.usageScope ? { usage_scope: options.usageScope } : {}),
  });
  await contentPost(platform, caller, `/items/${form.content_id}/references`, {
    relationship_kind: 'embeds',
    referenced_content_id: question.content_id,
    parent_version_id: form.latest_version_id,
    referenced_version_id: question.latest_version_id,
    ordinal: 1,
  });
  if (options.trusted !== false) await trust(platform, caller, form.content_id, form.latest_version_id);
  return { content_id: form.content_id, version_id: form.latest_version_id };
}

/** A test_bank version holding the forms in order: published and trusted, or left a draft. */
async function authorBank(platform: RunningPlatform, caller: Caller, forms: Form[], draft = false) {
  const bank = await contentPost(platform, caller, '/items', {
    content_kind: 'test_bank',
    title: 'Bank',
    membership_rule: 'same_blueprint_fixed_forms',
  });
  for (const [index, form] of forms.entries()) {
    await contentPost(platform, caller, `/items/${bank.content_id}/references`, {
      relationship_kind: 'bank_member',
      referenced_content_id: form.content_id,
      parent_version_id: bank.latest_version_id,
      referenced_version_id: form.version_id,
      ordinal: index + 1,
    });
  }
  if (!draft) {
    await contentPost(platform, caller, `/items/${bank.content_id}/publish`, { version_id: bank.latest_version_id });
    await trust(platform, caller, bank.content_id, bank.latest_version_id);
  }
  return { content_id: bank.content_id as string, content_version_id: bank.latest_version_id as string };
}

async function gateOn(
  platform: RunningPlatform,
  caller: Caller,
  bank: { content_id: string; content_version_id: string },
  publication: 'published' | 'draft' = 'published',
) {
  const gateId = 'gate-1';
  await createComponent(platform, caller, {
    component_id: `${gateId}.lesson`,
    kind: 'lesson',
    alpha: { publication_status: 'published' },
  });
  await createComponent(platform, caller, {
    component_id: gateId,
    kind: 'mastery_gate',
    parent_component_id: `${gateId}.lesson`,
    alpha: {
      publication_status: publication,
      target_ref: { module: 'content', content_kind: 'test_bank', ...bank },
      renderer_ref: 'renderer:qti-test',
    },
  });
}

const nextForm = (platform: RunningPlatform, caller: Caller, studentId = 'stu-1') =>
  http(platform, 'GET', `${curriculumV1}/gates/gate-1/next-form?studentId=${studentId}`, { token: caller.token });

it('serves each of three real forms once, exact, then answers curriculum:bank_exhausted', async ({
  platform,
  tenant,
}) => {
  const kc = await createKc(platform, tenant, { publication_status: 'published' });
  const forms = [];
  for (let index = 0; index < 3; index += 1) forms.push(await authorForm(platform, tenant, kc.kc_id));
  await gateOn(platform, tenant, await authorBank(platform, tenant, forms));
  const events = await producer(platform, { tenantId: tenant.tenantId });
  for (const [round, form] of forms.entries()) {
    const next = await nextForm(platform, tenant);
    expect(next.status, JSON.stringify(next.body)).toBe(200);
    expect(next.body).toMatchObject({
      selected_form_ref: {
        module: 'content',
        content_kind: 'test',
        content_id: form.content_id,
        content_version_id: form.version_id,
      },
      launch: 'release',
      bank_member_ordinal: round + 1,
      seen_form_count: round,
    });
    const served = await post(platform, { tenantId: tenant.tenantId, token: events.token }, [
      {
        kind: 'assessment_started',
        studentId: 'stu-1',
        contentId: form.content_id,
        activitySourceId: events.sourceId,
        happenedAt: '2026-09-01T10:00:00Z',
        extensions: { [`${PLAYER_EXTENSION_NAMESPACE}/component_id`]: 'gate-1' },
      },
    ]);
    expect(served.status).toBe(202);
  }
  expectProblem(await nextForm(platform, tenant), 409, 'curriculum:bank_exhausted');
  expect((await nextForm(platform, tenant, 'stu-2')).body.selected_form_ref.content_id).toBe(forms[0].content_id);
});

it('skips real forms content does not release, tells all-ineligible apart, and refuses a pin of another bank', async ({
  platform,
  tenant,
}) => {
  const kc = await createKc(platform, tenant, { publication_status: 'published' });
  const secure = await authorForm(platform, tenant, kc.kc_id, { usageScope: 'secure_form' });
  const untrusted = await authorForm(platform, tenant, kc.kc_id, { trusted: false });
  const bank = await authorBank(platform, tenant, [secure, untrusted]);
  await gateOn(platform, tenant, bank);
  expectProblem(await nextForm(platform, tenant), 409, 'curriculum:bank_forms_ineligible');
  // Trusting the untrusted form's exact version makes it the one eligible form.
  await trust(platform, tenant, untrusted.content_id, untrusted.version_id);
  const next = await nextForm(platform, tenant);
  expect(next.status, JSON.stringify(next.body)).toBe(200);
  expect(next.body.selected_form_ref).toMatchObject({
    content_id: untrusted.content_id,
    content_version_id: untrusted.version_id,
  });
  expect(next.body.bank_member_ordinal).toBe(2);

  // A pin naming another bank's version id: content knows no such version of this bank, so no gate holds it.
  const other = await authorBank(platform, tenant, [untrusted]);
  const mismatched = await http(platform, 'POST', `${curriculumV1}/components`, {
    token: tenant.token,
    body: {
      component_id: 'gate-2',
      kind: 'mastery_gate',
      alpha: {
        publication_status: 'draft',
        target_ref: {
          module: 'content',
          content_kind: 'test_bank',
          content_id: bank.content_id,
          content_version_id: other.content_version_id,
        },
        renderer_ref: 'renderer:qti-test',
      },
    },
  });
  expectProblem(mismatched, 409, 'curriculum:target_not_serveable');
  expect(mismatched.body.fieldErrors).toEqual([
    { field: 'alpha.target_ref.content_version_id', message: 'content.not_found' },
  ]);
});

it('launches a draft gate only through a real content test-serve authorization of the exact selection', async ({
  platform,
  tenant,
}) => {
  const kc = await createKc(platform, tenant, { publication_status: 'published' });
  const form = await authorForm(platform, tenant, kc.kc_id);
  const bank = await authorBank(platform, tenant, [form], true);
  await gateOn(platform, tenant, bank, 'draft');
  const operator = await sameTenant(platform, tenant, { scopes: [], roles: ['operator'] });
  for (const [personId, reality] of [
    ['stu-test', 'test'],
    ['stu-real', 'real'],
  ]) {
    const registered = await http(platform, 'POST', `${roots.people}/people`, {
      token: operator.token,
      body: { personId, givenName: 'A', familyName: 'B', reality },
    });
    expect(registered.status).toBe(201);
  }
  // No grant yet: content refuses, and the draft gate does not launch.
  expectProblem(await nextForm(platform, tenant, 'stu-test'), 409, 'curriculum:gate_not_launchable');
  await platform.runtime.database.db.insert(policies).values({
    tenantId: tenant.tenantId,
    policyId: randomUUID(),
    policyKey: 'test_serve_grant',
    status: 'active',
    value: {},
    provisionedBy: 'operator',
    provisionedAt: new Date().toISOString(),
  });
  const launched = await nextForm(platform, tenant, 'stu-test');
  expect(launched.status, JSON.stringify(launched.body)).toBe(200);
  expect(launched.body).toMatchObject({
    launch: 'test_serve',
    test_serve_authorization_id: expect.any(String),
    selected_form_ref: { content_id: form.content_id, content_version_id: form.version_id },
  });
  // A real learner is never test-served a draft gate.
  expectProblem(await nextForm(platform, tenant, 'stu-real'), 409, 'curriculum:gate_not_launchable');
});
