import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphqlSettingsFrom, loadConfig } from '../../platform/config.ts';
import { newTenant, startTestPlatform, type TestPlatform } from '../kit.ts';

/**
 * Production posture is one switch (PLATFORM_ENV, else NODE_ENV): introspection, the Sandbox and
 * stack traces follow it. Apollo's own default for stack traces follows NODE_ENV, so these tests run
 * the platform under NODE_ENV=development, where Apollo would otherwise include them.
 */
/** Each test starts its own platform(s): allow for a busy machine. */
const STARTS_PLATFORMS = 180_000;
const warnings: Error[] = [];
const recordWarning = (warning: Error) => warnings.push(warning);
let nodeEnv: string | undefined;
beforeAll(() => {
  nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'development';
  delete process.env.APOLLO_TELEMETRY_DISABLED;
  process.on('warning', recordWarning);
});
afterAll(() => {
  process.env.NODE_ENV = nodeEnv;
  process.off('warning', recordWarning);
  expect(warnings.map((warning) => warning.name)).not.toContain('MetadataLookupWarning');
});

async function withPlatform(
  env: Record<string, string>,
  check: (platform: TestPlatform) => Promise<void>,
): Promise<void> {
  const platform = await startTestPlatform({ env });
  try {
    await check(platform);
  } finally {
    await platform.close();
  }
}

async function post(platform: TestPlatform, body: Record<string, unknown>, token?: string) {
  const response = await fetch(`${platform.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return { status: response.status, text: await response.text() };
}

const sandboxRequest = (platform: TestPlatform) =>
  fetch(`${platform.url}/graphql`, { headers: { accept: 'text/html' } });
const introspection = { query: '{ __schema { queryType { name } } }' };
/** A subgraph's refusal passed through the gateway, a gateway-side validation error and a parse error. */
const failing = [{ query: '{ component(componentId: "x") { componentId } }' }, { query: '{ nope }' }, { query: '{' }];

describe('the production switch', () => {
  it('PLATFORM_ENV, else NODE_ENV, decides; each setting can still be set on its own', () => {
    expect(loadConfig({ NODE_ENV: 'production' }).production).toBe(true);
    expect(loadConfig({ NODE_ENV: 'production', PLATFORM_ENV: 'development' }).production).toBe(false);
    expect(loadConfig({ PLATFORM_ENV: 'production' }).devRoutes).toBe(false);
    expect(loadConfig({ PLATFORM_ENV: 'production', DEV_ROUTES: 'on' }).devRoutes).toBe(true);
    expect(loadConfig({}).devRoutes).toBe(true);
    expect(loadConfig({ PLATFORM_ENV: 'production' }).answerChecks).toBe(false);
    expect(loadConfig({ PLATFORM_ENV: 'production', ANSWER_CHECKS: 'on' }).answerChecks).toBe(true);
    expect(loadConfig({}).answerChecks).toBe(true);
    expect(graphqlSettingsFrom({}, true)).toMatchObject({
      introspection: false,
      sandbox: false,
      stackTraces: false,
      apolloTelemetry: false,
    });
    expect(graphqlSettingsFrom({}, false)).toMatchObject({
      introspection: true,
      sandbox: true,
      stackTraces: false,
      apolloTelemetry: false,
    });
    expect(graphqlSettingsFrom({ GRAPHQL_INTROSPECTION: 'on', GRAPHQL_STACK_TRACES: 'on' }, true)).toMatchObject({
      introspection: true,
      stackTraces: false,
    });
    expect(() => graphqlSettingsFrom({ GRAPHQL_SANDBOX: 'maybe' }, false)).toThrow(/GRAPHQL_SANDBOX/);
  });

  it(
    'in production: no introspection, no Sandbox, no stack traces',
    async () => {
      await withPlatform({ PLATFORM_ENV: 'production', GRAPHQL_STACK_TRACES: 'on' }, async (platform) => {
        const token = (await newTenant(platform)).token;
        const refused = await post(platform, introspection, token);
        expect(refused.status).toBe(400);
        expect(JSON.parse(refused.text).errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
        expect(await (await sandboxRequest(platform)).text()).not.toMatch(/sandbox/i);
        for (const body of failing)
          expect((await post(platform, body)).text).not.toMatch(/stacktrace|\/work\/|node_modules/);
      });
    },
    STARTS_PLATFORMS,
  );

  it(
    'in development: introspection and the Sandbox, still no stack traces unless opted in',
    async () => {
      await withPlatform({}, async (platform) => {
        const token = (await newTenant(platform)).token;
        expect((await post(platform, introspection, token)).status).toBe(200);
        expect(await (await sandboxRequest(platform)).text()).toMatch(/sandbox/i);
        for (const body of failing) expect((await post(platform, body)).text).not.toMatch(/stacktrace|node_modules/);
      });
      await withPlatform({ GRAPHQL_STACK_TRACES: 'on' }, async (platform) => {
        expect((await post(platform, failing[1])).text).toMatch(/stacktrace/);
      });
    },
    STARTS_PLATFORMS,
  );

  it(
    'the gateway does not phone home: Apollo telemetry is off unless APOLLO_TELEMETRY=on',
    async () => {
      await withPlatform({}, async () => {
        expect(process.env.APOLLO_TELEMETRY_DISABLED).toBe('true');
      });
    },
    STARTS_PLATFORMS,
  );
});
