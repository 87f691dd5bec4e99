import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { startPlatform } from '../../gateway/platform.ts';
import { curriculumV1, http, roots, tenantRoot } from '../kit.ts';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'alp-restart-'));
const start = () =>
  startPlatform({
    gateway: {},
    config: { port: 0, dataDir, keyFile: path.join(dataDir, 'platform-keys.json'), logLevel: 'silent', seedDemo: true },
  });

afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

describe('stop and start again', () => {
  it('keeps every row and honours tokens minted before the restart', async () => {
    const first = await start();
    const minted = await http(first, 'POST', `${roots.content}/dev/mint?tenantId=demo`);
    const token = minted.body.token as string;
    const created = await http(first, 'POST', `${tenantRoot('demo')}/items`, {
      token,
      headers: { 'idempotency-key': randomUUID() },
      body: { content_kind: 'video', title: 'Survives restarts' },
    });
    expect(created.status).toBe(201);
    const seeded = await http(first, 'GET', `${curriculumV1}/components?limit=200`, { token });
    await first.close();

    const second = await start();
    try {
      const item = await http(second, 'GET', `${tenantRoot('demo')}/items/${created.body.content_id}`, { token });
      expect(item.status).toBe(200);
      expect(item.body.title).toBe('Survives restarts');
      const components = await http(second, 'GET', `${curriculumV1}/components?limit=200`, { token });
      expect(components.body.data).toEqual(seeded.body.data);
      expect(
        seeded.body.data.some(
          (component: { component_id: string }) => component.component_id === 'demo-course-fractions',
        ),
      ).toBe(true);
    } finally {
      await second.close();
    }
  });

  it.skipIf(Boolean(process.env.DATABASE_URL))(
    'refuses a second process on the same PGlite data directory',
    async () => {
      const running = await start();
      try {
        await expect(start()).rejects.toThrow(/in use/);
      } finally {
        await running.close();
      }
    },
  );
});
