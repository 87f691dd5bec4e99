import { describe, expect, it } from 'vitest';
import { startTestPlatform } from '../kit.ts';

const SIGNALS = ['SIGTERM', 'SIGINT'] as const;
const listeners = () => SIGNALS.map((signal) => process.listenerCount(signal));

describe('shutdown', () => {
  it('belongs to the platform: one started in process as in production adds no signal handler', async () => {
    // Apollo Server registers its own SIGTERM and SIGINT handlers unless told not to, outside tests only.
    const nodeEnv = process.env.NODE_ENV;
    process.env.NODE_ENV = 'production';
    const before = listeners();
    const platform = await startTestPlatform({ env: { PLATFORM_ENV: 'test' } }).finally(() => {
      process.env.NODE_ENV = nodeEnv;
    });
    try {
      expect(listeners()).toEqual(before);
      const answer = await fetch(`${platform.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ __typename }' }),
      });
      expect(answer.status).toBe(200);
    } finally {
      await platform.close();
    }
    expect(listeners()).toEqual(before);
  });
});
