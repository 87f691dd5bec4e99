import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { curriculumV1, roots, tenantRoot } from '../kit.ts';

/**
 * The distributed shape: content, curriculum and the gateway as three processes, as the README
 * shows. Same code as the embedded mode; the gateway reaches subgraphs over HTTP and proxies REST.
 */
const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'alp-distributed-'));
const keyFile = path.join(workDir, 'platform-keys.json');
const children: ChildProcess[] = [];

/**
 * Starts one piece on a port of its own choosing (PORT=0) and answers its origin, read from the line it
 * prints once listening: a port chosen here and handed over could be taken by another test's server first.
 */
async function launch(name: string, env: Record<string, string>): Promise<string> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'gateway/service-main.ts'], {
    env: {
      ...process.env,
      LOG_LEVEL: 'warn',
      KEY_FILE: keyFile,
      DATA_DIR: path.join(workDir, name),
      SEED_DEMO: 'false',
      PORT: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${name} exited: ${output}`);
    const origin = / on (http:\/\/[^/\s]+)/.exec(output)?.[1];
    if (origin) {
      const ready = await fetch(`${origin}/readyz`).catch(() => undefined);
      if (ready?.status === 200) return origin;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${name} did not become ready: ${output}`);
}

let gateway = '';
let token = '';

beforeAll(async () => {
  // One after another: each is told where the pieces it calls listen.
  const content = await launch('content', { SERVICE: 'content' });
  const curriculum = await launch('curriculum', { SERVICE: 'curriculum', CONTENT_URL: `${content}${roots.content}` });
  gateway = await launch('gateway', {
    SERVICE: 'gateway',
    SUBGRAPH_URLS: `curriculum=${curriculum},content=${content}`,
  });
  token = (await (await fetch(`${gateway}${roots.content}/dev/mint?tenantId=demo`, { method: 'POST' })).json()).token;
}, 180_000);

afterAll(async () => {
  // Graceful shutdown: every process stops cleanly on SIGTERM.
  const exitCodes = await Promise.all(
    children.map(
      (child) =>
        new Promise<number | null>((resolve) => {
          if (child.exitCode !== null) return resolve(child.exitCode);
          child.once('exit', (code) => resolve(code));
          child.kill('SIGTERM');
        }),
    ),
  );
  fs.rmSync(workDir, { recursive: true, force: true });
  expect(exitCodes).toEqual(children.map(() => 0));
});

async function call(method: string, url: string, body?: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${gateway}${url}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

describe('gateway and services as separate processes', () => {
  it('pins content across processes and answers the headline query through the remote gateway', async () => {
    const item = await call(
      'POST',
      `${tenantRoot('demo')}/items`,
      { content_kind: 'article', title: 'Remote', status: 'published' },
      { 'idempotency-key': randomUUID() },
    );
    expect(item.status).toBe(201);
    const version = await call('POST', `${tenantRoot('demo')}/items/${item.body.content_id}/versions`, {
      student_view: { blocks: [{ type: 'text', text: 'Hello', order: 0 }] },
    });
    expect(version.status).toBe(201);
    // A second demo identity is the QC reviewer (never the author).
    const reviewer = (
      await (await fetch(`${gateway}${roots.curriculum}/dev/mint?tenantId=demo`, { method: 'POST' })).json()
    ).token;
    const qc = await fetch(
      `${gateway}${tenantRoot('demo')}/items/${item.body.content_id}/versions/${version.body.version_id}/qc-decisions`,
      {
        method: 'POST',
        headers: { authorization: `Bearer ${reviewer}`, 'content-type': 'application/json' },
        body: JSON.stringify({ trust_status: 'trusted', reason: 'checked' }),
      },
    );
    expect(qc.status).toBe(201);
    const componentId = `remote-${randomUUID()}`;
    const component = await call('POST', `${curriculumV1}/components`, {
      component_id: componentId,
      kind: 'lesson',
      alpha: {
        target_ref: {
          content_kind: 'article',
          content_id: item.body.content_id,
          content_version_id: version.body.version_id,
        },
      },
    });
    expect(component.status).toBe(201);
    const query = `query($id: ID!) { component(componentId: $id) { componentId alpha { targetRef { version { versionId versionNumber releaseEligibility { releaseEligible trustStatus problemCode } } } } } }`;
    const result = await call('POST', '/graphql', { query, variables: { id: componentId } });
    expect(result.body.errors).toBeUndefined();
    expect(result.body.data.component.alpha.targetRef.version).toEqual({
      versionId: version.body.version_id,
      versionNumber: 2,
      releaseEligibility: { releaseEligible: true, trustStatus: 'trusted', problemCode: null },
    });
    const anonymous = await fetch(`${gateway}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query, variables: { id: componentId } }),
    });
    expect((await anonymous.json()).errors?.[0].extensions.code).toBe('curriculum:unauthenticated');
  });
});
