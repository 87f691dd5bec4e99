import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const DRIZZLE_KIT = path.join(ROOT, 'node_modules/.bin/drizzle-kit');
const services = fs
  .readdirSync(path.join(ROOT, 'drizzle'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

function filesUnder(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const name of fs.readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    const file = path.join(dir, name);
    if (fs.statSync(file).isFile()) files.set(name, fs.readFileSync(file, 'utf8'));
  }
  return files;
}

/**
 * drizzle-kit generate, run against a copy of a service's migrations, must find nothing to write: a table
 * changed without `npm run db:generate` would migrate a fresh database to something else than the code
 * reads and writes.
 */
describe('migrations match the drizzle tables', () => {
  it.each(services)('%s', (service) => {
    const copy = fs.mkdtempSync(path.join(os.tmpdir(), `alp-migrations-${service}-`));
    try {
      fs.cpSync(path.join(ROOT, 'drizzle', service), copy, { recursive: true });
      // drizzle-kit prefixes "./" to --out, so it must be relative to the working directory.
      const output = execFileSync(
        DRIZZLE_KIT,
        [
          'generate',
          '--dialect',
          'postgresql',
          '--schema',
          `subgraphs/${service}/tables.ts`,
          '--out',
          path.relative(ROOT, copy),
        ],
        { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
      );
      expect(output).toContain('No schema changes');
      expect(filesUnder(copy)).toEqual(filesUnder(path.join(ROOT, 'drizzle', service)));
    } finally {
      fs.rmSync(copy, { recursive: true, force: true });
    }
  });
});
