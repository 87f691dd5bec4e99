import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';

const require = createRequire(import.meta.url);

export default defineConfig({
  resolve: {
    // Apollo's CommonJS packages require graphql's CJS build; ours must be the very same instance
    // (graphql refuses schemas from "another realm"), as it is under plain Node.
    alias: [{ find: /^graphql$/, replacement: require.resolve('graphql') }],
  },
  test: {
    include: ['test/**/*.test.ts', 'subgraphs/**/*.test.ts', 'platform/**/*.test.ts', 'bench/**/*.test.ts'],
    setupFiles: ['test/setup/openapi-conformance.ts'],
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 120_000,
    reporters: ['default'],
  },
});
