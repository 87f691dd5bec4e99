// @ts-check
import eslint from '@eslint/js';
import tseslint from 'typescript-eslint';

const SUBGRAPHS = ['content', 'curriculum', 'events', 'people'];

/**
 * A subgraph owns its tables and answers other services only through its published HTTP API, so a file
 * under subgraphs/<a>/ may not import anything under subgraphs/<b>/: the import would couple two
 * deployables and let one read the other's tables behind its API.
 */
const subgraphBoundaries = SUBGRAPHS.map((service) => ({
  files: [`subgraphs/${service}/**/*.ts`],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            regex: `(^|/)(\\.\\./)+(subgraphs/)?(${SUBGRAPHS.filter((other) => other !== service).join('|')})/`,
            message: `subgraphs/${service} may not import another service's folder; call its HTTP API.`,
          },
        ],
      },
    ],
  },
}));

/**
 * Domain rules are written once, in *.service.ts, and both transports adapt them; a service that
 * imported an HTTP or GraphQL package would tie the rule to one transport. Restated in full because
 * a later block's no-restricted-imports replaces an earlier one's options.
 */
const serviceTransportFree = SUBGRAPHS.map((service) => ({
  files: [`subgraphs/${service}/**/*.service.ts`],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        paths: [
          { name: 'fastify', message: 'services import no HTTP package; put it in the *.routes.ts adapter.' },
          { name: 'graphql', message: 'services import no GraphQL package; put it in the resolvers.' },
        ],
        patterns: [
          {
            group: ['@fastify/*', '@apollo/*', '@as-integrations/*', 'graphql/*', 'graphql-scalars'],
            message: 'services import no HTTP or GraphQL package; adapters (routes, resolvers) do.',
          },
          {
            regex: `(^|/)(\\.\\./)+(subgraphs/)?(${SUBGRAPHS.filter((other) => other !== service).join('|')})/`,
            message: `subgraphs/${service} may not import another service's folder; call its HTTP API.`,
          },
        ],
      },
    ],
  },
}));

export default tseslint.config(
  { ignores: ['node_modules/', 'coverage/', '.data/', 'drizzle/*/meta/', 'test/fixtures/', 'subgraphs/*/generated/'] },
  eslint.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      // Type-aware rules are cheap with the project service (one program, as tsc builds) and catch the
      // unawaited promise that a test or a handler silently drops.
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  ...subgraphBoundaries,
  ...serviceTransportFree,
  {
    // Tests read JSON answers of many shapes; `any` there is a reply body, not a typing gap in the code.
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['**/*.js'],
    ...tseslint.configs.disableTypeChecked,
  },
);
