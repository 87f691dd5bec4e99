import { spawn } from 'node:child_process';
import { once } from 'node:events';
import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { cpuPerRequest, cpuSpent, cpuTotal, elsewhere, machineSpent, spentBetween, spentSum } from './cpu.ts';

describe("the bench's CPU a request", () => {
  it("reads the CPU of a process whose name holds a parenthesis and spaces, and the whole machine's around it", async () => {
    // Busy until it has spent 300 ms of CPU, then idle until stopped: what it spent stays put while it lives.
    // Counted in CPU, not wall time, since a loaded machine gives a 300 ms loop less than 300 ms of CPU.
    const child = spawn(process.execPath, [
      '-e',
      `process.title = 'a) b (c'; const start = process.cpuUsage(); const spent = () => { const used = process.cpuUsage(start); return used.user + used.system; }; while (spent() < 300_000); console.log('done'); setInterval(() => {}, 1000);`,
    ]);
    try {
      const before = cpuSpent(child.pid as number);
      const machineBefore = machineSpent();
      const startedMs = performance.now();
      await once(child.stdout, 'data');
      const elapsedUs = (performance.now() - startedMs) * 1000;
      const after = cpuSpent(child.pid as number);
      const machine = spentBetween(machineBefore, machineSpent());
      const path = spentBetween(before, after);
      expect(path.platform).toBeGreaterThanOrEqual(200_000);
      expect(path.load).toBeGreaterThanOrEqual(0);
      const share = cpuPerRequest(spentSum([path, spentBetween(after, after)]), 4);
      expect(share.platform).toBeCloseTo(path.platform / 4);
      expect(cpuTotal(share)).toBeCloseTo(share.platform + share.database + share.load);

      // The machine was busy at least while the child was (less a tick of each clock), and the child's CPU is
      // not counted as spent elsewhere.
      expect(machine.busy).toBeGreaterThanOrEqual(path.platform - 20_000);
      expect(machine.all).toBeGreaterThanOrEqual(machine.busy);
      // Every core's time: the wall time as many times as there are cores.
      expect(machine.all / (elapsedUs * os.cpus().length)).toBeGreaterThan(0.75);
      expect(machine.all / (elapsedUs * os.cpus().length)).toBeLessThan(1.25);
      const nothing = { platform: 0, database: 0, load: 0 };
      const withoutPath = elsewhere(machine, nothing);
      const withPath = elsewhere(machine, path);
      expect(withoutPath?.others).toBeCloseTo((machine.busy - machine.steal) / machine.all);
      expect(withPath?.others).toBeLessThan(withoutPath?.others as number);
      expect(withPath?.steal).toBeGreaterThanOrEqual(0);
      expect(withPath?.steal).toBeLessThanOrEqual(1);
      expect(elsewhere({ all: 0, busy: 0, steal: 0 }, nothing)).toBeUndefined();
    } finally {
      child.kill();
    }
  });

  it('counts nothing for a process that is gone, and no request as one', () => {
    const gone = cpuSpent(2 ** 22 + 1);
    expect(gone.platform).toBe(0);
    expect(cpuPerRequest(spentBetween(gone, gone), 0)).toEqual({ platform: 0, database: 0, load: 0 });
  });
});
