/**
 * GET /projects/{id} on our API against the bare Express route, with autocannon in this
 * process (the servers are children, so the load generator has its own event loop).
 *
 * For each connection count: a short warm-up of each server, then rounds that run the two
 * alternately (ours first in odd rounds, bare first in even ones) so drift in a shared
 * machine's load hits both alike. Per server: the median over rounds of requests/s and of
 * the p50 and p99 latency; the ratio is ours/bare of the median requests/s.
 */
import autocannon from "autocannon";
import type pg from "pg";
import { backendPids, mergeActivity, startActivitySampler, type ActivitySummary } from "./activity-sampler.ts";
import { backendCpuBetween, backendCpuSeconds, cpuBetween, cpuSnapshot, type CpuUse } from "./cpu.ts";
import { median } from "./stats.ts";

export type TargetName = "ours" | "bare";

export interface HttpTarget {
  name: TargetName;
  origin: string;
  /** the server's pid, for its CPU use */
  pid: number;
  running(): boolean;
}

export interface LoadRun {
  requestsPerSecond: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  maxMs: number;
  responses: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  /** responses per status code, when autocannon reports them */
  statusCodes: Record<string, number>;
  cpu: CpuUse;
  /** the API pool's database backends, percent of one core (ours only; null unless local) */
  databaseCpuPercent: number | null;
}

export interface TargetSummary {
  name: TargetName;
  rounds: LoadRun[];
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  serverCpuPercent: number | null;
  databaseCpuPercent: number | null;
  machineCpuPercent: number | null;
  loadGeneratorCpuPercent: number;
  /** CPU milliseconds per request in the server process and in its database backends */
  serverCpuMsPerRequest: number | null;
  databaseCpuMsPerRequest: number | null;
}

export interface HttpConfigResult {
  connections: number;
  ours: TargetSummary;
  bare: TargetSummary;
  /** ours / bare, of the medians of requests/s */
  throughputRatio: number;
  /** ours / bare per round (the two runs of a round are back to back) */
  roundRatios: number[];
  /** the API pool's backends during our runs */
  ourDatabaseActivity: ActivitySummary;
}

export interface HttpLoadOptions {
  targets: { ours: HttpTarget; bare: HttpTarget };
  path: string;
  apiKey: string;
  connections: readonly number[];
  rounds: number;
  seconds: number;
  warmupSeconds: number;
  /** the owner pool and the API pool's application_name, for the activity sampler */
  sampler: { pool: pg.Pool; applicationName: string };
  signal: AbortSignal;
  progress: (line: string) => void;
}

function fire(
  url: string,
  connections: number,
  seconds: number,
  apiKey: string,
  signal: AbortSignal,
): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      { url, connections, duration: seconds, pipelining: 1, timeout: 10, headers: { "x-api-key": apiKey } },
      (error: unknown, result: autocannon.Result) => {
        signal.removeEventListener("abort", stop);
        if (error) reject(error instanceof Error ? error : new Error(String(error)));
        else resolve(result);
      },
    );
    const stop = () => instance.stop();
    signal.addEventListener("abort", stop, { once: true });
  });
}

async function measure(
  target: HttpTarget,
  options: HttpLoadOptions,
  connections: number,
  seconds: number,
): Promise<{ run: LoadRun; activity?: ActivitySummary }> {
  if (!target.running()) throw new Error(`the ${target.name} server exited during the benchmark`);
  const { pool, applicationName } = options.sampler;
  const ours = target.name === "ours";
  const sampler = ours ? startActivitySampler(pool, applicationName) : undefined;
  const backendsBefore = ours ? backendCpuSeconds(await backendPids(pool, applicationName)) : undefined;
  const before = cpuSnapshot(target.pid);
  const result = await fire(`${target.origin}${options.path}`, connections, seconds, options.apiKey, options.signal);
  const after = cpuSnapshot(target.pid);
  const backendsAfter = ours ? backendCpuSeconds(await backendPids(pool, applicationName)) : undefined;
  const cpu = cpuBetween(before, after);
  const backendSeconds = backendsBefore && backendsAfter ? backendCpuBetween(backendsBefore, backendsAfter) : null;
  const wallSeconds = Number(after.atNs - before.atNs) / 1e9;
  const activity = await sampler?.stop();
  const statusCodes: Record<string, number> = {};
  for (const [code, stat] of Object.entries(result.statusCodeStats ?? {})) statusCodes[code] = stat.count ?? 0;
  const run: LoadRun = {
    requestsPerSecond: result.duration > 0 ? result.requests.total / result.duration : 0,
    p50Ms: result.latency.p50,
    p90Ms: result.latency.p90,
    p99Ms: result.latency.p99,
    maxMs: result.latency.max,
    responses: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes,
    cpu,
    databaseCpuPercent: backendSeconds === null ? null : (backendSeconds / wallSeconds) * 100,
  };
  return activity ? { run, activity } : { run };
}

function summarize(name: TargetName, rounds: LoadRun[]): TargetSummary {
  const known = (values: (number | null)[]) => values.filter((v): v is number => v !== null);
  const medianOf = (values: (number | null)[]) => {
    const present = known(values);
    return present.length > 0 ? median(present) : null;
  };
  const perRequest = (percent: number | null, rps: number) =>
    percent === null || rps <= 0 ? null : (percent * 10) / rps;
  return {
    name,
    rounds,
    requestsPerSecond: median(rounds.map((r) => r.requestsPerSecond)),
    p50Ms: median(rounds.map((r) => r.p50Ms)),
    p99Ms: median(rounds.map((r) => r.p99Ms)),
    non2xx: rounds.reduce((sum, r) => sum + r.non2xx, 0),
    errors: rounds.reduce((sum, r) => sum + r.errors, 0),
    timeouts: rounds.reduce((sum, r) => sum + r.timeouts, 0),
    serverCpuPercent: medianOf(rounds.map((r) => r.cpu.serverPercent)),
    databaseCpuPercent: medianOf(rounds.map((r) => r.databaseCpuPercent)),
    machineCpuPercent: medianOf(rounds.map((r) => r.cpu.machinePercent)),
    loadGeneratorCpuPercent: median(rounds.map((r) => r.cpu.loadGeneratorPercent)),
    serverCpuMsPerRequest: medianOf(rounds.map((r) => perRequest(r.cpu.serverPercent, r.requestsPerSecond))),
    databaseCpuMsPerRequest: medianOf(rounds.map((r) => perRequest(r.databaseCpuPercent, r.requestsPerSecond))),
  };
}

export async function runHttpLoad(options: HttpLoadOptions): Promise<HttpConfigResult[]> {
  const { ours, bare } = options.targets;
  const results: HttpConfigResult[] = [];
  for (const connections of options.connections) {
    options.progress(`http: ${connections} connections, warm-up ${options.warmupSeconds} s each`);
    for (const target of [ours, bare]) {
      await measure(target, options, connections, options.warmupSeconds);
      options.signal.throwIfAborted();
    }
    const runs: Record<TargetName, LoadRun[]> = { ours: [], bare: [] };
    const activity: ActivitySummary[] = [];
    const roundRatios: number[] = [];
    for (let round = 1; round <= options.rounds; round++) {
      const order = round % 2 === 1 ? [ours, bare] : [bare, ours];
      for (const target of order) {
        const { run, activity: sampled } = await measure(target, options, connections, options.seconds);
        options.signal.throwIfAborted();
        runs[target.name].push(run);
        if (sampled) activity.push(sampled);
        options.progress(
          `http: ${connections} conn, round ${round}/${options.rounds}, ${target.name.padEnd(4)}: ` +
            `${run.requestsPerSecond.toFixed(0)} req/s, p50 ${run.p50Ms} ms, p99 ${run.p99Ms} ms` +
            (run.non2xx + run.errors > 0 ? `, non-2xx ${run.non2xx}, errors ${run.errors}` : ""),
        );
      }
      const a = runs.ours[round - 1];
      const b = runs.bare[round - 1];
      if (a && b && b.requestsPerSecond > 0) roundRatios.push(a.requestsPerSecond / b.requestsPerSecond);
    }
    const oursSummary = summarize("ours", runs.ours);
    const bareSummary = summarize("bare", runs.bare);
    results.push({
      connections,
      ours: oursSummary,
      bare: bareSummary,
      throughputRatio:
        bareSummary.requestsPerSecond > 0 ? oursSummary.requestsPerSecond / bareSummary.requestsPerSecond : Number.NaN,
      roundRatios,
      ourDatabaseActivity: mergeActivity(activity),
    });
  }
  return results;
}
