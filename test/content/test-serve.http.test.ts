import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { startTestPlatform, http, newTenant, sameTenant, roots, tenantRoot, type Caller } from '../kit.ts';
import { filePlatform, platformTest, type TestPlatform } from '../platform-test.ts';
import { items, policies, testServeAuthorizations } from '../../subgraphs/content/tables.ts';
import { json, startFakeService } from '../fake-service.ts';
import { bankMember, createBank, createItem, formTaggedWith, postAs, type ExactVersion } from './helpers.ts';
import { registryKc, startFakeCurriculum, type FakeCurriculum } from './fake-curriculum.ts';

let curriculum: FakeCurriculum;
beforeAll(async () => {
  curriculum = await startFakeCurriculum();
});
afterAll(async () => {
  await curriculum?.close();
});
const it = platformTest(() => ({ config: { curriculumUrl: curriculum.url } }));
/** The platform the helpers below talk to: the file's, or one a test starts with a broken dependency. */
let brokenPlatform: TestPlatform | undefined;
const platformInUse = () => brokenPlatform ?? filePlatform();

async function post(caller: Caller, path: string, body: unknown) {
  return postAs(platformInUse(), caller, path, body);
}

/** A form whose exact version embeds one question with an active KC tag, as a member of the bank. */
async function addMember(caller: Caller, bank: ExactVersion, ordinal: number, formExtra: Record<string, unknown> = {}) {
  const kcId = randomUUID();
  curriculum.kcs.set(kcId, registryKc(kcId));
  const tagged = await formTaggedWith(platformInUse(), caller, kcId, formExtra);
  expect(
    (await post(caller, `/items/${bank.content_id}/references`, bankMember(bank, tagged.form, ordinal))).status,
  ).toBe(201);
  return tagged;
}

/** A draft bank whose exact version holds one complete, tagged form; persons of each reality. */
async function scenario(formExtra: Record<string, unknown> = {}) {
  const caller = await newTenant(platformInUse());
  const bank = await createBank(platformInUse(), caller);
  const { form } = await addMember(caller, bank, 1, formExtra);
  const operator = await sameTenant(platformInUse(), caller, { scopes: [], roles: ['operator'] });
  for (const [personId, reality] of [
    ['p-synthetic', 'synthetic'],
    ['p-test', 'test'],
    ['p-real', 'real'],
  ]) {
    const registered = await http(platformInUse(), 'POST', `${roots.people}/people`, {
      token: operator.token,
      body: { personId, givenName: 'A', familyName: 'B', reality },
    });
    expect(registered.status).toBe(201);
  }
  await http(platformInUse(), 'POST', `${roots.people}/people`, {
    token: operator.token,
    body: { personId: 'p-inactive', givenName: 'A', familyName: 'B', reality: 'test', status: 'inactive' },
  });
  const selection = {
    bank_content_id: bank.content_id,
    bank_version_id: bank.latest_version_id,
    form_content_id: form.content_id,
    form_version_id: form.latest_version_id,
  };
  return { caller, bank, form, selection };
}

async function grant(tenantId: string, value: Record<string, unknown> = {}) {
  await platformInUse().runtime.database.db.insert(policies).values({
    tenantId,
    policyId: randomUUID(),
    policyKey: 'test_serve_grant',
    status: 'active',
    value,
    provisionedBy: 'operator',
    provisionedAt: new Date().toISOString(),
  });
}

async function receipts(tenantId: string): Promise<number> {
  const rows = await platformInUse()
    .runtime.database.db.select({ n: sql<number>`count(*)::int` })
    .from(testServeAuthorizations)
    .where(eq(testServeAuthorizations.tenantId, tenantId));
  return rows[0].n;
}

describe('test-serve eligibility and authorization (rule 8)', () => {
  it('authorizes a draft bank-to-form selection for a synthetic or test person under a grant, appending an immutable receipt', async ({
    platform,
  }) => {
    const { caller, bank, selection } = await scenario();
    const eligibilityUrl = `/items/${bank.content_id}/versions/${bank.latest_version_id}/test-serve-eligibility`;
    const noGrant = await http(platform, 'GET', `${tenantRoot(caller.tenantId)}${eligibilityUrl}`, {
      token: caller.token,
    });
    expect([noGrant.status, noGrant.body.code]).toEqual([409, 'content.test_serve_not_authorized']);
    expect(noGrant.body.eligibility).toMatchObject({ test_serve_eligible: false });
    const refusedWithoutGrant = await post(caller, '/test-serve-authorizations', {
      ...selection,
      test_identity_id: 'p-synthetic',
    });
    expect(refusedWithoutGrant.status).toBe(409);
    await grant(caller.tenantId);
    const eligible = await http(
      platform,
      'GET',
      `${tenantRoot(caller.tenantId)}${eligibilityUrl}?test_identity_id=p-test&producer_surface=demo_ui`,
      { token: caller.token },
    );
    expect(eligible.status).toBe(200);
    expect(eligible.body).toMatchObject({
      content_id: bank.content_id,
      test_serve_eligible: true,
      problem_code: null,
      trust_status: 'unknown',
    });
    const real = await http(
      platform,
      'GET',
      `${tenantRoot(caller.tenantId)}${eligibilityUrl}?test_identity_id=p-real`,
      { token: caller.token },
    );
    expect(real.status).toBe(409);
    for (const personId of ['p-synthetic', 'p-test']) {
      const authorized = await post(caller, '/test-serve-authorizations', { ...selection, test_identity_id: personId });
      expect(authorized.status).toBe(201);
      expect(authorized.body).toMatchObject({
        ...selection,
        test_identity_id: personId,
        person_reality: personId === 'p-test' ? 'test' : 'synthetic',
      });
    }
    expect(await receipts(caller.tenantId)).toBe(2);
    const update = platform.runtime.database.db
      .update(testServeAuthorizations)
      .set({ testIdentityId: 'p-real' })
      .where(and(eq(testServeAuthorizations.tenantId, caller.tenantId)));
    await expect(update).rejects.toSatisfy((error: any) =>
      /append-only/.test(`${error?.message} ${error?.cause?.message}`),
    );
  });

  it('refuses real, unknown and inactive persons, prefixes, flags, non-members, published banks and non-practice forms, recording nothing', async ({
    platform,
  }) => {
    const { caller, bank, form, selection } = await scenario();
    await grant(caller.tenantId);
    for (const personId of ['p-real', 'test-person-not-registered', 'synthetic:someone', 'p-inactive']) {
      const refused = await post(caller, '/test-serve-authorizations', { ...selection, test_identity_id: personId });
      expect([refused.status, refused.body.code], personId).toEqual([409, 'content.test_serve_not_authorized']);
    }
    const flagged = await post(caller, '/test-serve-authorizations', {
      ...selection,
      test_identity_id: 'p-real',
      is_test_cohort: true,
    });
    expect([flagged.status, flagged.body.code]).toEqual([400, 'content.validation_failed']);
    const other = await createItem(platform, caller, { content_kind: 'test' });
    const notMember = await post(caller, '/test-serve-authorizations', {
      ...selection,
      form_content_id: other.content_id,
      form_version_id: other.latest_version_id,
      test_identity_id: 'p-test',
    });
    expect(notMember.status).toBe(409);
    const swapped = await post(caller, '/test-serve-authorizations', {
      ...selection,
      form_version_id: bank.latest_version_id,
      test_identity_id: 'p-test',
    });
    expect(swapped.status).toBe(404);
    expect(await receipts(caller.tenantId)).toBe(0);
    // A published bank is no longer a draft selection.
    await post(caller, `/items/${bank.content_id}/publish`, { version_id: bank.latest_version_id });
    expect(
      (await post(caller, '/test-serve-authorizations', { ...selection, test_identity_id: 'p-test' })).status,
    ).toBe(409);
    // Failed trust on the form and a secure form are refused too.
    const canary = await scenario({ usage_scope: 'secure_form' });
    await grant(canary.caller.tenantId);
    expect(
      (await post(canary.caller, '/test-serve-authorizations', { ...canary.selection, test_identity_id: 'p-test' }))
        .status,
    ).toBe(409);
    const failed = await scenario();
    await grant(failed.caller.tenantId);
    const reviewer = await sameTenant(platform, failed.caller);
    await post(reviewer, `/items/${failed.form.content_id}/versions/${failed.form.latest_version_id}/qc-decisions`, {
      trust_status: 'failed',
      reason: 'broken',
    });
    expect(
      (await post(failed.caller, '/test-serve-authorizations', { ...failed.selection, test_identity_id: 'p-test' }))
        .status,
    ).toBe(409);
    // A grant to another subject does not authorize this caller.
    const scoped = await scenario();
    await grant(scoped.caller.tenantId, { subjects: ['someone-else'] });
    expect(
      (await post(scoped.caller, '/test-serve-authorizations', { ...scoped.selection, test_identity_id: 'p-test' }))
        .status,
    ).toBe(409);
    expect(form.content_id).toBeTruthy();
  });

  it('counts a person whose answer states no status as inactive (fails closed)', async () => {
    const people = await startFakeService();
    people.behave((request, response) => {
      const personId = decodeURIComponent(request.url!.split('/').at(-1)!);
      json(200, { personId, reality: 'test' })(request, response);
    });
    brokenPlatform = await startTestPlatform({ config: { curriculumUrl: curriculum.url, peopleUrl: people.url } });
    try {
      const { caller, bank, selection } = await scenario();
      await grant(caller.tenantId);
      const refused = await post(caller, '/test-serve-authorizations', { ...selection, test_identity_id: 'p-test' });
      expect([refused.status, refused.body.code]).toEqual([409, 'content.test_serve_not_authorized']);
      expect(refused.body.fieldErrors).toEqual([
        { field: 'test_identity_id', message: 'person is of unstated status' },
      ]);
      const eligibility = await http(
        brokenPlatform,
        'GET',
        `${tenantRoot(caller.tenantId)}/items/${bank.content_id}/versions/${bank.latest_version_id}/test-serve-eligibility?test_identity_id=p-test`,
        { token: caller.token },
      );
      expect(eligibility.status).toBe(409);
      expect(await receipts(caller.tenantId)).toBe(0);
    } finally {
      await brokenPlatform.close();
      brokenPlatform = undefined;
      await people.close();
    }
  });

  it('validates every active bank_member row before selection (limit 2): another member with a broken graph refuses', async () => {
    const { caller, bank, selection } = await scenario();
    await grant(caller.tenantId);
    const other = await addMember(caller, bank, 2);
    expect(
      (await post(caller, '/test-serve-authorizations', { ...selection, test_identity_id: 'p-test' })).status,
    ).toBe(201);
    const retired = await http(
      platformInUse(),
      'DELETE',
      `${tenantRoot(caller.tenantId)}/items/${other.form.content_id}/references/${other.embedsId}`,
      { token: caller.token },
    );
    expect(retired.status).toBe(200);
    const refused = await post(caller, '/test-serve-authorizations', { ...selection, test_identity_id: 'p-test' });
    expect([refused.status, refused.body.code]).toEqual([409, 'content.bank_kc_attribution_incomplete']);
    expect(await receipts(caller.tenantId)).toBe(1);
  });

  it.skipIf(!process.env.DATABASE_URL)(
    'revalidates and appends the receipt in one transaction under the bank lock: a retirement committed meanwhile refuses (PostgreSQL only)',
    async ({ platform }) => {
      const { caller, bank, selection } = await scenario();
      await grant(caller.tenantId);
      const { db } = platform.runtime.database;
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      let locked!: () => void;
      const lockHeld = new Promise<void>((resolve) => (locked = resolve));
      const holder = db.transaction(async (tx) => {
        const bankRow = and(eq(items.tenantId, caller.tenantId), eq(items.contentId, bank.content_id));
        await tx.select().from(items).where(bankRow).for('update');
        locked();
        await released;
        await tx.update(items).set({ status: 'retired' }).where(bankRow);
      });
      await lockHeld;
      const authorization = post(caller, '/test-serve-authorizations', { ...selection, test_identity_id: 'p-test' });
      await new Promise((resolve) => setTimeout(resolve, 500));
      release();
      await holder;
      const answer = await authorization;
      expect([answer.status, answer.body.code]).toEqual([409, 'content.test_serve_not_authorized']);
      expect(await receipts(caller.tenantId)).toBe(0);
    },
  );

  it('fails closed when the people service does not answer', async () => {
    // Same stand-in for registration, but content asks a people URL where nothing listens.
    brokenPlatform = await startTestPlatform({
      config: { curriculumUrl: curriculum.url, peopleUrl: 'http://127.0.0.1:9/people', serviceCallTimeoutMs: 300 },
    });
    try {
      const { caller, selection } = await scenario();
      await grant(caller.tenantId);
      const refused = await post(caller, '/test-serve-authorizations', { ...selection, test_identity_id: 'p-test' });
      expect([refused.status, refused.body.code]).toEqual([409, 'content.test_serve_not_authorized']);
      expect(JSON.stringify(refused.body.fieldErrors)).toContain('people service');
      expect(await receipts(caller.tenantId)).toBe(0);
    } finally {
      await brokenPlatform.close();
      brokenPlatform = undefined;
    }
  });
});
