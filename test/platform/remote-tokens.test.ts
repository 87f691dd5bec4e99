import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { SignJWT, exportJWK, generateKeyPair, importJWK, type CryptoKey, type JWK } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { Authenticator, loadKeyring } from '../../platform/auth.ts';
import { loadConfig, type RemoteTokenConfig } from '../../platform/config.ts';
import { DomainError } from '../../platform/errors.ts';
import { curriculumV1, http as call, roots, startTestPlatform, type TestPlatform } from '../kit.ts';

/**
 * Real tenants' tokens, verified as an identity provider expects: against a loopback JWKS server
 * whose keys the tests rotate, and which they finally take down.
 */

const ISSUER = 'https://idp.district-9.example/';
const AUDIENCE = 'adaptive-learning-api';

interface SigningKey {
  kid: string;
  alg: string;
  privateKey: CryptoKey;
  publicJwk: JWK;
}

async function signingKey(kid: string, alg: 'RS256' | 'ES256' | 'EdDSA'): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  return { kid, alg, privateKey, publicJwk: { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' } };
}

/** A JWKS endpoint on 127.0.0.1 serving whatever keys the test publishes, counting its fetches. */
class JwksServer {
  keys: JWK[] = [];
  fetches = 0;
  private readonly server = http.createServer((_request, response) => {
    this.fetches += 1;
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: this.keys }));
  });

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/.well-known/jwks.json`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

const now = () => Math.floor(Date.now() / 1000);

async function tokenOf(
  key: { kid: string; alg: string; privateKey: CryptoKey | Uint8Array },
  claims: { iss?: string; aud?: string; exp?: number | null } = {},
): Promise<string> {
  const jwt = new SignJWT({ tenant_id: 'district-9', scope: 'curriculum:read' })
    .setProtectedHeader({ alg: key.alg, kid: key.kid, typ: 'JWT' })
    .setSubject('teacher-7')
    .setIssuedAt()
    .setIssuer(claims.iss ?? ISSUER)
    .setAudience(claims.aud ?? AUDIENCE);
  if (claims.exp !== null) jwt.setExpirationTime(claims.exp ?? now() + 300);
  return jwt.sign(key.privateKey);
}

const jwks = new JwksServer();
let platform: TestPlatform;
let rsa: SigningKey;
let ec: SigningKey;
let remote: RemoteTokenConfig;

beforeAll(async () => {
  [rsa, ec] = await Promise.all([signingKey('rsa-1', 'RS256'), signingKey('ec-1', 'ES256')]);
  jwks.keys = [rsa.publicJwk, ec.publicJwk];
  remote = {
    jwksUrl: await jwks.start(),
    issuer: ISSUER,
    audience: AUDIENCE,
    clockSkewSeconds: 30,
    jwksCooldownSeconds: 0,
  };
  platform = await startTestPlatform({ config: { remoteTokens: remote } });
});

afterAll(async () => {
  await platform?.close();
});

async function statusWith(token: string): Promise<[number, string]> {
  const reply = await call(platform, 'GET', `${curriculumV1}/components`, { token });
  if (reply.status === 401) expect(reply.headers.get('www-authenticate')).toBe('Bearer');
  return [reply.status, reply.body.code ?? 'ok'];
}

const REFUSED: [number, string] = [401, 'curriculum:unauthenticated'];
const ACCEPTED: [number, string] = [200, 'ok'];

describe('tokens of real tenants', () => {
  it('accepts RS256 and ES256 tokens for the configured issuer and audience', async () => {
    expect(await statusWith(await tokenOf(rsa))).toEqual(ACCEPTED);
    expect(await statusWith(await tokenOf(ec))).toEqual(ACCEPTED);
  });

  it('refuses another issuer, another audience and a token without exp', async () => {
    expect(await statusWith(await tokenOf(rsa, { iss: 'https://idp.elsewhere.example/' }))).toEqual(REFUSED);
    expect(await statusWith(await tokenOf(ec, { aud: 'another-application' }))).toEqual(REFUSED);
    expect(await statusWith(await tokenOf(ec, { exp: null }))).toEqual(REFUSED);
  });

  it('allows the documented clock skew past exp, and no more', async () => {
    expect(await statusWith(await tokenOf(rsa, { exp: now() - 10 }))).toEqual(ACCEPTED);
    expect(await statusWith(await tokenOf(rsa, { exp: now() - 45 }))).toEqual(REFUSED);
  });

  it('refuses HS256 and an algorithm the named key does not declare', async () => {
    const secret = new TextEncoder().encode('a shared secret an attacker guessed, 32 bytes or more');
    expect(await statusWith(await tokenOf({ kid: 'rsa-1', alg: 'HS256', privateKey: secret }))).toEqual(REFUSED);
    // The RSA key declares RS256: a PS256 signature by the same private key is not accepted.
    const samePrivateKeyForPss = (await importJWK(await exportJWK(rsa.privateKey), 'PS256')) as CryptoKey;
    expect(await statusWith(await tokenOf({ kid: 'rsa-1', alg: 'PS256', privateKey: samePrivateKeyForPss }))).toEqual(
      REFUSED,
    );
    const otherEc = await signingKey('rsa-1', 'ES256');
    expect(await statusWith(await tokenOf(otherEc))).toEqual(REFUSED);
  });

  it('refetches the key set once when a token names an unknown kid (key rotation)', async () => {
    const rotated = await signingKey('ed-2', 'EdDSA');
    const token = await tokenOf(rotated);
    expect(await statusWith(token)).toEqual(REFUSED);
    jwks.keys = [...jwks.keys, rotated.publicJwk];
    const before = jwks.fetches;
    expect(await statusWith(await tokenOf(rotated))).toEqual(ACCEPTED);
    expect(await statusWith(await tokenOf(rotated))).toEqual(ACCEPTED);
    expect(jwks.fetches - before).toBe(1);
  });

  it('refuses with 401, never 5xx, when the JWKS server is down', async () => {
    const unseen = await signingKey('rsa-9', 'RS256');
    await jwks.stop();
    const reply = await call(platform, 'GET', `${curriculumV1}/components`, { token: await tokenOf(unseen) });
    expect([reply.status, reply.body.code]).toEqual(REFUSED);
    expect(reply.body.detail).toContain('identity provider');
    // The platform's own tokens need no JWKS.
    const demo = await call(platform, 'POST', `${roots.curriculum}/dev/mint?tenantId=demo`);
    expect(await statusWith(demo.body.token)).toEqual(ACCEPTED);
  });
});

describe('the JWKS cooldown', () => {
  it('bounds refetches: within it, an unknown kid fetches nothing', async () => {
    const server = new JwksServer();
    const key = await signingKey('k-1', 'ES256');
    server.keys = [key.publicJwk];
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'alp-jwks-'));
    const auth = new Authenticator(await loadKeyring(path.join(dir, 'keys.json')), {
      ...remote,
      jwksUrl: await server.start(),
      jwksCooldownSeconds: 60,
    });
    try {
      await auth.authenticate(`Bearer ${await tokenOf(key)}`);
      for (const kid of ['forged-1', 'forged-2', 'forged-3']) {
        await expect(auth.authenticate(`Bearer ${await tokenOf({ ...key, kid })}`)).rejects.toBeInstanceOf(DomainError);
      }
      expect(server.fetches).toBe(1);
    } finally {
      await server.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a key the identity provider withdraws', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('stops verifying its tokens, cached ones included, once the key set has aged out', async () => {
    const server = new JwksServer();
    const key = await signingKey('k-withdrawn', 'ES256');
    server.keys = [key.publicJwk];
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'alp-jwks-'));
    const auth = new Authenticator(await loadKeyring(path.join(dir, 'keys.json')), {
      ...remote,
      jwksUrl: await server.start(),
    });
    try {
      const header = `Bearer ${await tokenOf(key, { exp: now() + 3 * 3600 })}`;
      await expect(auth.authenticate(header)).resolves.toMatchObject({ tenantId: 'district-9' });
      server.keys = [];
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(Date.now() + 11 * 60 * 1000);
      await expect(auth.authenticate(header)).rejects.toBeInstanceOf(DomainError);
    } finally {
      await server.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('configuration', () => {
  it('needs an issuer and an audience with JWKS_URL, and bounds the clock skew', () => {
    expect(() => loadConfig({ JWKS_URL: 'https://idp.example/jwks' })).toThrow(/JWT_ISSUER and JWT_AUDIENCE/);
    const env = { JWKS_URL: 'https://idp.example/jwks', JWT_ISSUER: ISSUER, JWT_AUDIENCE: AUDIENCE };
    expect(loadConfig(env).remoteTokens).toEqual({
      jwksUrl: env.JWKS_URL,
      issuer: ISSUER,
      audience: AUDIENCE,
      clockSkewSeconds: 30,
      jwksCooldownSeconds: 30,
    });
    expect(() => loadConfig({ ...env, JWT_CLOCK_SKEW_SECONDS: '3600' })).toThrow(/at most 300/);
    expect(loadConfig({}).remoteTokens).toBeUndefined();
  });
});
