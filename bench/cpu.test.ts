import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { cpuBetween, cpuPerRequest, cpuSpent, cpuSum, cpuTotal } from './cpu.ts';

describe("the bench's CPU a request", () => {
  it('reads the CPU of a process whose name holds a parenthesis and spaces', async () => {
    // Busy until it has spent 300 ms of CPU, then idle until stopped: what it spent stays put while it lives.
    // Counted in CPU, not wall time, since a loaded machine gives a 300 ms loop less than 300 ms of CPU.
    const child = spawn(process.execPath, [
      '-e',
      `process.title = 'a) b (c'; const start = process.cpuUsage(); const spent = () => { const used = process.cpuUsage(start); return used.user + used.system; }; while (spent() < 300_000); console.log('done'); setInterval(() => {}, 1000);`,
    ]);
    try {
      const before = cpuSpent(child.pid as number);
      await once(child.stdout, 'data');
      const after = cpuSpent(child.pid as number);
      expect(after.platform - before.platform).toBeGreaterThanOrEqual(200_000);
      expect(after.load).toBeGreaterThanOrEqual(before.load);
      const share = cpuPerRequest(cpuSum([cpuBetween(before, after), cpuBetween(after, after)]), 4);
      expect(share.platform).toBeCloseTo((after.platform - before.platform) / 4);
      expect(cpuTotal(share)).toBeCloseTo(share.platform + share.database + share.load);
    } finally {
      child.kill();
    }
  });

  it('counts nothing for a process that is gone, and no request as one', () => {
    const gone = cpuSpent(2 ** 22 + 1);
    expect(gone.platform).toBe(0);
    expect(cpuPerRequest(cpuBetween(gone, gone), 0)).toEqual({ platform: 0, database: 0, load: 0 });
  });
});
