import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

/**
 * CPU time from Linux's /proc, for the bench's CPU a request: unlike requests a second, it does not move when
 * the machine's other tenants take the cores, so it compares scenarios across runs and machines.
 */
const TICKS_PER_SECOND = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;

/** Microseconds of CPU spent so far by each part of a request's path on this machine. */
export interface CpuSpent {
  /** The platform's process (its event loop, V8's helper threads, PGlite's WASM). */
  platform: number;
  /** Every PostgreSQL process on this machine, the backends that exited included; none on PGlite. */
  database: number;
  /** This process, where autocannon runs: the load generator. */
  load: number;
}

/** The fields of /proc/<pid>/stat after the command name, which may hold spaces; none once the process is gone. */
function statFields(pid: number | string): { command: string; fields: string[] } | undefined {
  let stat: string;
  try {
    stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  const close = stat.lastIndexOf(')');
  return { command: stat.slice(stat.indexOf('(') + 1, close), fields: stat.slice(close + 2).split(' ') };
}

// After the command name: utime, stime, cutime and cstime are the 12th to the 15th field (proc(5)).
const ownTicks = (fields: string[]) => Number(fields[11]) + Number(fields[12]);
const reapedTicks = (fields: string[]) => Number(fields[13]) + Number(fields[14]);

/** The postmaster's reaped children carry the CPU of backends that closed between two samples. */
function postgresTicks(): number {
  let ticks = 0;
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d/.test(entry)) continue;
    const stat = statFields(entry);
    if (stat?.command === 'postgres') ticks += ownTicks(stat.fields) + reapedTicks(stat.fields);
  }
  return ticks;
}

export function cpuSpent(platformPid: number): CpuSpent {
  const platform = statFields(platformPid);
  const load = process.cpuUsage();
  return {
    platform: platform ? (ownTicks(platform.fields) * 1e6) / TICKS_PER_SECOND : 0,
    database: (postgresTicks() * 1e6) / TICKS_PER_SECOND,
    load: load.user + load.system,
  };
}

const byPart = (value: (part: keyof CpuSpent) => number): CpuSpent => ({
  platform: value('platform'),
  database: value('database'),
  load: value('load'),
});

/** What was spent between two samples. */
export const cpuBetween = (before: CpuSpent, after: CpuSpent) => byPart((part) => after[part] - before[part]);

/** What several spans spent together: rounds of one scenario, with other scenarios' rounds between them. */
export const cpuSum = (spans: CpuSpent[]) => byPart((part) => spans.reduce((sum, span) => sum + span[part], 0));

/** A request's share of what was spent. */
export const cpuPerRequest = (spent: CpuSpent, requests: number) =>
  byPart((part) => spent[part] / Math.max(1, requests));

export const cpuTotal = (cpu: CpuSpent) => cpu.platform + cpu.database + cpu.load;
