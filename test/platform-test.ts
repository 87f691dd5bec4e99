import { test } from 'vitest';
import { http, graphql, newTenant, startTestPlatform, type Caller, type Reply, type TestPlatform } from './kit.ts';

export type PlatformTestOptions = Parameters<typeof startTestPlatform>[0];

/** A caller bound to its platform: the tenant's token goes with every request. */
export interface BoundCaller extends Caller {
  http<T = unknown>(
    method: string,
    url: string,
    options?: Omit<Parameters<typeof http>[3], 'token'>,
  ): Promise<Reply<T>>;
  graphql(query: string, variables?: Record<string, unknown>): Promise<Reply>;
}

let filesPlatform: TestPlatform | undefined;

/**
 * The platform of this test file's fixture, for a file's own request helpers (tests take `platform` from
 * their context). Each test file runs in its own module instance, so this is never another file's.
 */
export function filePlatform(): TestPlatform {
  if (!filesPlatform) throw new Error('no platform yet: create the test with platformTest() and call this from a test');
  return filesPlatform;
}

/**
 * The HTTP/GraphQL tier's fixtures: `platform` is started once per test file (lazily, when a test first
 * asks for it) and closed after the file; `tenant` is a fresh tenant per test with the demo grant;
 * `client` is that tenant's HTTP and GraphQL client (not `caller`: vitest's context refuses that name). Options may be a function, read when the platform
 * starts, so a file can point the platform at a fake service it started in a `beforeAll` registered
 * before this call.
 */
export function platformTest(options: PlatformTestOptions | (() => PlatformTestOptions) = {}) {
  const platformTest = test
    // eslint-disable-next-line no-empty-pattern -- vitest reads a fixture's dependencies from this pattern
    .extend('platform', { scope: 'file' }, async ({}, { onCleanup }) => {
      const platform = await startTestPlatform(typeof options === 'function' ? options() : options);
      filesPlatform = platform;
      onCleanup(async () => {
        filesPlatform = undefined;
        await platform.close();
      });
      return platform;
    })
    .extend('tenant', async ({ platform }) => newTenant(platform))
    .extend('client', async ({ platform, tenant }): Promise<BoundCaller> => ({
      ...tenant,
      http: (method, url, requestOptions = {}) =>
        http(platform, method, url, { ...requestOptions, token: tenant.token }),
      graphql: (query, variables = {}) => graphql(platform, query, variables, tenant.token),
    }));
  // Started in a hook, so the start counts against the hook timeout rather than the first test's.
  platformTest.beforeAll(async ({ platform }) => {
    if (!platform.url) throw new Error('the test platform did not start');
  });
  return platformTest;
}

export type { TestPlatform };
