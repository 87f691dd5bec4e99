import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { lockDataDirectory } from '../../platform/data-dir-lock.ts';

const LOCK_MODULE = fileURLToPath(new URL('../../platform/data-dir-lock.ts', import.meta.url));
const dirs: string[] = [];
const releases: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(releases.splice(0).map((release) => release()));
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'alp-lock-'));
  dirs.push(dir);
  return dir;
}

async function lock(dir: string): Promise<() => Promise<void>> {
  const release = await lockDataDirectory(dir);
  releases.push(release);
  return release;
}

describe('the data-directory lock', () => {
  it('is not blocked by a stale lock file naming a live process', async () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'platform.lock'), '1');
    await expect(lock(dir)).resolves.toBeTypeOf('function');
  });

  it('refuses a second holder of the same directory, by any path to it, until the first lets go', async () => {
    const dir = tempDir();
    const release = await lock(dir);
    await expect(lockDataDirectory(dir)).rejects.toThrow(new RegExp(`in use by process ${process.pid}`));
    const alias = path.join(tempDir(), 'alias');
    fs.symlinkSync(dir, alias);
    await expect(lockDataDirectory(alias)).rejects.toThrow(/in use/);
    await expect(lock(tempDir())).resolves.toBeTypeOf('function');
    await release();
    await expect(lock(dir)).resolves.toBeTypeOf('function');
  });

  it('is freed by the OS when its holder is killed with SIGKILL', async () => {
    const dir = tempDir();
    const script = `const { lockDataDirectory } = await import(${JSON.stringify(LOCK_MODULE)});
      await lockDataDirectory(${JSON.stringify(dir)}); console.log('locked'); setInterval(() => {}, 1000);`;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      await new Promise<void>((resolve, reject) => {
        child.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('locked') && resolve());
        child.once('exit', (code) => reject(new Error(`lock holder exited early (${code})`)));
      });
      await expect(lockDataDirectory(dir)).rejects.toThrow(new RegExp(`in use by process ${child.pid}`));
    } finally {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    }
    await expect(lock(dir)).resolves.toBeTypeOf('function');
  });
});
