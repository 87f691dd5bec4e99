import { randomUUID } from 'node:crypto';
import { startFakeService } from '../fake-service.ts';

/**
 * A stand-in for the three content reads a mastery gate makes (release eligibility, bank members
 * of one exact version, test-serve authorization), so every bank state can be produced on demand.
 */

export interface FakeForm {
  form_content_id: string;
  form_version_id: string;
  usage_scope: string;
  practice_eligible: boolean;
  ready: boolean;
}

export interface FakeBankContent {
  url: string;
  bank: { content_id: string; content_version_id: string };
  forms: FakeForm[];
  /** Form versions whose release eligibility content refuses. */
  ineligible: Set<string>;
  /** When set, bank-members answers for this version instead of the one asked. */
  answeredVersion: string | undefined;
  authorizeTestServe: boolean;
  testServeCalls: Array<Record<string, unknown>>;
  reset(formCount: number): void;
  close(): Promise<void>;
}

const ELIGIBILITY = /\/items\/([^/]+)\/versions\/([^/]+)\/release-eligibility$/;
const MEMBERS = /\/items\/([^/]+)\/bank-members$/;

export const newForm = (): FakeForm => ({
  form_content_id: randomUUID(),
  form_version_id: randomUUID(),
  usage_scope: 'practice_eligible',
  practice_eligible: true,
  ready: true,
});

export async function startFakeBankContent(): Promise<FakeBankContent> {
  const service = await startFakeService();
  const fake: FakeBankContent = {
    url: service.url,
    bank: { content_id: randomUUID(), content_version_id: randomUUID() },
    forms: [],
    ineligible: new Set(),
    answeredVersion: undefined,
    authorizeTestServe: true,
    testServeCalls: [],
    reset(formCount) {
      fake.bank = { content_id: randomUUID(), content_version_id: randomUUID() };
      fake.forms = Array.from({ length: formCount }, newForm);
      fake.ineligible = new Set();
      fake.answeredVersion = undefined;
      fake.authorizeTestServe = true;
      fake.testServeCalls = [];
    },
    close: () => service.close(),
  };
  service.behave((request, response) => {
    const json = (status: number, body: unknown) =>
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    const url = new URL(request.url ?? '/', 'http://fake');
    const eligibility = ELIGIBILITY.exec(url.pathname);
    if (eligibility) {
      const [, contentId, versionId] = eligibility;
      const refused = fake.ineligible.has(versionId);
      return json(200, {
        content_id: contentId,
        content_version_id: versionId,
        content_kind: contentId === fake.bank.content_id ? 'test_bank' : 'test',
        usage_scope: 'practice_eligible',
        trust_status: 'trusted',
        serveable: !refused,
        release_eligible: !refused,
        problem_code: refused ? 'content.version_not_serveable' : null,
      });
    }
    const members = MEMBERS.exec(url.pathname);
    if (members) {
      return json(200, {
        content_id: members[1],
        version_id: fake.answeredVersion ?? url.searchParams.get('version_id'),
        membership_rule: 'same_blueprint_fixed_forms',
        members: fake.forms.map((form, index) => ({
          reference_id: randomUUID(),
          ordinal: index + 1,
          question_count: 2,
          not_ready_reason: null,
          ...form,
        })),
      });
    }
    if (url.pathname.endsWith('/test-serve-authorizations') && request.method === 'POST') {
      let text = '';
      request.on('data', (chunk) => (text += chunk));
      request.on('end', () => {
        const body = JSON.parse(text) as Record<string, unknown>;
        fake.testServeCalls.push(body);
        if (!fake.authorizeTestServe) {
          return json(409, {
            code: 'content.test_serve_not_authorized',
            status: 409,
            fieldErrors: [{ field: 'test_identity_id', message: 'person reality is real' }],
          });
        }
        return json(201, { authorization_id: randomUUID(), ...body });
      });
      return;
    }
    json(404, { code: 'content.not_found', status: 404 });
  });
  return fake;
}
