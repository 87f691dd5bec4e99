import { startFakeService } from '../fake-service.ts';

/**
 * A stand-in of curriculum's KC read for content tests, served over real HTTP: it answers
 * GET .../alpha/curriculum/v1/kcs/{kcId} from a map, and can be told to hang or fail.
 */
export interface FakeCurriculum {
  url: string;
  kcs: Map<string, Record<string, unknown> | 'hang' | 'error' | 'garbage'>;
  /** Component trees by root id, answered at .../v1/components/{id}/tree. */
  trees: Map<string, Record<string, unknown> | 'error'>;
  requests: Array<{ path: string; authorization: string | undefined }>;
  close(): Promise<void>;
}

export async function startFakeCurriculum(): Promise<FakeCurriculum> {
  const kcs: FakeCurriculum['kcs'] = new Map();
  const trees: FakeCurriculum['trees'] = new Map();
  const requests: FakeCurriculum['requests'] = [];
  const service = await startFakeService();
  service.behave((request, response) => {
    requests.push({ path: request.url ?? '', authorization: request.headers.authorization });
    const match = /\/alpha\/curriculum\/v1\/kcs\/([^/?]+)$/.exec(request.url ?? '');
    const tree = /\/alpha\/curriculum\/v1\/components\/([^/?]+)\/tree$/.exec(request.url ?? '');
    const answer = match
      ? kcs.get(decodeURIComponent(match[1]))
      : tree
        ? trees.get(decodeURIComponent(tree[1]))
        : undefined;
    if (!request.headers.authorization?.startsWith('Bearer ')) {
      response
        .writeHead(401, { 'content-type': 'application/problem+json' })
        .end(JSON.stringify({ code: 'curriculum:unauthenticated' }));
    } else if (answer === 'hang') {
      setTimeout(() => response.writeHead(200).end('{}'), 3000).unref();
    } else if (answer === 'error') {
      response
        .writeHead(500, { 'content-type': 'application/problem+json' })
        .end(JSON.stringify({ code: 'curriculum:internal_error' }));
    } else if (answer === 'garbage') {
      response.writeHead(200, { 'content-type': 'text/html' }).end('<html>');
    } else if (answer) {
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    } else {
      response
        .writeHead(404, { 'content-type': 'application/problem+json' })
        .end(JSON.stringify({ code: 'curriculum:not_found' }));
    }
  });
  return {
    url: `${service.url}/curriculum/alpha/implementation/api`,
    kcs,
    trees,
    requests,
    close: () => service.close(),
  };
}

export function registryKc(kcId: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    kc_id: kcId,
    stored_as: 'alpha.knowledge_component',
    definition: 'Adds fractions',
    publication_status: 'published',
    ...extra,
  };
}
