import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { roots, startTestPlatform, type TestPlatform } from '../kit.ts';

/**
 * The pages a person opens, rendered by a real headless Chromium (Debian's `chromium`; .ci/run
 * installs it). Any request leaving the platform's origin fails the page: it must work offline.
 */

const CHROMIUM = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find(
  (candidate): candidate is string => Boolean(candidate && fs.existsSync(candidate)),
);
// CI installs Chromium, so there a missing browser fails the run instead of skipping it.
const skip = !CHROMIUM && !process.env.CI;
const screenshots = fs.mkdtempSync(path.join(os.tmpdir(), 'alp-browser-'));

let platform: TestPlatform;
let browser: Browser;
beforeAll(async () => {
  if (skip) return;
  if (!CHROMIUM) throw new Error('Chromium is not installed: apt-get install chromium (or set CHROMIUM_PATH)');
  platform = await startTestPlatform({ seedDemo: true });
  browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await platform?.close();
  fs.rmSync(screenshots, { recursive: true, force: true });
});

/** A page that records every request it makes to anywhere but the platform. */
async function openPage(url: string): Promise<{ page: Page; foreign: string[]; failed: string[] }> {
  const page = await browser.newPage();
  await page.setViewport({ width: 1280, height: 900 });
  const foreign: string[] = [];
  const failed: string[] = [];
  page.on('request', (request) => {
    if (!request.url().startsWith(platform.url) && !request.url().startsWith('data:')) foreign.push(request.url());
  });
  page.on('response', (response) => {
    // The browser asks for /favicon.ico on its own; no page of ours links one.
    if (response.status() >= 400 && !response.url().endsWith('/favicon.ico'))
      failed.push(`${response.status()} ${response.url()}`);
  });
  await page.goto(url, { waitUntil: 'networkidle0' });
  return { page, foreign, failed };
}

async function screenshot(page: Page, name: string): Promise<void> {
  const file = path.join(screenshots, `${name}.png`);
  await page.screenshot({ path: file });
  expect(fs.statSync(file).size).toBeGreaterThan(10_000);
}

describe.skipIf(skip)('docs pages and the offline GraphQL explorer in a browser', () => {
  for (const service of ['curriculum', 'content', 'events'] as const) {
    it(`renders every ${service} operation at /docs and /docs/`, async () => {
      const description = await (await fetch(`${platform.url}${roots[service]}/openapi.json`)).json();
      const operations = Object.values(description.paths as Record<string, Record<string, unknown>>).reduce(
        (count, item) => count + Object.keys(item).filter((key) => key !== 'parameters').length,
        0,
      );
      for (const suffix of ['/docs', '/docs/']) {
        const { page, foreign, failed } = await openPage(`${platform.url}${roots[service]}${suffix}`);
        await page.waitForSelector('.opblock-summary-path');
        expect(await page.$$eval('.opblock-summary-path', (nodes) => nodes.length), `${service}${suffix}`).toBe(
          operations,
        );
        expect(foreign).toEqual([]);
        expect(failed).toEqual([]);
        await screenshot(page, `${service}${suffix.replaceAll('/', '-')}`);
        await page.close();
      }
    }, 120_000);
  }

  it('runs the headline query in GraphiQL at /graphiql with a token in its Headers editor', async () => {
    const minted = await (
      await fetch(`${platform.url}${roots.curriculum}/dev/mint?tenantId=demo`, { method: 'POST' })
    ).json();
    const { page, foreign, failed } = await openPage(`${platform.url}/graphiql`);
    await page.waitForSelector('.graphiql-container .CodeMirror');
    await page.evaluate((token: string) => {
      type Editor = { getValue(): string; setValue(value: string): void };
      const editors = [...document.querySelectorAll('.CodeMirror')].map(
        (node) => (node as unknown as { CodeMirror: Editor }).CodeMirror,
      );
      const headers = editors.find((editor) => editor.getValue().includes('Authorization'));
      if (!headers) throw new Error('no Headers editor holding an Authorization header');
      headers.setValue(JSON.stringify({ Authorization: `Bearer ${token}` }));
    }, minted.token as string);
    await page.click('.graphiql-execute-button');
    await page.waitForFunction(
      () => document.querySelector('.result-window')?.textContent?.includes('releaseEligible'),
      {
        timeout: 30_000,
      },
    );
    const result = await page.$eval('.result-window', (node) => node.textContent ?? '');
    expect(result).toContain('"releaseEligible": true');
    expect(result).not.toContain('errors');
    expect(foreign).toEqual([]);
    expect(failed).toEqual([]);
    await screenshot(page, 'graphiql');
    await page.close();
  }, 120_000);
});
