import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { http, tenantRoot, type Caller, type TestPlatform } from '../kit.ts';

/** Small builders for content tests: every call goes through the documented REST paths. */
export async function createItem(platform: TestPlatform, caller: Caller, body: Record<string, unknown>) {
  const created = await http(platform, 'POST', `${tenantRoot(caller.tenantId)}/items`, {
    token: caller.token,
    headers: { 'idempotency-key': randomUUID() },
    body: { title: 'Item', ...body },
  });
  if (created.status !== 201) throw new Error(`create failed: ${JSON.stringify(created.body)}`);
  return created.body as Record<string, any> & { content_id: string; latest_version_id: string; etag: string };
}

/** A 1x1 PNG. */
export const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000a49444154789c6360000002000154a24f5d0000000049454e44ae426082',
  'hex',
);

/** Uploads PNG as the item's thumbnail. */
export async function uploadPng(platform: TestPlatform, caller: Caller, contentId: string) {
  return http(platform, 'POST', `${tenantRoot(caller.tenantId)}/items/${contentId}/media`, {
    token: caller.token,
    body: {
      media_kind: 'thumbnail',
      mime_type: 'image/png',
      file_name: 'dot.png',
      data_base64: PNG.toString('base64'),
    },
  });
}

/** A POST under the caller's tenant root, as the caller. */
export async function postAs(platform: TestPlatform, caller: Caller, path: string, body: unknown) {
  return http(platform, 'POST', `${tenantRoot(caller.tenantId)}${path}`, { token: caller.token, body });
}

export type ExactVersion = { content_id: string; latest_version_id: string };

/** A draft test bank whose membership rule takes bank_member rows. */
export async function createBank(platform: TestPlatform, caller: Caller) {
  return createItem(platform, caller, { content_kind: 'test_bank', membership_rule: 'same_blueprint_fixed_forms' });
}

/** The bank_member reference that puts an exact form version at `ordinal` of an exact bank version. */
export function bankMember(bank: { latest_version_id: string }, form: ExactVersion, ordinal: number) {
  return {
    relationship_kind: 'bank_member',
    referenced_content_id: form.content_id,
    parent_version_id: bank.latest_version_id,
    referenced_version_id: form.latest_version_id,
    ordinal,
  };
}

/** A test form whose exact version embeds one new question tagged with the KC `kcId`. */
export async function formTaggedWith(
  platform: TestPlatform,
  caller: Caller,
  kcId: string,
  formExtra: Record<string, unknown> = {},
) {
  const question = await createItem(platform, caller, { content_kind: 'question' });
  const tag = await postAs(platform, caller, `/items/${question.content_id}/kc-tags`, { kc_id: kcId, weight: 1 });
  expect(tag.status).toBe(201);
  const form = await createItem(platform, caller, { content_kind: 'test', ...formExtra });
  const embeds = await postAs(platform, caller, `/items/${form.content_id}/references`, {
    relationship_kind: 'embeds',
    referenced_content_id: question.content_id,
    parent_version_id: form.latest_version_id,
    referenced_version_id: question.latest_version_id,
    ordinal: 1,
  });
  expect(embeds.status).toBe(201);
  return { question, form, embedsId: embeds.body.reference_id as string };
}

export async function appendVersion(
  platform: TestPlatform,
  caller: Caller,
  contentId: string,
  body: Record<string, unknown>,
) {
  const appended = await http(platform, 'POST', `${tenantRoot(caller.tenantId)}/items/${contentId}/versions`, {
    token: caller.token,
    body,
  });
  if (appended.status !== 201) throw new Error(`append failed: ${JSON.stringify(appended.body)}`);
  return appended.body as Record<string, any> & { version_id: string };
}

/** Reads a resource before and after a refused write: it must be byte-for-byte unchanged. */
export async function expectUnchanged(
  platform: TestPlatform,
  caller: Caller,
  path: string,
  refusedWrite: () => Promise<unknown>,
) {
  const before = await http(platform, 'GET', `${tenantRoot(caller.tenantId)}${path}`, { token: caller.token });
  await refusedWrite();
  const after = await http(platform, 'GET', `${tenantRoot(caller.tenantId)}${path}`, { token: caller.token });
  expect(after.status).toBe(before.status);
  expect(stable(after.body)).toEqual(stable(before.body));
}

export const blueprint = {
  kc_coverage: { 'kc-fractions': { dok1: 2, dok2: 1 }, 'kc-decimals': { dok3: 1 } },
  item_type_mix: { choice: 3, text_entry: 1 },
  difficulty_constraints: { min_p_value: 0.2 },
  passing_rule: { min_percent: 70 },
  min_forms: 2,
  max_item_overlap: 0.25,
  enemy_item_rule: { pairs: [] },
};

/** A body without the per-request ids that problems carry. */
function stable(body: unknown): unknown {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return body;
  const { requestId: _r, traceId: _t, ...rest } = body as Record<string, unknown>;
  return rest;
}

export const QTI3_ITEM = `<?xml version="1.0" encoding="UTF-8"?>
<qti-assessment-item xmlns="http://www.imsglobal.org/xsd/imsqtiasi_v3p0" identifier="q-fractions" title="Half">
  <qti-response-declaration identifier="RESPONSE" cardinality="single" base-type="identifier">
    <qti-correct-response><qti-value>B</qti-value></qti-correct-response>
  </qti-response-declaration>
  <qti-response-declaration identifier="R2" cardinality="single" base-type="string">
    <qti-correct-response><qti-value>0.5</qti-value></qti-correct-response>
  </qti-response-declaration>
  <qti-outcome-declaration identifier="SCORE" cardinality="single" base-type="float"/>
  <qti-item-body>
    <qti-choice-interaction response-identifier="RESPONSE" max-choices="1">
      <qti-prompt>Which is one half?</qti-prompt>
      <qti-simple-choice identifier="A">1/3</qti-simple-choice>
      <qti-simple-choice identifier="B">1/2</qti-simple-choice>
      <qti-simple-choice identifier="C">2/3</qti-simple-choice>
    </qti-choice-interaction>
    <p>As a decimal: <qti-text-entry-interaction response-identifier="R2"/></p>
    <qti-rubric-block identifier="rb1" view="scorer"><p>Full credit for B.</p></qti-rubric-block>
  </qti-item-body>
  <qti-response-processing template="https://purl.imsglobal.org/spec/qti/v3p0/rptemplates/match_correct"/>
  <qti-modal-feedback identifier="fb1" outcome-identifier="FEEDBACK" show-hide="show">Halves are two equal parts.</qti-modal-feedback>
</qti-assessment-item>`;
