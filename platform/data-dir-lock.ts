import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { createHash } from 'node:crypto';

/**
 * One process per data directory: PGlite does not lock its files, and two processes on one
 * directory corrupt it. The lock is a listening unix socket, which the OS releases when the process
 * ends however it ends (kill -9 included), so nothing stale can block a start. On Linux the socket
 * lives in the abstract namespace under a name derived from the directory's real path; elsewhere it
 * is a socket file in the directory, taken over when nobody answers on it.
 */
export async function lockDataDirectory(dataDir: string): Promise<() => Promise<void>> {
  fs.mkdirSync(dataDir, { recursive: true });
  const address = lockAddress(fs.realpathSync(dataDir));
  const server = net.createServer((socket) => socket.end(String(process.pid)));
  try {
    await listen(server, address);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    const holder = await holderOf(address);
    if (holder !== undefined || process.platform === 'linux') {
      throw new Error(
        `DATA_DIR ${dataDir} is in use by process ${holder ?? '(unknown)'}; PGlite allows one process per data directory. ` +
          'Stop the other process or choose another DATA_DIR.',
      );
    }
    // A socket file left by a process that died: nobody listens on it any more.
    fs.rmSync(address, { force: true });
    await listen(server, address);
  }
  // The lock must never keep the process alive on its own.
  server.unref();
  return () => new Promise<void>((resolve) => server.close(() => resolve()));
}

function lockAddress(realDir: string): string {
  if (process.platform !== 'linux') return path.join(realDir, 'platform.lock.sock');
  return `\0adaptive-learning-platform:${createHash('sha256').update(realDir).digest('hex')}`;
}

function listen(server: net.Server, address: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(address, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** The PID the lock holder answers with ('unknown' if it is slow to), or undefined when nobody listens. */
function holderOf(address: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    let connected = false;
    let answer = '';
    const socket = net.connect(address, () => (connected = true));
    socket.setTimeout(1000, () => socket.destroy());
    socket.on('data', (chunk) => (answer += chunk.toString()));
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(connected ? answer || 'unknown' : undefined));
  });
}
