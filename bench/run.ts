import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { SERVICE_ROOTS } from '../platform/config.ts';
import { freePort } from '../test/net.ts';
import { startTestPlatform } from '../test/kit.ts';

/**
 * `npm run bench`: starts the platform (embedded mode, its own process, a fresh data directory) and
 * drives it with autocannon, one scenario after another in the same run, so the ratios compare like
 * with like on a noisy machine. Targets are checked here, never in timed tests.
 */
const DURATION_SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const ABUSE_SECONDS = Number(process.env.BENCH_ABUSE_SECONDS ?? 60);
const HEALTHZ_TARGET_P99_MS = 100;
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const ROUNDS = 4;
const TARGET_RATIO = 1 / 3;
const LESSON_ID = 'demo-lesson-what-is-a-fraction';
const HEADLINE = `query($id: ID!) { component(componentId: $id) { componentId kind alpha { targetRef { contentId contentVersionId contentKind version { versionId versionNumber releaseEligibility { contentId contentVersionId releaseEligible serveable trustStatus usageScope problemCode } } } } } }`;

/** What issue 14 sent: each must be refused with a 4xx before it costs the platform anything. */
function abusiveRequests(): Array<{ name: string; body: string }> {
  let nested = 'componentId';
  for (let level = 10; level >= 1; level -= 1) nested = `${level % 2 === 1 ? 'parent' : 'children'} { ${nested} }`;
  // Short alias names keep this one under the document size limit, so the alias limit is what refuses it.
  const aliases = Array.from({ length: 2000 }, (_, index) => `_${index.toString(36)}:__typename`).join(' ');
  const oversized = Array.from(
    { length: 2000 },
    (_, index) => `a${index}: component(componentId: "${LESSON_ID}") { componentId }`,
  ).join(' ');
  return [
    {
      name: '12-deep parent/children',
      body: JSON.stringify({ query: `{ component(componentId: "${LESSON_ID}") { ${nested} } }` }),
    },
    { name: '2,000 aliases', body: JSON.stringify({ query: `{ ${aliases} }` }) },
    { name: 'oversized document', body: JSON.stringify({ query: `{ ${oversized} }` }) },
  ];
}

function percentile(samples: number[], fraction: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? 0;
}

/**
 * The headline query held at the measured rate while a second client sends the abusive queries
 * back to back (when `abusing`) and a third probes /healthz every 50 ms. Loopback only, bounded by
 * `seconds`. Run once without abuse too, so the report tells the abuse's share from the load's.
 */
async function underAbuse(
  base: string,
  token: string,
  scenario: Scenario,
  rate: number,
  seconds: number,
  abusing: boolean,
) {
  const deadline = Date.now() + seconds * 1000;
  const abusive = abusing ? abusiveRequests() : [];
  const refused = new Map<string, Map<number, number>>(abusive.map((request) => [request.name, new Map()]));
  const abuse = async () => {
    for (let index = 0; abusive.length > 0 && Date.now() < deadline; index += 1) {
      const request = abusive[index % abusive.length];
      const response = await fetch(`${base}/graphql`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: request.body,
      });
      await response.arrayBuffer();
      const statuses = refused.get(request.name) as Map<number, number>;
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
    }
  };
  const healthz: number[] = [];
  const probe = async () => {
    while (Date.now() < deadline) {
      const started = performance.now();
      await (await fetch(`${base}/healthz`)).arrayBuffer();
      healthz.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  const [legitimate] = await Promise.all([
    autocannon({
      url: `${base}${scenario.path}`,
      method: scenario.method,
      connections: CONNECTIONS,
      overallRate: Math.max(1, Math.round(rate)),
      duration: seconds,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: scenario.body,
    }),
    abuse(),
    probe(),
  ]);
  return {
    rps: legitimate.requests.average,
    failures: legitimate.non2xx + legitimate.errors + legitimate.timeouts,
    refused,
    healthzP99: percentile(healthz, 0.99),
    healthzMax: Math.max(...healthz),
  };
}

function rssMegabytes(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

interface Scenario {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  body?: string;
}

async function drive(base: string, token: string, scenario: Scenario, seconds: number) {
  const result = await autocannon({
    url: `${base}${scenario.path}`,
    method: scenario.method,
    connections: CONNECTIONS,
    duration: seconds,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: scenario.body,
  });
  const failures = result.non2xx + result.errors + result.timeouts;
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, failures };
}

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'alp-bench-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = spawn(
    process.execPath,
    [...(process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean), '--import', 'tsx', 'gateway/main.ts'],
    {
      // Production posture, except the demo mint the bench takes its token from.
      env: {
        ...process.env,
        PORT: String(port),
        DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
        NODE_ENV: 'production',
        DEV_ROUTES: 'on',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  try {
    for (let attempt = 0; ; attempt += 1) {
      try {
        if ((await fetch(`${base}/readyz`)).status === 200) break;
      } catch {
        // starting
      }
      if (attempt > 300) throw new Error('the platform did not start');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const { token } = await (
      await fetch(`${base}${SERVICE_ROOTS.curriculum}/dev/mint?tenantId=demo`, { method: 'POST' })
    ).json();
    const component = await (
      await fetch(`${base}${SERVICE_ROOTS.curriculum}/alpha/curriculum/v1/components/${LESSON_ID}`, {
        headers: { authorization: `Bearer ${token}` },
      })
    ).json();
    const pin = component.alpha.target_ref;
    const scenarios: Scenario[] = [
      {
        name: 'GraphQL headline query (gateway)',
        method: 'POST',
        path: '/graphql',
        body: JSON.stringify({ query: HEADLINE, variables: { id: LESSON_ID } }),
      },
      {
        name: 'REST component read',
        method: 'GET',
        path: `${SERVICE_ROOTS.curriculum}/alpha/curriculum/v1/components/${LESSON_ID}`,
      },
      {
        name: 'REST release-eligibility read',
        method: 'GET',
        path: `${SERVICE_ROOTS.content}/tenants/demo/alpha/content/items/${pin.content_id}/versions/${pin.content_version_id}/release-eligibility`,
      },
    ];
    for (const scenario of scenarios) await drive(base, token, scenario, 2); // warm-up: JIT, caches, query plans
    const rssBefore = rssMegabytes(server.pid as number);
    // Rounds in alternating order, so drift on a noisy machine does not favour one scenario.
    const samples = new Map<Scenario, Array<Awaited<ReturnType<typeof drive>>>>(
      scenarios.map((scenario) => [scenario, []]),
    );
    for (let round = 0; round < ROUNDS; round += 1) {
      const order = round % 2 === 0 ? scenarios : [...scenarios].reverse();
      for (const scenario of order)
        samples.get(scenario)?.push(await drive(base, token, scenario, DURATION_SECONDS / ROUNDS));
    }
    const results = scenarios.map((scenario) => {
      const runs = samples.get(scenario) ?? [];
      const mean = (pick: (run: (typeof runs)[number]) => number) =>
        runs.reduce((sum, run) => sum + pick(run), 0) / runs.length;
      return {
        scenario,
        rps: mean((run) => run.rps),
        p50: mean((run) => run.p50),
        p99: mean((run) => run.p99),
        failures: runs.reduce((sum, run) => sum + run.failures, 0),
      };
    });
    const rssAfter = rssMegabytes(server.pid as number);
    const loaded = await underAbuse(base, token, scenarios[0], results[0].rps, ABUSE_SECONDS, false);
    const abused = await underAbuse(base, token, scenarios[0], results[0].rps, ABUSE_SECONDS, true);

    console.log(
      `\n${DURATION_SECONDS}s per scenario in ${ROUNDS} alternating rounds, ${CONNECTIONS} connections, node ${process.version}, ${os.cpus().length} cores`,
    );
    console.log('scenario                                  req/s     p50 ms   p99 ms   failures');
    for (const result of results) {
      console.log(
        `${result.scenario.name.padEnd(40)} ${result.rps.toFixed(0).padStart(7)} ${result.p50.toFixed(0).padStart(8)} ${result.p99.toFixed(0).padStart(8)} ${String(result.failures).padStart(10)}`,
      );
    }
    const ratio = results[0].rps / results[1].rps;
    console.log(
      `\nheadline GraphQL / REST component read = ${ratio.toFixed(2)} (target >= ${TARGET_RATIO.toFixed(2)}) ${ratio >= TARGET_RATIO ? 'MET' : 'MISSED'}`,
    );
    console.log(
      `server RSS: ${rssBefore.toFixed(0)} MB before, ${rssAfter.toFixed(0)} MB after the measured scenarios`,
    );

    console.log(
      `\nunder abuse for ${ABUSE_SECONDS}s: ${scenarios[0].name} held at ${results[0].rps.toFixed(0)} req/s (served ${abused.rps.toFixed(0)} req/s)`,
    );
    for (const [name, statuses] of abused.refused) {
      console.log(
        `  ${name.padEnd(26)} answered ${[...statuses].map(([status, count]) => `${count} x ${status}`).join(', ')}`,
      );
    }
    const abuseRefused = [...abused.refused.values()].every((statuses) =>
      [...statuses.keys()].every((status) => status >= 400 && status < 500),
    );
    const healthy = abused.healthzP99 < HEALTHZ_TARGET_P99_MS;
    console.log(
      `  /healthz p99 ${abused.healthzP99.toFixed(1)} ms, max ${abused.healthzMax.toFixed(1)} ms (target < ${HEALTHZ_TARGET_P99_MS}) ${healthy ? 'MET' : 'MISSED'}`,
    );
    console.log(
      `  the same load without abuse: /healthz p99 ${loaded.healthzP99.toFixed(1)} ms, max ${loaded.healthzMax.toFixed(1)} ms`,
    );
    const failed = loaded.failures + abused.failures;
    console.log(
      `  legitimate requests failed: ${failed}; every abusive request refused with a 4xx: ${abuseRefused ? 'yes' : 'NO'}`,
    );
    if (results.some((result) => result.failures > 0) || failed > 0 || !abuseRefused) process.exitCode = 1;
    await learnerBench(base, token, pin, results[1].rps);
  } finally {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

const LEARNER_UNITS = 40;
const LESSONS_PER_UNIT = 49; // 1 course + 40 units + 1,960 lessons = 2,001 components

/** Authors a published course of about 2,000 pinned, KC-scoped components through REST, a few requests at a time. */
async function authorLargeCourse(base: string, token: string, courseId: string, pin: unknown): Promise<void> {
  const send = async (method: 'POST' | 'PATCH', path: string, body: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(`${base}${SERVICE_ROOTS.curriculum}/alpha/curriculum/v1${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        'idempotency-key': crypto.randomUUID(),
        ...headers,
      },
      body: JSON.stringify(body),
    });
    if (response.status >= 300) throw new Error(`${path}: ${response.status} ${await response.text()}`);
    return response.json();
  };
  const draft = await send('POST', '/kcs', {
    stored_as: 'alpha.knowledge_component',
    definition: `Bench KC ${courseId}`,
  });
  const kc = await send(
    'PATCH',
    `/kcs/${draft.kc_id}`,
    { publication_status: 'published' },
    { 'if-match': draft.etag },
  );
  // Nothing is born published: each component is created draft, then published by PATCH.
  const post = async (body: { component_id: string } & Record<string, unknown>) => {
    const created = await send('POST', '/components', body);
    await send(
      'PATCH',
      `/components/${body.component_id}`,
      { alpha: { publication_status: 'published' } },
      { 'x-curriculum-if-match': created.etag },
    );
  };
  await post({ component_id: courseId, kind: 'course', alpha: { subject_id: 'math' } });
  const units = Array.from({ length: LEARNER_UNITS }, (_, unit) => `${courseId}.u${unit}`);
  await Promise.all(
    units.map((unitId, position) =>
      post({
        component_id: unitId,
        kind: 'unit',
        parent_component_id: courseId,
        position,
      }),
    ),
  );
  const lessons = units.flatMap((unitId) =>
    Array.from({ length: LESSONS_PER_UNIT }, (_, position) => ({ unitId, position })),
  );
  for (let start = 0; start < lessons.length; start += 8) {
    await Promise.all(
      lessons.slice(start, start + 8).map(({ unitId, position }) =>
        post({
          component_id: `${unitId}.l${position}`,
          kind: 'lesson',
          parent_component_id: unitId,
          position,
          alpha: { target_ref: pin, scope_kc_refs: [kc.kc_id] },
        }),
      ),
    );
  }
}

/**
 * next-lesson and approval on a course of 2,000 components: throughput on the benchmarked server,
 * SQL statements per request counted in-process on the same course shape (the server process
 * keeps its counter to itself).
 */
async function learnerBench(base: string, token: string, pin: unknown, componentReadRps: number): Promise<void> {
  const courseId = `bench-course-${Date.now()}`;
  const approve = (url: string, bearer: string) =>
    fetch(`${url}${SERVICE_ROOTS.curriculum}/alpha/curriculum/v1/courses/${courseId}/approvals`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${bearer}`,
        'content-type': 'application/json',
        'idempotency-key': crypto.randomUUID(),
      },
      body: JSON.stringify({ approved_by: 'bench', provenance: { source: 'bench', course_ref: courseId } }),
    });
  const authored = Date.now();
  await authorLargeCourse(base, token, courseId, pin);
  console.log(
    `\nlearner path: authored ${1 + LEARNER_UNITS * (1 + LESSONS_PER_UNIT)} components in ${((Date.now() - authored) / 1000).toFixed(1)}s`,
  );
  const timings: number[] = [];
  for (let run = 0; run < 5; run += 1) {
    const started = performance.now();
    const response = await approve(base, token);
    if (response.status >= 300) throw new Error(`approval: ${response.status} ${await response.text()}`);
    timings.push(performance.now() - started);
  }
  const nextLessonPath = `${SERVICE_ROOTS.curriculum}/alpha/curriculum/v1/courses/${courseId}/next-lesson`;
  await drive(base, token, { name: 'warm-up', method: 'GET', path: nextLessonPath }, 2);
  // Each request reads and digests the whole course: a window of whole seconds, so slow requests still complete in it.
  const routed = await drive(
    base,
    token,
    { name: 'next-lesson', method: 'GET', path: nextLessonPath },
    Math.max(DURATION_SECONDS, 5),
  );

  const counted = await startTestPlatform({ seedDemo: true });
  try {
    const { token: localToken } = await (
      await fetch(`${counted.url}${SERVICE_ROOTS.curriculum}/dev/mint?tenantId=demo`, { method: 'POST' })
    ).json();
    const localLesson = await (
      await fetch(`${counted.url}${SERVICE_ROOTS.curriculum}/alpha/curriculum/v1/components/${LESSON_ID}`, {
        headers: { authorization: `Bearer ${localToken}` },
      })
    ).json();
    await authorLargeCourse(counted.url, localToken, courseId, localLesson.alpha.target_ref);
    const statementsOf = async (request: () => Promise<Response>) => {
      const before = counted.runtime.database.stats.queries;
      const response = await request();
      if (response.status >= 300) throw new Error(`${response.status} ${await response.text()}`);
      return counted.runtime.database.stats.queries - before;
    };
    const approval = await statementsOf(() => approve(counted.url, localToken));
    const nextLesson = await statementsOf(() =>
      fetch(`${counted.url}${nextLessonPath}`, { headers: { authorization: `Bearer ${localToken}` } }),
    );
    console.log(
      'scenario                                  req/s     p50 ms   p99 ms   failures   SQL statements/request',
    );
    console.log(
      `${'next-lesson, 2,000 components'.padEnd(40)} ${routed.rps.toFixed(0).padStart(7)} ${routed.p50.toFixed(0).padStart(8)} ` +
        `${routed.p99.toFixed(0).padStart(8)} ${String(routed.failures).padStart(10)} ${String(nextLesson).padStart(12)}`,
    );
    const mean = timings.reduce((sum, ms) => sum + ms, 0) / timings.length;
    console.log(
      `${'approval, 2,000 components'.padEnd(40)} ${(1000 / mean).toFixed(1).padStart(7)} ${mean.toFixed(0).padStart(8)} ` +
        `${Math.max(...timings)
          .toFixed(0)
          .padStart(8)} ${'0'.padStart(10)} ${String(approval).padStart(12)}`,
    );
    console.log(`next-lesson / REST component read = ${(routed.rps / componentReadRps).toFixed(2)}`);
    if (routed.failures > 0) process.exitCode = 1;
  } finally {
    await counted.close();
  }
}

await main();
