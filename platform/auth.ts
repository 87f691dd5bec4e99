import fs from 'node:fs';
import path from 'node:path';
import { randomBytes, randomUUID } from 'node:crypto';
import {
  SignJWT,
  jwtVerify,
  generateKeyPair,
  exportJWK,
  importJWK,
  createRemoteJWKSet,
  decodeProtectedHeader,
  errors as joseErrors,
  type JWK,
  type CryptoKey,
  type JWTPayload,
} from 'jose';
import { LRUCache } from 'lru-cache';
import type { RemoteTokenConfig } from './config.ts';
import { DomainError } from './errors.ts';

/**
 * Bearer JWT for every service. Demo tokens are signed with a key made on first start and kept in
 * the data directory; real tenants' tokens are verified against a configured JWKS. A verified token
 * becomes a Principal; the tenant always comes from the token, never from another identifier.
 */

export const DEMO_TENANT = 'demo';
const ISSUER = 'urn:adaptive-learning:platform';
const ALG = 'ES256';
const DEMO_TOKEN_TTL_SECONDS = 7 * 24 * 3600;
/**
 * What a tenant's identity provider may sign with: asymmetric algorithms only, so a key published in
 * a JWKS can never serve as an HMAC secret. jose further requires the JWK chosen by kid to fit the
 * algorithm (its kty and curve, and its own alg when the JWK declares one).
 */
export const REMOTE_TOKEN_ALGORITHMS = ['RS256', 'PS256', 'ES256', 'EdDSA'];
const JWKS_MAX_AGE_MS = 10 * 60 * 1000;
/** Verified tokens kept, by default; one beyond them is verified again when it is next sent. */
const KEPT_TOKENS = 10_000;
const JWKS_TIMEOUT_MS = 5000;

/** Identity boundary claims (events): a token carrying any of them is boundary-scoped. */
export interface Boundary {
  studentIds?: string[];
  orgIds?: string[];
  schoolIds?: string[];
  contentIds?: string[];
}

/** The organizations a boundary allows: orgIds and schoolIds are one dimension (a school is an organization). */
export function organizationsOf({ orgIds, schoolIds }: Boundary): ReadonlySet<string> | undefined {
  return orgIds || schoolIds ? new Set([...(orgIds ?? []), ...(schoolIds ?? [])]) : undefined;
}

export interface Principal {
  subject: string;
  tenantId: string;
  scopes: ReadonlySet<string>;
  roles: ReadonlySet<string>;
  boundary: Boundary;
  token: string;
}

/** What the demo token carries: everything a person trying the platform needs, except source registration. */
export const DEMO_SCOPES = [
  'curriculum:read',
  'curriculum:write',
  'curriculum:import',
  'read:content',
  'author:content',
  'read:answer_key',
  'link:kc',
  'publish:content',
  'events:read',
  'events:write',
  'people_orgs:read',
];
export const DEMO_ROLES = ['demo', 'reviewer'];

interface KeyFile {
  kid: string;
  privateJwk: JWK;
  publicJwk: JWK;
  cursorSecret: string;
}

export interface Keyring {
  kid: string;
  privateKey: CryptoKey;
  publicKey: CryptoKey;
  cursorSecret: Buffer;
}

/** Loads the platform key file, creating it on first start. Services run apart share it by path. */
export async function loadKeyring(keyFile: string): Promise<Keyring> {
  let stored: KeyFile;
  if (fs.existsSync(keyFile)) {
    stored = JSON.parse(fs.readFileSync(keyFile, 'utf8')) as KeyFile;
  } else {
    const { privateKey, publicKey } = await generateKeyPair(ALG, { extractable: true });
    stored = {
      kid: randomUUID(),
      privateJwk: await exportJWK(privateKey),
      publicJwk: await exportJWK(publicKey),
      cursorSecret: randomBytes(32).toString('base64url'),
    };
    fs.mkdirSync(path.dirname(keyFile), { recursive: true });
    // Another process may have won the race; its file is the one everybody uses.
    try {
      fs.writeFileSync(keyFile, JSON.stringify(stored), { flag: 'wx', mode: 0o600 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      stored = JSON.parse(fs.readFileSync(keyFile, 'utf8')) as KeyFile;
    }
  }
  return {
    kid: stored.kid,
    privateKey: (await importJWK(stored.privateJwk, ALG)) as CryptoKey,
    publicKey: (await importJWK(stored.publicJwk, ALG)) as CryptoKey,
    cursorSecret: Buffer.from(stored.cursorSecret, 'base64url'),
  };
}

export interface TokenRequest {
  tenantId: string;
  subject: string;
  scopes: string[];
  roles: string[];
  boundary?: Boundary;
  ttlSeconds?: number;
}

export class Authenticator {
  /**
   * Verified tokens, so a hot path pays for the signature check once per token (up to JWKS_MAX_AGE_MS). Only the
   * most recently used are kept: a burst of new tokens drops the idle ones, not the ones in use.
   */
  private readonly cache: LRUCache<string, { principal: Principal; expiresAtMs: number }>;
  private readonly remoteJwks: ReturnType<typeof createRemoteJWKSet> | undefined;

  constructor(
    private readonly keyring: Keyring,
    private readonly remote?: RemoteTokenConfig,
    { keptTokens = KEPT_TOKENS }: { keptTokens?: number } = {},
  ) {
    this.cache = new LRUCache({ max: keptTokens });
    // Cached keys; a token naming an unknown kid (key rotation) refetches, at most once per cooldown.
    this.remoteJwks = remote
      ? createRemoteJWKSet(new URL(remote.jwksUrl), {
          cacheMaxAge: JWKS_MAX_AGE_MS,
          cooldownDuration: remote.jwksCooldownSeconds * 1000,
          timeoutDuration: JWKS_TIMEOUT_MS,
        })
      : undefined;
  }

  async sign(request: TokenRequest): Promise<string> {
    const claims: JWTPayload = {
      tenant_id: request.tenantId,
      scope: request.scopes.join(' '),
      roles: request.roles,
      ...request.boundary,
    };
    return new SignJWT(claims)
      .setProtectedHeader({ alg: ALG, kid: this.keyring.kid, typ: 'JWT' })
      .setIssuer(ISSUER)
      .setSubject(request.subject)
      .setIssuedAt()
      .setJti(randomUUID())
      .setExpirationTime(`${request.ttlSeconds ?? DEMO_TOKEN_TTL_SECONDS}s`)
      .sign(this.keyring.privateKey);
  }

  async mintDemoToken(): Promise<{ token: string; subject: string; expiresIn: number }> {
    const subject = `demo-user:${randomUUID()}`;
    const token = await this.sign({ tenantId: DEMO_TENANT, subject, scopes: DEMO_SCOPES, roles: DEMO_ROLES });
    return { token, subject, expiresIn: DEMO_TOKEN_TTL_SECONDS };
  }

  /** The Authorization header's principal, or a 401 problem. */
  async authenticate(authorization: string | undefined): Promise<Principal> {
    if (!authorization) throw new DomainError('unauthenticated', 'Send Authorization: Bearer <token>.');
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (!match) throw new DomainError('unauthenticated', 'The Authorization header must use the Bearer scheme.');
    const token = match[1];
    const cached = this.cache.get(token);
    if (cached) {
      if (cached.expiresAtMs > Date.now()) return cached.principal;
      this.cache.delete(token);
    }
    const payload = await this.verify(token);
    const principal = principalFrom(payload, token);
    // Kept no longer than the key set is: a key the IdP withdraws stops verifying its tokens here too.
    const expiresAtMs = Math.min((payload.exp ?? 0) * 1000, Date.now() + JWKS_MAX_AGE_MS);
    this.cache.set(token, { principal, expiresAtMs });
    return principal;
  }

  /** The platform's own tokens carry its kid; any other token is a tenant IdP's, when one is configured. */
  private async verify(token: string): Promise<JWTPayload> {
    const { kid } = protectedHeaderOf(token);
    try {
      if (this.remote && this.remoteJwks && kid !== this.keyring.kid) {
        const { payload } = await jwtVerify(token, this.remoteJwks, {
          issuer: this.remote.issuer,
          audience: this.remote.audience,
          algorithms: REMOTE_TOKEN_ALGORITHMS,
          requiredClaims: ['exp'],
          clockTolerance: this.remote.clockSkewSeconds,
        });
        return payload;
      }
      const { payload } = await jwtVerify(token, this.keyring.publicKey, {
        issuer: ISSUER,
        algorithms: [ALG],
        requiredClaims: ['exp'],
      });
      return payload;
    } catch (error) {
      throw tokenProblem(error);
    }
  }
}

/** Not a JWS at all: said so, before anything could blame the identity provider's keys for it. */
function protectedHeaderOf(token: string): ReturnType<typeof decodeProtectedHeader> {
  try {
    return decodeProtectedHeader(token);
  } catch {
    throw new DomainError('unauthenticated', MALFORMED_TOKEN);
  }
}

const MALFORMED_TOKEN = 'The bearer token is malformed or not valid.';

function tokenProblem(error: unknown): DomainError {
  if (error instanceof joseErrors.JWTExpired)
    return new DomainError('unauthenticated', 'The bearer token has expired.');
  if (error instanceof joseErrors.JWSSignatureVerificationFailed) {
    return new DomainError('unauthenticated', 'The bearer token signature is not valid.');
  }
  if (error instanceof joseErrors.JWTClaimValidationFailed) {
    return new DomainError(
      'unauthenticated',
      `The bearer token's ${error.claim} claim is missing or not accepted here.`,
    );
  }
  if (error instanceof joseErrors.JWKSNoMatchingKey || error instanceof joseErrors.JOSEAlgNotAllowed) {
    return new DomainError(
      'unauthenticated',
      'The bearer token is not signed by a key and algorithm the identity provider publishes.',
    );
  }
  // The IdP's key set could not be fetched: the token cannot be checked, which is never a server error of ours.
  if (
    error instanceof joseErrors.JWKSTimeout ||
    error instanceof joseErrors.JWKSInvalid ||
    !(error instanceof joseErrors.JOSEError)
  ) {
    return new DomainError(
      'unauthenticated',
      "The identity provider's keys could not be fetched to check the bearer token.",
    );
  }
  return new DomainError('unauthenticated', MALFORMED_TOKEN);
}

function stringList(value: unknown): string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) {
    throw new DomainError('unauthenticated', 'The bearer token has a malformed boundary claim.');
  }
  return value;
}

function principalFrom(payload: JWTPayload, token: string): Principal {
  const tenantId = payload.tenant_id ?? payload.tenantId;
  if (typeof tenantId !== 'string' || tenantId === '') {
    throw new DomainError('unauthenticated', 'The bearer token carries no tenant.');
  }
  const scope = typeof payload.scope === 'string' ? payload.scope.split(' ').filter(Boolean) : [];
  const roles = Array.isArray(payload.roles)
    ? payload.roles.filter((role): role is string => typeof role === 'string')
    : [];
  const boundary: Boundary = {};
  for (const claim of ['studentIds', 'orgIds', 'schoolIds', 'contentIds'] as const) {
    const values = stringList(payload[claim]);
    if (values) boundary[claim] = values;
  }
  return {
    subject: payload.sub ?? 'anonymous',
    tenantId,
    scopes: new Set(scope),
    roles: new Set(roles),
    boundary,
    token,
  };
}

/**
 * The refusal of an `X-Vendor-Tenant` header (the events document's tenant header) that does not name the
 * principal's tenant: empty is malformed, another tenant is 403. The tenant always comes from the token, so a
 * header naming another one is refused, never answered with the token's tenant's rows.
 */
export function vendorTenantRefusal(header: string | undefined, principal: Principal): DomainError | undefined {
  if (header === '') {
    return new DomainError(
      'validation_failed',
      'X-Vendor-Tenant is empty: send the tenant id, or leave the header out.',
      {
        fieldErrors: [{ field: 'X-Vendor-Tenant', message: 'must not be empty' }],
      },
    );
  }
  if (header !== undefined && header !== principal.tenantId) {
    return new DomainError('tenant_mismatch', `The token is for tenant ${principal.tenantId}, not ${header}.`, {
      fieldErrors: [{ field: 'X-Vendor-Tenant', message: 'does not match the token tenant' }],
    });
  }
  return undefined;
}

/** Access requirement of one operation: every listed scope, and at least one of the roles when roles are listed. */
export interface AccessRule {
  scopes?: string[];
  anyRole?: string[];
  /** Alternatives: the rule passes when any of these passes (e.g. a scope or an operator role). */
  anyOf?: AccessRule[];
}

export function allows(principal: Principal, rule: AccessRule): boolean {
  if (rule.anyOf) return rule.anyOf.some((alternative) => allows(principal, alternative));
  const scopesOk = (rule.scopes ?? []).every((scope) => principal.scopes.has(scope));
  const rolesOk = !rule.anyRole || rule.anyRole.some((role) => principal.roles.has(role));
  return scopesOk && rolesOk;
}

/** What a rule asks of a token, in the claims that carry it (`scope`, space-separated, and `roles`). */
export function accessNeeded(rule: AccessRule): string {
  if (rule.anyOf) return rule.anyOf.map(accessNeeded).join(', or ');
  const scopes = rule.scopes?.length ? [`the scope ${rule.scopes.join(' and ')}`] : [];
  const roles = rule.anyRole ? [`one of the roles ${rule.anyRole.join(', ')}`] : [];
  return [...scopes, ...roles].join(' with ');
}

/**
 * The rule as alternatives, each the scope and role names one token must all hold: an OpenAPI security
 * requirement per alternative (a role of `anyRole` is an alternative of its own, with the rule's scopes).
 */
export function accessAlternatives(rule: AccessRule): string[][] {
  if (rule.anyOf) return rule.anyOf.flatMap(accessAlternatives);
  const scopes = rule.scopes ?? [];
  return rule.anyRole ? rule.anyRole.map((role) => [...scopes, role]) : [scopes];
}

export function requireAccess(principal: Principal, rule: AccessRule, operation: string): void {
  if (!allows(principal, rule)) {
    throw new DomainError('forbidden', `The token may not ${operation}; it needs ${accessNeeded(rule)}.`);
  }
}
