import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { decodeJwt } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { Authenticator, loadKeyring } from './auth.ts';
import { DomainError } from './errors.ts';
import { serviceTokens } from './service-client.ts';

/** The two caches of credentials: neither may hand out or accept a token past its expiry. */

let keyDir: string;
let auth: Authenticator;

beforeAll(async () => {
  keyDir = fs.mkdtempSync(path.join(os.tmpdir(), 'alp-auth-'));
  auth = new Authenticator(await loadKeyring(path.join(keyDir, 'platform-keys.json')));
});

afterAll(() => fs.rmSync(keyDir, { recursive: true, force: true }));

afterEach(() => vi.useRealTimers());

const tenant = () => `t-${randomUUID()}`;

describe('the verified-token cache', () => {
  it('refuses a token it has verified once the token has expired', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const tenantId = tenant();
    const token = await auth.sign({ tenantId, subject: 'u', scopes: ['curriculum:read'], roles: [], ttlSeconds: 60 });
    expect((await auth.authenticate(`Bearer ${token}`)).tenantId).toBe(tenantId);
    vi.advanceTimersByTime(30_000);
    expect((await auth.authenticate(`Bearer ${token}`)).tenantId).toBe(tenantId);
    vi.advanceTimersByTime(31_000);
    const expired = auth.authenticate(`Bearer ${token}`);
    await expect(expired).rejects.toBeInstanceOf(DomainError);
    await expect(expired).rejects.toMatchObject({ code: 'unauthenticated', message: 'The bearer token has expired.' });
  });
  it('keeps the most recently used tokens verified, and verifies again one it let go', async () => {
    const kept = new Authenticator(await loadKeyring(path.join(keyDir, 'platform-keys.json')), undefined, {
      keptTokens: 2,
    });
    const tenantId = tenant();
    const [a, b, c] = await Promise.all(
      ['a', 'b', 'c'].map((subject) => kept.sign({ tenantId, subject, scopes: [], roles: [] })),
    );
    // A principal from the cache is the very object the first verification built; a new verification builds another.
    const first = { a: await kept.authenticate(`Bearer ${a}`), b: await kept.authenticate(`Bearer ${b}`) };
    expect(await kept.authenticate(`Bearer ${a}`)).toBe(first.a);
    await kept.authenticate(`Bearer ${c}`);
    expect(await kept.authenticate(`Bearer ${a}`)).toBe(first.a);
    const again = await kept.authenticate(`Bearer ${b}`);
    expect(again).not.toBe(first.b);
    expect(again).toEqual(first.b);
  });
});

describe('serviceTokens', () => {
  it("signs each tenant its own token, with only the call's scopes and the service role", async () => {
    const tokenFor = serviceTokens(auth, 'curriculum', ['content:read']);
    const [a, b] = [tenant(), tenant()];
    const [tokenA, tokenB] = [await tokenFor(a), await tokenFor(b)];
    expect(tokenA).not.toBe(tokenB);
    expect(await tokenFor(a)).toBe(tokenA);
    const principal = await auth.authenticate(`Bearer ${tokenB}`);
    expect(principal.tenantId).toBe(b);
    expect(principal.subject).toBe('service:curriculum');
    expect([...principal.scopes]).toEqual(['content:read']);
    expect([...principal.roles]).toEqual(['service']);
  });

  it('reuses a token until a minute before it expires, and never hands out one about to expire', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const tokenFor = serviceTokens(auth, 'events', ['content:read'], { ttlSeconds: 300 });
    const tenantId = tenant();
    const first = await tokenFor(tenantId);
    const seen = new Set([first]);
    for (let second = 0; second <= 600; second += 20) {
      const token = await tokenFor(tenantId);
      seen.add(token);
      // A call may take its timeout and more: the token it carries has at least a minute left.
      expect(decodeJwt(token).exp! * 1000 - Date.now()).toBeGreaterThanOrEqual(60_000);
      expect((await auth.authenticate(`Bearer ${token}`)).tenantId).toBe(tenantId);
      if (second < 240) expect(token).toBe(first);
      vi.advanceTimersByTime(20_000);
    }
    expect(seen.size).toBe(3);
  });

  it('keeps the tokens of the most recently served tenants only, and signs again for one it let go', async () => {
    const tokenFor = serviceTokens(auth, 'curriculum', ['content:read'], { keptTenants: 2 });
    const [a, b, c] = [tenant(), tenant(), tenant()];
    const first = { a: await tokenFor(a), b: await tokenFor(b) };
    expect(await tokenFor(a)).toBe(first.a);
    await tokenFor(c);
    expect(await tokenFor(a)).toBe(first.a);
    const again = await tokenFor(b);
    expect(again).not.toBe(first.b);
    expect((await auth.authenticate(`Bearer ${again}`)).tenantId).toBe(b);
  });
});
