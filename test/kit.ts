import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { DEMO_SCOPES } from '../platform/auth.ts';
import type { ServiceName } from '../platform/config.ts';
import { startPlatform, type PlatformOptions, type RunningPlatform } from '../gateway/platform.ts';
import { SERVICE_ROOTS } from '../platform/config.ts';
import { checkAnswer } from './openapi-conformance.ts';

/** Real public fixtures (Ed-Fi, Caliper, CASE), kept in the repository with their provenance. */
export const FIXTURES = fileURLToPath(new URL('./fixtures', import.meta.url));

/**
 * The test kit: a real platform on a free port (PGlite in a temporary directory, or the PostgreSQL
 * of DATABASE_URL), fresh tenants with tokens signed by the platform's own key, and a small HTTP
 * client. Tests share nothing but the server: each makes its own tenant.
 */

export interface TestPlatform extends RunningPlatform {
  dataDir: string;
}

export async function startTestPlatform(options: PlatformOptions & { seedDemo?: boolean } = {}): Promise<TestPlatform> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'alp-test-'));
  const platform = await startPlatform({
    services: options.services,
    // A gateway unless the caller says `gateway: undefined` (services alone, their subgraphs at /graphql).
    gateway: 'gateway' in options ? options.gateway : {},
    peopleStandIn: options.peopleStandIn,
    env: { ...process.env, ...options.env },
    config: {
      port: 0,
      host: '127.0.0.1',
      dataDir,
      keyFile: path.join(dataDir, 'platform-keys.json'),
      logLevel: process.env.TEST_LOG_LEVEL ?? 'silent',
      seedDemo: options.seedDemo ?? false,
      ...options.config,
    },
  });
  return {
    ...platform,
    dataDir,
    async close() {
      await platform.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface Caller {
  tenantId: string;
  token: string;
}

export async function newTenant(
  platform: RunningPlatform,
  grant: {
    scopes?: string[];
    roles?: string[];
    subject?: string;
    tenantId?: string;
    boundary?: Record<string, string[]>;
  } = {},
): Promise<Caller> {
  const tenantId = grant.tenantId ?? `t-${randomUUID()}`;
  const token = await platform.runtime.auth.sign({
    tenantId,
    subject: grant.subject ?? `user:${randomUUID()}`,
    scopes: grant.scopes ?? DEMO_SCOPES,
    roles: grant.roles ?? ['demo', 'reviewer'],
    boundary: grant.boundary,
  });
  return { tenantId, token };
}

/** Another identity in the same tenant (e.g. a QC reviewer who is not the author). */
export async function sameTenant(
  platform: RunningPlatform,
  caller: Caller,
  grant: { scopes?: string[]; roles?: string[] } = {},
): Promise<Caller> {
  return newTenant(platform, { ...grant, tenantId: caller.tenantId });
}

export interface Reply<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export async function http<T = any>(
  platform: RunningPlatform,
  method: string,
  url: string,
  options: { token?: string; body?: unknown; headers?: Record<string, string>; rawBody?: string } = {},
): Promise<Reply<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers['content-type'] ??= 'application/json';
  const response = await fetch(`${platform.url}${url}`, {
    method,
    headers,
    body: options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body)),
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  await checkAnswer(platform.url, {
    method,
    url,
    status: response.status,
    contentType: response.headers.get('content-type'),
    body,
  });
  return { status: response.status, headers: response.headers, body: body as T };
}

export async function graphql(
  platform: RunningPlatform,
  query: string,
  variables: Record<string, unknown> = {},
  token?: string,
): Promise<Reply> {
  return http(platform, 'POST', '/graphql', {
    token,
    body: { query, variables },
  });
}

export const roots = SERVICE_ROOTS;
export const tenantRoot = (tenantId: string) => `${SERVICE_ROOTS.content}/tenants/${tenantId}/alpha/content`;
export const curriculumV1 = `${SERVICE_ROOTS.curriculum}/alpha/curriculum/v1`;

/** What `run` answers, and the paths of the calls the platform made to its own services meanwhile, under `prefix`. */
export async function ownCallsDuring<T>(
  platform: RunningPlatform,
  prefix: string,
  run: () => Promise<T>,
): Promise<{ answer: T; calls: string[] }> {
  const local = platform.runtime.local as NonNullable<typeof platform.runtime.local>;
  const dispatch = local.dispatch;
  const calls: string[] = [];
  local.dispatch = (request) => {
    if (request.url.startsWith(prefix)) calls.push(request.url);
    return dispatch(request);
  };
  try {
    return { answer: await run(), calls };
  } finally {
    local.dispatch = dispatch;
  }
}

/** Creates an item, appends a version with blocks and has a second identity trust it: an eligible pin. */
export async function eligibleVersion(
  platform: RunningPlatform,
  author: Caller,
  item: Record<string, unknown> = {},
): Promise<{ contentId: string; versionId: string; contentKind: string }> {
  const contentKind = (item.content_kind as string) ?? 'article';
  const created = await http(platform, 'POST', `${tenantRoot(author.tenantId)}/items`, {
    token: author.token,
    headers: { 'idempotency-key': randomUUID() },
    body: { content_kind: contentKind, title: 'Eligible item', status: 'published', ...item },
  });
  if (created.status !== 201) throw new Error(`item create failed: ${JSON.stringify(created.body)}`);
  const contentId = created.body.content_id as string;
  const version = await http(platform, 'POST', `${tenantRoot(author.tenantId)}/items/${contentId}/versions`, {
    token: author.token,
    body: { student_view: { blocks: [{ type: 'text', text: 'Body', order: 0 }] } },
  });
  if (version.status !== 201) throw new Error(`version append failed: ${JSON.stringify(version.body)}`);
  const reviewer = await sameTenant(platform, author);
  const qc = await http(
    platform,
    'POST',
    `${tenantRoot(author.tenantId)}/items/${contentId}/versions/${version.body.version_id}/qc-decisions`,
    {
      token: reviewer.token,
      body: { trust_status: 'trusted', reason: 'reviewed' },
    },
  );
  if (qc.status !== 201) throw new Error(`qc decision failed: ${JSON.stringify(qc.body)}`);
  return { contentId, versionId: version.body.version_id as string, contentKind };
}

/** A second identity of the author's tenant fails the pinned version's QC: it is no longer release eligible. */
export async function failQc(
  platform: RunningPlatform,
  author: Caller,
  pin: { contentId: string; versionId: string },
): Promise<void> {
  const reviewer = await sameTenant(platform, author);
  const decided = await http(
    platform,
    'POST',
    `${tenantRoot(author.tenantId)}/items/${pin.contentId}/versions/${pin.versionId}/qc-decisions`,
    { token: reviewer.token, body: { trust_status: 'failed', reason: 'broken media' } },
  );
  if (decided.status !== 201) throw new Error(`the QC decision was refused: ${JSON.stringify(decided.body)}`);
}

/** A fresh tenant with a lesson pinned to an eligible version (the headline query's subject). */
export async function pinnedLesson(platform: RunningPlatform, componentId: string) {
  const caller = await newTenant(platform);
  const pin = await eligibleVersion(platform, caller);
  const created = await http(platform, 'POST', `${curriculumV1}/components`, {
    token: caller.token,
    body: {
      component_id: componentId,
      kind: 'lesson',
      alpha: {
        target_ref: {
          module: 'content',
          content_kind: 'article',
          content_id: pin.contentId,
          content_version_id: pin.versionId,
        },
      },
    },
  });
  if (created.status !== 201) throw new Error(`the lesson was not created: ${JSON.stringify(created.body)}`);
  return { caller, pin };
}

export type { ServiceName };
