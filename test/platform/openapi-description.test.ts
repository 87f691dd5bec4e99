import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, roots, startTestPlatform, type TestPlatform } from '../kit.ts';

const run = promisify(execFile);
const SERVICES = ['content', 'curriculum', 'events'] as const;
const bin = (name: string) => path.resolve('node_modules/.bin', name);

let platform: TestPlatform;
let workDir: string;
beforeAll(async () => {
  platform = await startTestPlatform();
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'alp-openapi-'));
});
afterAll(async () => {
  await platform?.close();
  if (workDir) fs.rmSync(workDir, { recursive: true, force: true });
});

async function description(service: (typeof SERVICES)[number]): Promise<Record<string, any>> {
  const reply = await http(platform, 'GET', `${roots[service]}/openapi.json`);
  expect(reply.status).toBe(200);
  return reply.body;
}

describe('served OpenAPI descriptions', () => {
  it.each(SERVICES)('%s is OpenAPI 3.1 with one unique operationId per operation', async (service) => {
    const document = await description(service);
    expect(document.openapi).toBe('3.1.0');
    const operations = Object.values(document.paths).flatMap((item: any) => Object.values(item)) as Array<{
      operationId: string;
    }>;
    const ids = operations.map((operation) => operation.operationId);
    expect(ids.every((id) => typeof id === 'string' && id.length > 0)).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it.each(SERVICES)('%s describes every query parameter of every operation', async (service) => {
    const document = await description(service);
    const bare = Object.entries(document.paths).flatMap(([route, item]: [string, any]) =>
      Object.entries(item).flatMap(([method, operation]: [string, any]) =>
        ((operation.parameters ?? []) as Array<{ in: string; name: string; description?: string }>)
          .filter((parameter) => parameter.in === 'query' && !parameter.description?.trim())
          .map((parameter) => `${method.toUpperCase()} ${route} ?${parameter.name}`),
      ),
    );
    expect(bare).toEqual([]);
  });

  it.each(SERVICES)(
    '%s lints with no error and no warning under the recommended rules of @redocly/cli',
    async (service) => {
      const file = path.join(workDir, `${service}.json`);
      fs.writeFileSync(file, JSON.stringify(await description(service)));
      fs.writeFileSync(path.join(workDir, 'redocly.yaml'), 'extends:\n  - recommended\n');
      const result = await run(
        bin('redocly'),
        ['lint', file, '--config', path.join(workDir, 'redocly.yaml'), '--format', 'json'],
        {
          cwd: workDir,
          env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
        },
      ).catch((failure: { stdout: string }) => failure);
      const report = JSON.parse(result.stdout) as {
        totals: { errors: number; warnings: number };
        problems: Array<{ ruleId: string; message: string }>;
      };
      expect(report.problems.map((problem) => `${problem.ruleId}: ${problem.message}`)).toEqual([]);
      expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
    },
    120_000,
  );

  it('types a generated client: component_id is a string, not unknown', async () => {
    const file = path.join(workDir, 'curriculum.json');
    fs.writeFileSync(file, JSON.stringify(await description('curriculum')));
    await run(bin('openapi-typescript'), [file, '--output', path.join(workDir, 'curriculum.d.ts')], { cwd: workDir });
    const componentPath = `${roots.curriculum}/alpha/curriculum/v1/components/{componentId}`;
    fs.writeFileSync(
      path.join(workDir, 'consumer.ts'),
      [
        "import type { paths } from './curriculum.d.ts';",
        `type Component = paths['${componentPath}']['get']['responses'][200]['content']['application/json'];`,
        'export function label(component: Component): string {',
        '  const id: string = component.component_id;',
        '  // @ts-expect-error a string is not a number: the generated type is precise, not unknown',
        '  const wrong: number = component.component_id;',
        '  return `${id} ${wrong} ${component.kind} ${component.retired_at ?? "active"}`;',
        '}',
        '',
      ].join('\n'),
    );
    const args = [
      '--noEmit',
      '--strict',
      '--allowImportingTsExtensions',
      '--module',
      'nodenext',
      '--target',
      'es2022',
      'consumer.ts',
    ];
    const checked = await run(bin('tsc'), args, { cwd: workDir }).catch((failure: { stdout: string }) => failure);
    expect(checked.stdout).toBe('');
  }, 180_000);
});
