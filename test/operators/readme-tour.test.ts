import { spawn, execFile, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The README's start command and its tour, as a new user runs them: `npm start`'s entry point in a
 * process of its own (logs at info), then scripts/tour.sh twice in a row against it.
 */

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'alp-tour-'));
let server: ChildProcess;
let output = '';
let base = '';

beforeAll(async () => {
  server = spawn(process.execPath, ['--import', 'tsx', 'gateway/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'info', SEED_DEMO: 'true' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  server.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  base = await new Promise<string>((resolve, reject) => {
    const timer = setInterval(() => {
      const up = /platform is up on (http:\/\/[\d.:]+)/.exec(output);
      if (up) {
        clearInterval(timer);
        resolve(up[1]);
      }
    }, 100);
    server.once('exit', (code) => {
      clearInterval(timer);
      reject(new Error(`the platform exited with ${code}: ${output}`));
    });
  });
}, 120_000);

afterAll(async () => {
  if (server.exitCode === null) {
    const exited = new Promise((resolve) => server.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('the README tour', () => {
  it('runs twice in a row against npm start, printing every status it got and expected', async () => {
    for (const round of [1, 2]) {
      const { stdout } = await run('bash', ['scripts/tour.sh', base], { cwd: ROOT, timeout: 90_000 });
      const steps = stdout.split('\n').filter((line) => /^\d{3} \(expected \d{3}\) /.test(line));
      expect(steps.length, `round ${round}`).toBe(22);
      for (const step of steps) expect(step.slice(0, 3), step).toBe(step.slice(14, 17));
      expect(steps.filter((step) => step.startsWith('409 ')).length).toBe(4);
      expect(stdout).toContain('The tour ran to the end.');
    }
  }, 180_000);

  it("makes a caller's W3C traceparent the traceId of its problem and of its log lines", async () => {
    const traceId = randomBytes(16).toString('hex');
    const response = await fetch(`${base}/curriculum/alpha/implementation/api/alpha/curriculum/v1/components/x`, {
      headers: { traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01` },
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('content-type')).toContain('application/problem+json');
    expect((await response.json()).traceId).toBe(traceId);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const logged = output.split('\n').filter((line) => line.includes(traceId));
    expect(logged.length).toBeGreaterThan(0);
    for (const line of logged) expect(JSON.parse(line).traceId).toBe(traceId);
  });
});
