import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import type { FastifyInstance } from 'fastify';

/**
 * A GraphQL explorer that works offline: GraphiQL and React from this platform's own npm packages,
 * served next to /graphql. Apollo Sandbox (the landing page of /graphql) needs the internet; this
 * page needs nothing but the platform. Auth is the same header flow: paste a bearer token into the
 * Headers editor.
 */

export const GRAPHIQL_PATH = '/graphiql';

const require = createRequire(import.meta.url);

/** Every asset is read once at start; the page asks for nothing from any other origin. */
const ASSETS: Record<string, { packageName: string; file: string; type: string }> = {
  'react.js': {
    packageName: 'react',
    file: 'umd/react.production.min.js',
    type: 'application/javascript; charset=utf-8',
  },
  'react-dom.js': {
    packageName: 'react-dom',
    file: 'umd/react-dom.production.min.js',
    type: 'application/javascript; charset=utf-8',
  },
  'graphiql.js': { packageName: 'graphiql', file: 'graphiql.min.js', type: 'application/javascript; charset=utf-8' },
  'graphiql.css': { packageName: 'graphiql', file: 'graphiql.min.css', type: 'text/css; charset=utf-8' },
};

/** The packages' exports maps do not list their browser bundles, so they are found beside package.json. */
function assetFile(asset: { packageName: string; file: string }): string {
  return path.join(path.dirname(require.resolve(`${asset.packageName}/package.json`)), asset.file);
}

const DEFAULT_HEADERS = JSON.stringify(
  { Authorization: 'Bearer <token from POST /curriculum/alpha/implementation/api/dev/mint?tenantId=demo>' },
  null,
  2,
);

const DEFAULT_QUERY = `# The headline query: a component, its pinned exact content version, and that version's live
# release eligibility. Put a token in the Headers tab first.
query Headline($id: ID! = "demo-lesson-what-is-a-fraction") {
  component(componentId: $id) {
    componentId
    kind
    alpha {
      targetRef {
        contentId
        contentVersionId
        version { versionNumber releaseEligibility { releaseEligible trustStatus usageScope problemCode } }
      }
    }
  }
}
`;

function page(): string {
  const options = JSON.stringify({ defaultHeaders: DEFAULT_HEADERS, defaultQuery: DEFAULT_QUERY });
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>GraphiQL: adaptive-learning platform</title>
  <style>body { margin: 0; height: 100vh; } #graphiql { height: 100vh; }</style>
  <link rel="stylesheet" href="${GRAPHIQL_PATH}/assets/graphiql.css">
  <script src="${GRAPHIQL_PATH}/assets/react.js"></script>
  <script src="${GRAPHIQL_PATH}/assets/react-dom.js"></script>
  <script src="${GRAPHIQL_PATH}/assets/graphiql.js"></script>
</head>
<body>
  <div id="graphiql">Loading GraphiQL...</div>
  <script>
    const options = ${options};
    const fetcher = GraphiQL.createFetcher({ url: new URL('/graphql', window.location.href).href });
    ReactDOM.createRoot(document.getElementById('graphiql')).render(
      React.createElement(GraphiQL, {
        fetcher,
        defaultQuery: options.defaultQuery,
        defaultHeaders: options.defaultHeaders,
        headerEditorEnabled: true,
        shouldPersistHeaders: false,
      }),
    );
  </script>
</body>
</html>`;
}

export function mountGraphiql(app: FastifyInstance): void {
  const html = page();
  const assets = new Map(
    Object.entries(ASSETS).map(([name, asset]) => [
      name,
      { body: fs.readFileSync(assetFile(asset)), type: asset.type },
    ]),
  );
  app.get(GRAPHIQL_PATH, { schema: { hide: true } }, async (_request, reply) =>
    reply.type('text/html; charset=utf-8').send(html),
  );
  app.get<{ Params: { name: string } }>(
    `${GRAPHIQL_PATH}/assets/:name`,
    { schema: { hide: true } },
    async (request, reply) => {
      const asset = assets.get(request.params.name);
      if (!asset) return reply.callNotFound();
      return reply.header('cache-control', 'public, max-age=86400').type(asset.type).send(asset.body);
    },
  );
}
