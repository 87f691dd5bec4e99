import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createHttpApp, declareRoute } from './http.ts';

/** A route whose handler answers a member its response schema does not declare. */
async function answerWithUndeclaredMember(answerChecks: boolean | undefined) {
  const app = createHttpApp({ logLevel: 'silent', publicOrigin: () => 'http://localhost', answerChecks });
  declareRoute(app, 'test', {
    method: 'GET',
    url: '/thing',
    summary: 'A thing',
    public: true,
    response: z.strictObject({ name: z.string() }),
    handler: async () => ({ name: 'a', extra: 1 }),
  });
  const reply = await app.inject({ method: 'GET', url: '/thing' });
  await app.close();
  return reply;
}

describe('declareRoute answer checks', () => {
  it('refuses to send a 2xx body its response schema does not describe, by default and when on', async () => {
    for (const answerChecks of [undefined, true]) {
      const reply = await answerWithUndeclaredMember(answerChecks);
      expect([reply.statusCode, reply.json().code]).toEqual([500, 'internal_error']);
    }
  });

  it('sends the body as the route built it when off (production)', async () => {
    const reply = await answerWithUndeclaredMember(false);
    expect([reply.statusCode, reply.json()]).toEqual([200, { name: 'a', extra: 1 }]);
  });
});
