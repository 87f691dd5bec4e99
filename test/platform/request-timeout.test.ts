import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../platform/config.ts';
import { startTestPlatform } from '../kit.ts';
import { rawExchange } from '../net.ts';

describe('REQUEST_TIMEOUT_MS', () => {
  it('is 120 s unless set, and never off', () => {
    expect(loadConfig({}).requestTimeoutMs).toBe(120_000);
    expect(loadConfig({ REQUEST_TIMEOUT_MS: '5000' }).requestTimeoutMs).toBe(5000);
    expect(() => loadConfig({ REQUEST_TIMEOUT_MS: '0' })).toThrow(/REQUEST_TIMEOUT_MS must be at least 1/);
  });

  it('answers a command whose body stops arriving with a 408 problem and closes the connection', async () => {
    const platform = await startTestPlatform({
      services: ['events'],
      gateway: undefined,
      env: { REQUEST_TIMEOUT_MS: '300' },
    });
    try {
      const { port } = new URL(platform.url);
      const started = Date.now();
      const { statusLine, problem } = await rawExchange(
        Number(port),
        'POST /events/alpha/implementation/api/events HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n' +
          'content-length: 200\r\n\r\n{"events": [',
      );
      expect(statusLine).toBe('HTTP/1.1 408 Request Timeout');
      expect(problem).toMatchObject({
        status: 408,
        code: 'request_timeout',
        type: `${platform.url}/problems/request_timeout`,
      });
      expect(Date.now() - started).toBeGreaterThanOrEqual(300);
      // The platform goes on serving.
      expect((await fetch(`${platform.url}/healthz`)).status).toBe(200);
    } finally {
      await platform.close();
    }
  });
});
