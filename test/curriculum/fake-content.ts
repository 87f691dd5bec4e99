import { startFakeService } from '../fake-service.ts';

/**
 * A stand-in for content's release-eligibility read, started by a test, so every failure of the
 * eligibility call can be produced on demand. It answers for the ids in the URL, so a well-formed
 * eligible answer always names the version that was asked.
 */

export type FakeMode =
  | 'eligible'
  | 'timeout'
  | '500'
  | '503'
  | 'reset'
  | 'truncated'
  | 'wrong_id'
  | 'wrong_version'
  | 'ineligible'
  | 'not_practice'
  | 'failed_trust'
  | 'missing'
  | 'missing_fields'
  | 'kind_mismatch'
  | 'untyped_problem';

export interface FakeContent {
  url: string;
  mode: FakeMode;
  /** content_kind answered per content_version_id (article otherwise). */
  kinds: Map<string, string>;
  calls: number;
  /** The path of the last call, to show which tenant and exact version were asked. */
  lastPath: string;
  close(): Promise<void>;
}

const PATH = /\/tenants\/[^/]+\/alpha\/content\/items\/([^/]+)\/versions\/([^/]+)\/release-eligibility$/;

export async function startFakeContent(): Promise<FakeContent> {
  const fake: FakeContent = {
    url: '',
    mode: 'eligible',
    kinds: new Map(),
    calls: 0,
    lastPath: '',
    close: async () => {},
  };
  const service = await startFakeService();
  service.behave((request, response) => {
    fake.calls += 1;
    fake.lastPath = (request.url ?? '').split('?')[0];
    const match = PATH.exec(fake.lastPath);
    if (!match) {
      response
        .writeHead(404, { 'content-type': 'application/problem+json' })
        .end(JSON.stringify({ code: 'content.not_found', status: 404 }));
      return;
    }
    const [, contentId, versionId] = match;
    const answer = {
      content_id: contentId,
      content_version_id: versionId,
      content_kind: fake.kinds.get(versionId) ?? 'article',
      usage_scope: 'practice_eligible',
      trust_status: 'trusted',
      serveable: true,
      release_eligible: true,
      problem_code: null as string | null,
    };
    const json = (status: number, body: unknown) =>
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    switch (fake.mode) {
      case 'eligible':
        return json(200, answer);
      case 'timeout':
        return; // never answers; the client's timeout must fire
      case '500':
        return json(500, { code: 'content.internal_error', status: 500 });
      case '503':
        return json(503, { code: 'content.unavailable', status: 503 });
      case 'reset':
        request.socket.destroy();
        return;
      case 'truncated':
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer).slice(0, 40));
        return;
      case 'wrong_id':
        return json(200, { ...answer, content_id: '00000000-0000-4000-8000-000000000000' });
      case 'wrong_version':
        return json(200, { ...answer, content_version_id: '00000000-0000-4000-8000-000000000000' });
      case 'ineligible':
        return json(200, {
          ...answer,
          serveable: false,
          release_eligible: false,
          problem_code: 'content.version_not_serveable',
        });
      case 'not_practice':
        return json(200, { ...answer, usage_scope: 'secure_form' });
      case 'failed_trust':
        return json(200, { ...answer, trust_status: 'failed' });
      case 'missing':
        return json(404, { code: 'content.not_found', status: 404 });
      case 'missing_fields': {
        const { serveable: _serveable, ...partial } = answer;
        return json(200, partial);
      }
      case 'kind_mismatch':
        return json(200, { ...answer, content_kind: 'video' });
      case 'untyped_problem':
        return json(422, { message: 'no code here' });
    }
  });
  fake.url = service.url;
  fake.close = () => service.close();
  return fake;
}
