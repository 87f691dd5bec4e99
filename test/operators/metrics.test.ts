import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { curriculumV1, graphql, http, newTenant, startTestPlatform, type TestPlatform } from '../kit.ts';
import { noDatabase } from '../../platform/db.ts';
import { PlatformMetrics } from '../../platform/metrics.ts';

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform();
});
afterAll(() => platform.close());

/** The value of one sample line of the exposition, or undefined. */
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  const wanted = Object.entries(labels).map(([key, value]) => `${key}="${value}"`);
  const line = text
    .split('\n')
    .find((candidate) => candidate.startsWith(`${name}{`) && wanted.every((label) => candidate.includes(label)));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}

describe('GET /metrics', () => {
  it('counts requests and latency per route, GraphQL operations, problems by code, and pool figures', async () => {
    const caller = await newTenant(platform);
    for (let i = 0; i < 3; i += 1)
      await http(platform, 'GET', `${curriculumV1}/components/missing-${i}`, { token: caller.token });
    await graphql(
      platform,
      'query MetricsProbe { component(componentId: "missing") { componentId } }',
      {},
      caller.token,
    );

    const response = await fetch(`${platform.url}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/plain');
    const text = await response.text();
    const route = '/curriculum/alpha/implementation/api/alpha/curriculum/v1/components/:componentId';
    expect(sample(text, 'http_requests_total', { method: 'GET', route, status: '404' })).toBe(3);
    expect(sample(text, 'http_request_duration_seconds_count', { method: 'GET', route })).toBe(3);
    // Buckets are cumulative and end at the count; the sum is positive seconds.
    const buckets = text
      .split('\n')
      .filter((line) => line.startsWith('http_request_duration_seconds_bucket{') && line.includes(`route="${route}"`))
      .map((line) => Number(line.slice(line.lastIndexOf(' ') + 1)));
    expect(buckets).toHaveLength(13);
    expect(buckets).toEqual([...buckets].sort((a, b) => a - b));
    expect(sample(text, 'http_request_duration_seconds_bucket', { method: 'GET', route, le: '+Inf' })).toBe(3);
    expect(sample(text, 'http_request_duration_seconds_sum', { method: 'GET', route })).toBeGreaterThan(0);
    expect(sample(text, 'http_requests_total', { method: 'GET', route: '/readyz', status: '200' })).toBeUndefined();
    expect(sample(text, 'problems_total', { code: 'curriculum:not_found', transport: 'rest' })).toBe(3);
    expect(sample(text, 'graphql_operations_total', { endpoint: 'gateway', operation: 'MetricsProbe' })).toBe(1);
    expect(
      sample(text, 'graphql_operation_duration_seconds_count', { endpoint: 'gateway', operation: 'MetricsProbe' }),
    ).toBe(1);
    const { driver, pool } = platform.runtime.database;
    expect(sample(text, 'db_pool_max_connections', { driver, pool: 'writes' })).toBeGreaterThan(0);
    expect(sample(text, 'db_pool_max_connections', { driver, pool: 'reads' })).toBe(pool.readMax);
    expect(sample(text, 'db_transactions_in_flight', { driver: platform.runtime.database.driver })).toBe(0);
    expect(text).toMatch(/^db_statements_total \d+$/m);
  });
});

describe('GraphQL operation names in the metrics', () => {
  it('counts the names past the 500th as (other), so a client cannot grow the exposition without bound', async () => {
    const metrics = new PlatformMetrics(noDatabase());
    for (let i = 0; i < 600; i += 1)
      metrics.countDirectGraphqlOperation('gateway', `Probe${i}`, process.hrtime.bigint());
    metrics.countDirectGraphqlOperation('gateway', 'Probe7', process.hrtime.bigint());
    const text = await metrics.registry.metrics();
    expect(sample(text, 'graphql_operations_total', { endpoint: 'gateway', operation: 'Probe7' })).toBe(2);
    expect(sample(text, 'graphql_operations_total', { endpoint: 'gateway', operation: 'Probe499' })).toBe(1);
    expect(sample(text, 'graphql_operations_total', { endpoint: 'gateway', operation: 'Probe500' })).toBeUndefined();
    expect(sample(text, 'graphql_operations_total', { endpoint: 'gateway', operation: '(other)' })).toBe(100);
    expect(
      sample(text, 'graphql_operation_duration_seconds_count', { endpoint: 'gateway', operation: '(other)' }),
    ).toBe(100);
    expect(sample(text, 'graphql_direct_answers_total', { endpoint: 'gateway' })).toBe(601);
  });
});
