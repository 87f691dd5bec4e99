import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  curriculumV1,
  graphql,
  http,
  newTenant,
  ownCallsDuring,
  roots,
  startTestPlatform,
  type Caller,
  type TestPlatform,
} from '../kit.ts';
import { startFakeService, json } from '../fake-service.ts';
import { post, producer } from '../events/helpers.ts';
import { GRADING_EXTENSION_NAMESPACE, PLAYER_EXTENSION_NAMESPACE } from '../../subgraphs/events/vocabulary.ts';
import { createComponent, expectProblem } from './helpers.ts';
import { startFakeBankContent, type FakeBankContent } from './fake-bank-content.ts';

/**
 * Mastery gates over HTTP: content's answers come from a stand-in (every bank state on demand),
 * learner history from the real events service in the same process.
 */

let fake: FakeBankContent;
let platform: TestPlatform;
// Long enough for the real events read (it joins student names) on a loaded machine.
beforeAll(async () => {
  fake = await startFakeBankContent();
  platform = await startTestPlatform({ config: { contentUrl: fake.url, serviceCallTimeoutMs: 2000 } });
});
afterAll(async () => {
  await platform?.close();
  await fake?.close();
});
beforeEach(() => fake.reset(3));

/** The curriculum caller, and the player's events credentials in the same tenant. */
interface Learner extends Caller {
  sourceId: string;
  eventsToken: string;
}

async function tenantWithGate(publication: 'published' | 'draft' = 'published'): Promise<Learner> {
  const caller = await newTenant(platform);
  const events = await producer(platform, { tenantId: caller.tenantId });
  await createComponent(platform, caller, {
    component_id: 'lesson-1',
    kind: 'lesson',
    alpha: { publication_status: 'published' },
  });
  await createComponent(platform, caller, {
    component_id: 'gate-1',
    kind: 'mastery_gate',
    parent_component_id: 'lesson-1',
    alpha: {
      publication_status: publication,
      target_ref: { module: 'content', content_kind: 'test_bank', ...fake.bank },
      renderer_ref: 'renderer:qti-test',
    },
  });
  return { ...caller, sourceId: events.sourceId, eventsToken: events.token };
}

async function record(
  learner: Learner,
  kind: string,
  contentId: string,
  extensions: Record<string, unknown> = {},
  happenedAt = '2026-09-01T10:00:00Z',
  orgId?: string,
) {
  const accepted = await post(platform, { tenantId: learner.tenantId, token: learner.eventsToken }, [
    {
      kind,
      studentId: 'stu-1',
      ...(orgId ? { orgId } : {}),
      contentId,
      activitySourceId: learner.sourceId,
      happenedAt,
      extensions: { [`${PLAYER_EXTENSION_NAMESPACE}/component_id`]: 'gate-1', ...extensions },
    },
  ]);
  expect(accepted.status).toBe(202);
  return accepted.body.data[0].id as string;
}

const graded = (outcome: string, category?: string) => ({
  [`${GRADING_EXTENSION_NAMESPACE}/outcome`]: outcome,
  ...(category ? { [`${GRADING_EXTENSION_NAMESPACE}/remediation_category`]: category } : {}),
});

const gateUrl = (suffix = '', query = '') => `${curriculumV1}/gates/gate-1${suffix}${query}`;
const nextForm = (learner: Caller, query = '?studentId=stu-1') =>
  http(platform, 'GET', gateUrl('/next-form', query), { token: learner.token });

describe('GET /gates/{componentId}', () => {
  it('answers the contract without scores, thresholds or content body, and 404 for what is not an active gate', async () => {
    const learner = await tenantWithGate();
    const contract = await http(platform, 'GET', gateUrl(), { token: learner.token });
    expect(contract.status).toBe(200);
    expect(contract.body).toMatchObject({
      component_id: 'gate-1',
      publication_status: 'published',
      launch: 'release',
      bank_ref: { content_kind: 'test_bank', ...fake.bank },
      max_bank_members: 50,
      remediation_map: { never_learned: 'lesson', forgot: 'review', careless: 'practice' },
    });
    expect(JSON.stringify(contract.body)).not.toMatch(/score|threshold|blocks|student_view/);
    expectProblem(
      await http(platform, 'GET', `${curriculumV1}/gates/lesson-1`, { token: learner.token }),
      404,
      'curriculum:not_found',
    );
    expectProblem(
      await http(platform, 'GET', `${curriculumV1}/gates/nope`, { token: learner.token }),
      404,
      'curriculum:not_found',
    );
    const stranger = await newTenant(platform);
    expectProblem(await http(platform, 'GET', gateUrl(), { token: stranger.token }), 404, 'curriculum:not_found');
    const noScope = await newTenant(platform, { tenantId: learner.tenantId, scopes: ['read:content'] });
    expect((await http(platform, 'GET', gateUrl(), { token: noScope.token })).status).toBe(403);
    expect((await http(platform, 'GET', gateUrl())).status).toBe(401);
  });

  it('answers a gate and its remediation target whose pins were written without their optional module', async () => {
    const learner = await tenantWithGate();
    const formPin = { content_kind: 'test', content_id: randomUUID(), content_version_id: randomUUID() };
    await createComponent(platform, learner, {
      component_id: 'review-1',
      kind: 'review',
      parent_component_id: 'lesson-1',
      alpha: { publication_status: 'published', target_ref: formPin },
    });
    await record(learner, 'assessment_graded', fake.forms[0].form_content_id, graded('failed', 'forgot'));
    const remediation = await http(platform, 'GET', gateUrl('/remediation', '?studentId=stu-1'), {
      token: learner.token,
    });
    expect([remediation.status, remediation.body.remediation?.target_ref]).toEqual([
      200,
      { module: 'content', ...formPin },
    ]);

    const caller = await newTenant(platform);
    await createComponent(platform, caller, {
      component_id: 'gate-1',
      kind: 'mastery_gate',
      alpha: {
        publication_status: 'published',
        target_ref: { content_kind: 'test_bank', ...fake.bank },
        renderer_ref: 'renderer:qti-test',
      },
    });
    const bankRef = { module: 'content', content_kind: 'test_bank', ...fake.bank };
    const contract = await http(platform, 'GET', gateUrl(), { token: caller.token });
    expect([contract.status, contract.body.bank_ref]).toEqual([200, bankRef]);
    const next = await nextForm(caller);
    expect([next.status, next.body.bank_ref], JSON.stringify(next.body)).toEqual([200, bankRef]);
  });
});

describe('GET /gates/{componentId}/next-form', () => {
  it('serves each eligible unseen form once, exact, then answers curriculum:bank_exhausted', async () => {
    const learner = await tenantWithGate();
    const served: string[] = [];
    for (let round = 0; round < 3; round += 1) {
      const next = await nextForm(learner);
      expect(next.status).toBe(200);
      const form = fake.forms[round];
      expect(next.body.selected_form_ref).toEqual({
        module: 'content',
        content_kind: 'test',
        content_id: form.form_content_id,
        content_version_id: form.form_version_id,
      });
      expect(next.body).toMatchObject({
        launch: 'release',
        bank_member_ordinal: round + 1,
        seen_form_count: round,
        test_serve_authorization_id: null,
      });
      // Deterministic until the player records the form as served.
      expect((await nextForm(learner)).body.selected_form_ref).toEqual(next.body.selected_form_ref);
      await record(learner, 'assessment_started', form.form_content_id);
      served.push(form.form_content_id);
    }
    expectProblem(await nextForm(learner), 409, 'curriculum:bank_exhausted');
    // Another student, and the same student before any serving, still get the first form.
    expect((await nextForm(learner, '?studentId=stu-2')).body.selected_form_ref.content_id).toBe(served[0]);
    expect((await nextForm(learner, '?studentId=stu-1&asOfDate=2026-08-31')).body.selected_form_ref.content_id).toBe(
      served[0],
    );
  });

  it('skips ineligible forms and tells all-ineligible, version mismatch and exhaustion apart', async () => {
    const learner = await tenantWithGate();
    fake.forms[0].practice_eligible = false;
    fake.forms[0].usage_scope = 'secure_form';
    fake.forms[1].ready = false;
    fake.ineligible.add(fake.forms[2].form_version_id);
    expectProblem(await nextForm(learner), 409, 'curriculum:bank_forms_ineligible');
    fake.ineligible.clear();
    expect((await nextForm(learner)).body.selected_form_ref.content_id).toBe(fake.forms[2].form_content_id);
    await record(learner, 'assessment_started', fake.forms[2].form_content_id);
    expectProblem(await nextForm(learner), 409, 'curriculum:bank_exhausted');
    fake.answeredVersion = '00000000-0000-4000-8000-000000000000';
    expectProblem(await nextForm(learner), 409, 'curriculum:bank_version_mismatch');
  });

  it('revalidates the exact bank version first and validates at most 50 members', async () => {
    const learner = await tenantWithGate();
    fake.ineligible.add(fake.bank.content_version_id);
    expectProblem(await nextForm(learner), 409, 'curriculum:target_not_serveable');
    fake.ineligible.clear();
    fake.reset(0);
    fake.bank = (await http(platform, 'GET', gateUrl(), { token: learner.token })).body.bank_ref;
    fake.forms = Array.from({ length: 60 }, (_, index) => ({
      form_content_id: `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
      form_version_id: `10000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
      usage_scope: 'practice_eligible',
      practice_eligible: index >= 50,
      ready: true,
    }));
    expectProblem(await nextForm(learner), 409, 'curriculum:bank_forms_ineligible');
  });

  it('launches a draft gate only through content test-serve authorization of the exact selection', async () => {
    const learner = await tenantWithGate('draft');
    const launched = await nextForm(learner);
    expect(launched.status).toBe(200);
    expect(launched.body).toMatchObject({ launch: 'test_serve', test_serve_authorization_id: expect.any(String) });
    expect(fake.testServeCalls).toEqual([
      {
        bank_content_id: fake.bank.content_id,
        bank_version_id: fake.bank.content_version_id,
        form_content_id: fake.forms[0].form_content_id,
        form_version_id: fake.forms[0].form_version_id,
        test_identity_id: 'stu-1',
      },
    ]);
    fake.authorizeTestServe = false;
    expectProblem(await nextForm(learner), 409, 'curriculum:gate_not_launchable');
  });

  it('refuses a missing studentId or a malformed asOfDate', async () => {
    const learner = await tenantWithGate();
    expectProblem(await nextForm(learner, ''), 400, 'curriculum:validation_failed');
    expectProblem(await nextForm(learner, '?studentId=stu-1&asOfDate=yesterday'), 400, 'curriculum:validation_failed');
  });

  it('refuses the year 0, which the events service refuses, as a bad query, not an events fault', async () => {
    const learner = await tenantWithGate();
    for (const suffix of ['/status', '/remediation', '/next-form']) {
      const reply = await http(platform, 'GET', gateUrl(suffix, '?studentId=stu-1&asOfDate=0000-01-01'), {
        token: learner.token,
      });
      expectProblem(reply, 400, 'curriculum:validation_failed');
      expect(reply.body.fieldErrors[0].field).toBe('asOfDate');
    }
  });
});

describe('GET /gates/{componentId}/status and /remediation', () => {
  it('reads the status from the events service and maps a failed category to its remediation', async () => {
    const learner = await tenantWithGate();
    await createComponent(platform, learner, {
      component_id: 'review-1',
      kind: 'review',
      parent_component_id: 'lesson-1',
      alpha: { publication_status: 'published' },
    });
    const status = (query: string) => http(platform, 'GET', gateUrl('/status', query), { token: learner.token });
    expect((await status('?studentId=stu-1')).body).toMatchObject({
      gate_status: 'not_attempted',
      result_record_id: null,
      served_form_count: 0,
    });
    await record(learner, 'assessment_started', fake.forms[0].form_content_id, {}, '2026-09-01T10:00:00Z');
    expect((await status('?studentId=stu-1')).body.gate_status).toBe('awaiting_result');
    const failed = await record(
      learner,
      'assessment_graded',
      fake.forms[0].form_content_id,
      graded('failed', 'forgot'),
      '2026-09-01T10:30:00Z',
    );
    expect((await status('?studentId=stu-1')).body).toMatchObject({
      gate_status: 'failed',
      result_record_id: failed,
      remediation_category: 'forgot',
    });
    const remediation = await http(platform, 'GET', gateUrl('/remediation', '?studentId=stu-1'), {
      token: learner.token,
    });
    expect(remediation.status).toBe(200);
    expect(remediation.body.remediation).toEqual({
      category: 'forgot',
      kind: 'review',
      component_id: 'review-1',
      target_ref: null,
    });
    const never = await record(
      learner,
      'assessment_graded',
      fake.forms[0].form_content_id,
      graded('failed', 'never_learned'),
      '2026-09-01T11:00:00Z',
    );
    const toLesson = await http(platform, 'GET', gateUrl('/remediation', `?studentId=stu-1&resultRecordId=${never}`), {
      token: learner.token,
    });
    expect(toLesson.body.remediation).toMatchObject({
      category: 'never_learned',
      kind: 'lesson',
      component_id: 'lesson-1',
    });
    const careless = await record(
      learner,
      'assessment_graded',
      fake.forms[0].form_content_id,
      graded('failed', 'careless'),
      '2026-09-01T12:00:00Z',
    );
    expectProblem(
      await http(platform, 'GET', gateUrl('/remediation', `?studentId=stu-1&resultRecordId=${careless}`), {
        token: learner.token,
      }),
      409,
      'curriculum:remediation_target_missing',
    );
    const passed = await record(
      learner,
      'assessment_graded',
      fake.forms[1].form_content_id,
      graded('passed'),
      '2026-09-02T09:00:00Z',
    );
    expect((await status('?studentId=stu-1')).body).toMatchObject({
      gate_status: 'passed',
      result_record_id: passed,
      remediation_category: null,
    });
    // The served forms and the results come from one events read (both kinds), not one read a kind...
    const { answer, calls: eventReads } = await ownCallsDuring(platform, `${roots.events}/events?`, () =>
      status('?studentId=stu-1'),
    );
    expect(answer.body.served_form_count).toBe(1);
    // ...asked for the fields a gate reads only (orgId for a bounded token's check): no student name, so no call to the
    // people service.
    expect(eventReads).toHaveLength(1);
    const asked = new URL(eventReads[0], 'http://local').searchParams;
    expect(asked.get('kind')).toBe('assessment_started,assessment_graded');
    expect(asked.get('fields')?.split(',').sort()).toEqual([
      'contentId',
      'extensions',
      'happenedAt',
      'id',
      'kind',
      'orgId',
      'studentId',
    ]);
    expect(
      (await http(platform, 'GET', gateUrl('/remediation', '?studentId=stu-1'), { token: learner.token })).body
        .remediation,
    ).toBeNull();
    // As of an earlier day, the earlier result stands; a named result is read as it was.
    expect((await status('?studentId=stu-1&asOfDate=2026-09-01')).body.result_record_id).toBe(careless);
    expect((await status(`?studentId=stu-1&resultRecordId=${failed}`)).body).toMatchObject({
      gate_status: 'failed',
      remediation_category: 'forgot',
    });
  });

  it('answers curriculum:result_not_found for a record that is not a graded result of this student and gate', async () => {
    const learner = await tenantWithGate();
    const served = await record(learner, 'assessment_started', fake.forms[0].form_content_id);
    for (const id of [served, '00000000-0000-4000-8000-000000000000', 'not-a-uuid', 'r'.repeat(200)]) {
      expectProblem(
        await http(platform, 'GET', gateUrl('/status', `?studentId=stu-1&resultRecordId=${id}`), {
          token: learner.token,
        }),
        404,
        'curriculum:result_not_found',
      );
    }
    const graded1 = await record(learner, 'assessment_graded', fake.forms[0].form_content_id, graded('passed'));
    expectProblem(
      await http(platform, 'GET', gateUrl('/status', `?studentId=stu-2&resultRecordId=${graded1}`), {
        token: learner.token,
      }),
      404,
      'curriculum:result_not_found',
    );
    expectProblem(
      await http(platform, 'GET', gateUrl('/status'), { token: learner.token }),
      400,
      'curriculum:validation_failed',
    );
  });
});

describe("a token bounded to some students (the events service's studentIds claim)", () => {
  it("refuses the gate reads of another student's learner history, REST and GraphQL (it answered them)", async () => {
    const learner = await tenantWithGate();
    const result = await record(
      learner,
      'assessment_graded',
      fake.forms[0].form_content_id,
      graded('failed', 'forgot'),
    );
    const player = (studentIds: string[]) =>
      newTenant(platform, {
        tenantId: learner.tenantId,
        scopes: ['curriculum:read', 'events:read'],
        boundary: { studentIds },
      });
    const outside = await player(['stu-2']);
    expect((await http(platform, 'GET', `${roots.events}/events/${result}`, { token: outside.token })).body.code).toBe(
      'events:boundary_rejected',
    );
    for (const suffix of ['/status', '/remediation', '/next-form']) {
      const reply = await http(platform, 'GET', gateUrl(suffix, '?studentId=stu-1'), { token: outside.token });
      expectProblem(reply, 403, 'curriculum:forbidden');
      expect(reply.body.fieldErrors).toEqual([
        { field: 'studentId', message: "outside the token's studentIds boundary" },
      ]);
    }
    const graph = await graphql(
      platform,
      '{ gateStatus(componentId: "gate-1", studentId: "stu-1") { gateStatus resultRecordId } }',
      {},
      outside.token,
    );
    expect(graph.body.errors?.map((error: { extensions: { code: string } }) => error.extensions.code)).toEqual([
      'curriculum:forbidden',
    ]);
    const inside = await player(['stu-1']);
    const own = await http(platform, 'GET', gateUrl('/status', '?studentId=stu-1'), { token: inside.token });
    expect([own.status, own.body.result_record_id]).toEqual([200, result]);
  });
});

describe("a token bounded to organizations or content (the events service's orgIds/schoolIds and contentIds claims)", () => {
  const bounded = (learner: Learner, boundary: Record<string, string[]>) =>
    newTenant(platform, { tenantId: learner.tenantId, scopes: ['curriculum:read'], boundary });
  /** Every learner read of gate-1 for stu-1, REST and GraphQL, is 403 curriculum:forbidden with this field error. */
  async function expectGateReadsRefused(outside: Caller, fieldError: { field: string; message: string }) {
    for (const suffix of ['/status', '/remediation', '/next-form']) {
      const reply = await http(platform, 'GET', gateUrl(suffix, '?studentId=stu-1'), { token: outside.token });
      expectProblem(reply, 403, 'curriculum:forbidden');
      expect(reply.body.fieldErrors).toEqual([fieldError]);
    }
    for (const field of ['gateStatus', 'gateRemediation', 'gateNextForm']) {
      const graph = await graphql(
        platform,
        `{ ${field}(componentId: "gate-1", studentId: "stu-1") { componentId } }`,
        {},
        outside.token,
      );
      expect(graph.body.errors?.map((error: { extensions: { code: string } }) => error.extensions.code)).toEqual([
        'curriculum:forbidden',
      ]);
    }
  }

  it("refuses the gate reads whose learner history holds another organization's events (it answered them)", async () => {
    const learner = await tenantWithGate();
    const form = fake.forms[0].form_content_id;
    await record(learner, 'assessment_started', form, {}, '2026-09-01T09:00:00Z', 'org-a');
    const result = await record(learner, 'assessment_graded', form, graded('failed'), '2026-09-01T10:00:00Z', 'org-a');
    for (const claim of ['orgIds', 'schoolIds']) {
      const outside = await bounded(learner, { [claim]: ['org-b'] });
      await expectGateReadsRefused(outside, {
        field: 'orgId',
        message: "outside the token's orgIds/schoolIds boundary",
      });
    }
    const inside = await bounded(learner, { schoolIds: ['org-a'] });
    const own = await http(platform, 'GET', gateUrl('/status', '?studentId=stu-1'), { token: inside.token });
    expect([own.status, own.body.result_record_id]).toEqual([200, result]);
    await record(learner, 'assessment_started', fake.forms[1].form_content_id, {}, '2026-09-02T10:00:00Z');
    // A served form that names no organization cannot be judged against the bound: refused, not left out.
    expectProblem(
      await http(platform, 'GET', gateUrl('/next-form', '?studentId=stu-1'), { token: inside.token }),
      403,
      'curriculum:forbidden',
    );
  });

  it("refuses the gate reads of a gate whose pinned bank is outside the token's contentIds (it answered them)", async () => {
    const learner = await tenantWithGate();
    await record(learner, 'assessment_graded', fake.forms[0].form_content_id, graded('passed'));
    const outside = await bounded(learner, { contentIds: [fake.forms[0].form_content_id] });
    await expectGateReadsRefused(outside, { field: 'componentId', message: "outside the token's contentIds boundary" });
    const inside = await bounded(learner, { contentIds: [fake.bank.content_id] });
    const own = await http(platform, 'GET', gateUrl('/status', '?studentId=stu-1'), { token: inside.token });
    expect([own.status, own.body.gate_status]).toEqual([200, 'passed']);
  });
});

describe('the events service not answering', () => {
  it('fails closed with a typed problem on every gate read that needs learner history', async () => {
    const learner = await tenantWithGate();
    const events = await startFakeService();
    const realUrl = platform.runtime.config.eventsUrl;
    platform.runtime.config.eventsUrl = events.url;
    try {
      events.behave(() => {}); // never answers: the client's timeout fires
      for (const suffix of ['/next-form', '/status', '/remediation']) {
        expectProblem(
          await http(platform, 'GET', gateUrl(suffix, '?studentId=stu-1'), { token: learner.token }),
          503,
          'curriculum:events_unavailable',
        );
      }
      events.behave(json(500, { code: 'events:internal' }));
      expectProblem(await nextForm(learner), 503, 'curriculum:events_unavailable');
      events.behave(json(200, { items: [] }));
      expectProblem(await nextForm(learner), 502, 'curriculum:events_answer_invalid');
      events.behave(json(403, { code: 'events:forbidden' }));
      expectProblem(await nextForm(learner), 502, 'curriculum:events_answer_invalid');
    } finally {
      platform.runtime.config.eventsUrl = realUrl;
      await events.close();
    }
    expect((await nextForm(learner)).status).toBe(200);
  });
});

describe('the gate fields of the curriculum subgraph', () => {
  const codeOf = (reply: { body: { errors?: Array<{ extensions?: Record<string, unknown> }> } }) =>
    reply.body.errors?.[0]?.extensions?.code;
  const NEXT = `query($s: String!) { gateNextForm(componentId: "gate-1", studentId: $s) {
    launch bankMemberOrdinal selectedFormRef { contentKind contentId contentVersionId } } }`;

  it('answers contract, next form, status and remediation with the REST rules and codes', async () => {
    const learner = await tenantWithGate();
    const contract = await graphql(
      platform,
      `
        {
          gate(componentId: "gate-1") {
            launch
            maxBankMembers
            remediationMap {
              neverLearned
              forgot
              careless
            }
            bankRef {
              contentKind
              contentVersionId
            }
          }
          missing: gate(componentId: "nope") {
            componentId
          }
        }
      `,
      {},
      learner.token,
    );
    expect(contract.body.data).toEqual({
      gate: {
        launch: 'release',
        maxBankMembers: 50,
        remediationMap: { neverLearned: 'lesson', forgot: 'review', careless: 'practice' },
        bankRef: { contentKind: 'test_bank', contentVersionId: fake.bank.content_version_id },
      },
      missing: null,
    });
    for (const form of fake.forms) {
      const next = await graphql(platform, NEXT, { s: 'stu-1' }, learner.token);
      expect(next.body.data.gateNextForm.selectedFormRef).toEqual({
        contentKind: 'test',
        contentId: form.form_content_id,
        contentVersionId: form.form_version_id,
      });
      await record(learner, 'assessment_started', form.form_content_id);
    }
    expect(codeOf(await graphql(platform, NEXT, { s: 'stu-1' }, learner.token))).toBe('curriculum:bank_exhausted');
    const result = await record(
      learner,
      'assessment_graded',
      fake.forms[0].form_content_id,
      graded('failed', 'never_learned'),
      '2026-09-02T10:00:00Z',
    );
    const status = await graphql(
      platform,
      `
        query ($r: ID) {
          gateStatus(componentId: "gate-1", studentId: "stu-1", resultRecordId: $r) {
            gateStatus
            resultRecordId
            remediationCategory
            servedFormCount
          }
          gateRemediation(componentId: "gate-1", studentId: "stu-1") {
            remediation {
              category
              kind
              componentId
            }
          }
        }
      `,
      { r: result },
      learner.token,
    );
    expect(status.body.data).toEqual({
      gateStatus: {
        gateStatus: 'failed',
        resultRecordId: result,
        remediationCategory: 'never_learned',
        servedFormCount: 3,
      },
      gateRemediation: { remediation: { category: 'never_learned', kind: 'lesson', componentId: 'lesson-1' } },
    });
    const unknown = await graphql(
      platform,
      `
        {
          gateStatus(componentId: "gate-1", studentId: "stu-1", resultRecordId: "nope") {
            gateStatus
          }
        }
      `,
      {},
      learner.token,
    );
    expect(codeOf(unknown)).toBe('curriculum:result_not_found');
  });
});
