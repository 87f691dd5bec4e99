import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

/**
 * CPU time from Linux's /proc, for the bench's CPU a request: it moves less than requests a second when the
 * machine's other tenants take the cores (which `elsewhere` measures), so it compares scenarios across quiet runs.
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

/** Microsecond counters sampled together: a process tree's CPU, or the whole machine's. */
type Counters<T> = { [Counter in keyof T]: number };

const eachCounter = <T extends Counters<T>>(shape: T, value: (counter: keyof T) => number): T =>
  Object.fromEntries(Object.keys(shape).map((counter) => [counter, value(counter as keyof T)])) as T;

/** What was spent between two samples. */
export const spentBetween = <T extends Counters<T>>(before: T, after: T) =>
  eachCounter(after, (counter) => after[counter] - before[counter]);

/** What several spans spent together: rounds of one scenario, with other scenarios' rounds between them. */
export const spentSum = <T extends Counters<T>>(spans: T[]) =>
  eachCounter(spans[0], (counter) => spans.reduce<number>((sum, span) => sum + span[counter], 0));

/** A request's share of what was spent. */
export const cpuPerRequest = (spent: CpuSpent, requests: number) =>
  eachCounter(spent, (part) => spent[part] / Math.max(1, requests));

export const cpuTotal = (cpu: CpuSpent) => cpu.platform + cpu.database + cpu.load;

/** Every core's time so far, from /proc/stat: all of it, what was busy, and what the host gave other guests. */
export interface MachineSpent {
  all: number;
  /** Busy in any process, the host's steal included. */
  busy: number;
  /** Taken by the host while this machine had work to run. */
  steal: number;
}

/** Zero on a machine without /proc/stat: its shares then print as unknown. */
export function machineSpent(): MachineSpent {
  let stat: string;
  try {
    stat = fs.readFileSync('/proc/stat', 'utf8');
  } catch {
    return { all: 0, busy: 0, steal: 0 };
  }
  // The first line sums the cores: user nice system idle iowait irq softirq steal (guest time is inside user).
  const [user, nice, system, idle, iowait, irq, softirq, steal] = stat
    .slice(0, stat.indexOf('\n'))
    .trim()
    .split(/\s+/)
    .slice(1)
    .map((ticks) => (Number(ticks) * 1e6) / TICKS_PER_SECOND);
  const busy = user + nice + system + irq + softirq + steal;
  return { all: busy + idle + iowait, busy, steal };
}

/**
 * The shares of the cores' time that the request path did not spend while it ran: other processes' CPU, and the
 * host's steal. Either one slows a row's rate and raises its CPU a request, so a run is read with them.
 */
export interface ElsewhereShares {
  others: number;
  steal: number;
}

export function elsewhere(machine: MachineSpent, path: CpuSpent): ElsewhereShares | undefined {
  if (machine.all <= 0) return undefined;
  const others = Math.max(0, machine.busy - machine.steal - cpuTotal(path));
  return { others: others / machine.all, steal: machine.steal / machine.all };
}
