import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../platform/config.ts';
import { FixedWindowLimiter } from '../../platform/rate-limit.ts';
import { http, roots, startTestPlatform, type TestPlatform } from '../kit.ts';

/** The demo mint: off with DEV_ROUTES=off, and limited per client address across all services. */

let devRoutesOff: TestPlatform;
let smallMintBudget: TestPlatform;
beforeAll(async () => {
  [devRoutesOff, smallMintBudget] = await Promise.all([
    startTestPlatform({ env: { DEV_ROUTES: 'off' } }),
    startTestPlatform({ env: { DEV_MINT_PER_MINUTE: '3' } }),
  ]);
});
afterAll(async () => {
  await Promise.all([devRoutesOff?.close(), smallMintBudget?.close()]);
});

describe('DEV_ROUTES', () => {
  it('off: every /dev/* route answers the 404 problem and the descriptor names no mint', async () => {
    const platform = devRoutesOff;
    for (const root of [roots.curriculum, roots.content, roots.events]) {
      const minted = await http(platform, 'POST', `${root}/dev/mint?tenantId=demo`);
      expect(minted.status, root).toBe(404);
      expect(minted.headers.get('content-type')).toContain('application/problem+json');
      expect(minted.body.code).toMatch(/not_found$/);
      expect((await http(platform, 'GET', `${root}/dev/anything`)).status).toBe(404);
      const descriptor = await http(platform, 'GET', `${root}/`);
      expect(descriptor.body.mint).toBeUndefined();
      const openapi = await http(platform, 'GET', `${root}/openapi.json`);
      expect(Object.keys(openapi.body.paths).filter((path) => path.includes('/dev/'))).toEqual([]);
    }
  });

  it('is on by default and refuses anything but on or off', () => {
    expect(loadConfig({}).devRoutes).toBe(true);
    expect(loadConfig({ DEV_ROUTES: 'off' }).devRoutes).toBe(false);
    expect(() => loadConfig({ DEV_ROUTES: 'maybe' })).toThrow(/DEV_ROUTES must be on or off/);
    expect(loadConfig({}).devMintPerMinute).toBe(10);
  });
});

describe('the mint rate limit', () => {
  it('answers 429 with Retry-After once an address has spent its budget, across every service', async () => {
    const platform = smallMintBudget;
    const mint = (root: string) => http(platform, 'POST', `${root}/dev/mint?tenantId=demo`);
    expect((await mint(roots.curriculum)).status).toBe(200);
    expect((await mint(roots.content)).status).toBe(200);
    expect((await mint(roots.events)).status).toBe(200);
    const limited = await mint(roots.content);
    expect([limited.status, limited.body.code]).toEqual([429, 'content.rate_limited']);
    expect(limited.headers.get('content-type')).toContain('application/problem+json');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(limited.headers.get('retry-after'))).toBeLessThanOrEqual(60);
  });

  it('opens a new window once the old one has passed', () => {
    let now = 0;
    const limiter = new FixedWindowLimiter(2, 60_000, () => now);
    expect([limiter.take('a'), limiter.take('a'), limiter.take('b')]).toEqual([0, 0, 0]);
    now = 15_000;
    expect(limiter.take('a')).toBe(45);
    now = 60_000;
    expect(limiter.take('a')).toBe(0);
  });
});
