import { defineConfig } from 'vitest/config';

export default defineConfig({
  // graphql ships CommonJS (main) and ESM (module) builds. Node loads the CommonJS one for every
  // importer; vite would pick the ESM one for our code while Apollo requires the CommonJS one, and
  // two graphql instances refuse each other's schemas. Resolve it the way Node does.
  resolve: { alias: [{ find: /^graphql$/, replacement: 'graphql/index.js' }] },
  test: {
    include: ['test/**/*.test.ts', 'subgraphs/**/*.test.ts', 'platform/**/*.test.ts'],
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 120_000,
    reporters: ['default'],
  },
});
