/**
 * CPU use during a load run, from /proc (Linux; null elsewhere): the server child's, the load
 * generator's (this process) and the whole machine's. On a 2-core box these tell whether a
 * figure is the server's limit or the machine's. And a thread's own (threadCpuSeconds), which
 * bench:cam reads for the planner's thread; another process's thread (taskCpuSeconds) and a whole
 * local PostgreSQL server (clusterCpuSeconds), which bench:load reads.
 */
import fs from "node:fs";
import os from "node:os";

// USER_HZ: 100 on every Linux architecture Node runs on
const CLOCK_TICKS_PER_SECOND = 100;

export interface CpuSnapshot {
  atNs: bigint;
  /** CPU seconds of the watched process, or null */
  processSeconds: number | null;
  /** CPU seconds of this process */
  selfSeconds: number;
  /** busy and total jiffies of the machine, or null */
  machine: { busy: number; total: number } | null;
}

export interface CpuUse {
  /** percent of one core */
  serverPercent: number | null;
  /** percent of one core */
  loadGeneratorPercent: number;
  /** percent of all cores */
  machinePercent: number | null;
}

function processSeconds(pid: number): number | null {
  return statSeconds(`/proc/${pid}/stat`);
}

/**
 * CPU seconds of the calling thread alone, or null (not Linux). A planner's helper threads and
 * V8's own run beside it: the process's CPU time says what the cores had to do, this how much of
 * it was the planner's thread, the plan's critical path.
 */
export function threadCpuSeconds(): number | null {
  return statSeconds("/proc/thread-self/stat");
}

/** CPU seconds of one thread of another process (a process's main thread has its pid as tid), or null. */
export function taskCpuSeconds(pid: number, tid: number): number | null {
  return statSeconds(`/proc/${pid}/task/${tid}/stat`);
}

function statSeconds(path: string): number | null {
  const fields = statFields(path);
  if (!fields) return null;
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  return Number.isFinite(utime + stime) ? (utime + stime) / CLOCK_TICKS_PER_SECOND : null;
}

function machineJiffies(): { busy: number; total: number } | null {
  try {
    const line = fs.readFileSync("/proc/stat", "utf8").split("\n", 1)[0] ?? "";
    const values = line.trim().split(/\s+/).slice(1, 9).map(Number);
    if (values.length < 5 || values.some((v) => !Number.isFinite(v))) return null;
    const total = values.reduce((a, b) => a + b, 0);
    const idle = (values[3] ?? 0) + (values[4] ?? 0);
    return { busy: total - idle, total };
  } catch {
    return null;
  }
}

/**
 * CPU seconds per pid of the given database backends, when they run on this machine (a pid
 * that is not a postgres process here, e.g. of a remote server, is left out).
 */
export function backendCpuSeconds(pids: readonly number[]): Map<number, number> {
  const seconds = new Map<number, number>();
  for (const pid of pids) {
    try {
      if (!fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").startsWith("postgres")) continue;
    } catch {
      continue;
    }
    const value = processSeconds(pid);
    if (value !== null) seconds.set(pid, value);
  }
  return seconds;
}

/**
 * The postmaster of a local PostgreSQL server, from one of its backends' pids (`select
 * pg_backend_pid()`); null when that is no postgres process on this machine (a remote server)
 * or not Linux.
 */
export function postmasterOf(backendPid: number): number | null {
  const parent = statFields(`/proc/${backendPid}/stat`)?.[1];
  if (parent === undefined) return null;
  try {
    return fs.readFileSync(`/proc/${parent}/cmdline`, "utf8").includes("postgres") ? Number(parent) : null;
  } catch {
    return null;
  }
}

/**
 * CPU seconds of a whole local PostgreSQL server so far: the postmaster, every process it runs
 * (backends, background writers, autovacuum) and those it has reaped, so that backends a pool
 * closed along the way still count. Null when the postmaster is gone.
 */
export function clusterCpuSeconds(postmaster: number): number | null {
  const own = statFields(`/proc/${postmaster}/stat`);
  if (!own) return null;
  // utime, stime, and cutime, cstime: the reaped children's
  let ticks = Number(own[11]) + Number(own[12]) + Number(own[13]) + Number(own[14]);
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const fields = statFields(`/proc/${entry}/stat`);
    if (fields?.[1] === String(postmaster)) ticks += Number(fields[11]) + Number(fields[12]);
  }
  return Number.isFinite(ticks) ? ticks / CLOCK_TICKS_PER_SECOND : null;
}

/** The fields of a /proc stat file after the command name (the state first), or null. */
function statFields(path: string): string[] | null {
  try {
    const stat = fs.readFileSync(path, "utf8");
    // the command name may contain spaces: the fields we want follow its closing parenthesis
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  } catch {
    return null;
  }
}

/** CPU seconds the backends used between two readings; a backend new in `after` counts from 0. */
export function backendCpuBetween(before: Map<number, number>, after: Map<number, number>): number | null {
  if (after.size === 0) return null;
  let total = 0;
  for (const [pid, value] of after) total += value - (before.get(pid) ?? 0);
  return total;
}

export function cpuSnapshot(pid: number): CpuSnapshot {
  const self = process.cpuUsage();
  return {
    atNs: process.hrtime.bigint(),
    processSeconds: processSeconds(pid),
    selfSeconds: (self.user + self.system) / 1e6,
    machine: machineJiffies(),
  };
}

export function cpuBetween(before: CpuSnapshot, after: CpuSnapshot): CpuUse {
  const wall = Number(after.atNs - before.atNs) / 1e9;
  const server =
    before.processSeconds !== null && after.processSeconds !== null
      ? ((after.processSeconds - before.processSeconds) / wall) * 100
      : null;
  const machine =
    before.machine && after.machine && after.machine.total > before.machine.total
      ? ((after.machine.busy - before.machine.busy) / (after.machine.total - before.machine.total)) * 100
      : null;
  return {
    serverPercent: server,
    loadGeneratorPercent: ((after.selfSeconds - before.selfSeconds) / wall) * 100,
    machinePercent: machine,
  };
}

export const CORES = os.availableParallelism();

/** the CPU's model name, or null where the platform gives none */
export const CPU_MODEL = os.cpus()[0]?.model.trim() ?? null;

/** The machine a run measured, as both benchmarks record it in their results file. */
export function describeMachine() {
  return {
    cores: CORES,
    cpu: CPU_MODEL,
    memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    platform: `${os.platform()} ${os.release()}`,
    node: process.version,
  };
}
