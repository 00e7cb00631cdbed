/**
 * The figures of `npm run bench:load` and their tables: per route, per phase; the 429s judged
 * against each key's own requests; the plannings' fates; the verdict.
 */
import type { ActivitySummary } from "../activity-sampler.ts";
import type { CpuUse } from "../cpu.ts";
import { table } from "../report.ts";
import { median, percentile, round } from "../stats.ts";
import type { Limits, Sample } from "./client.ts";
import { ROUTES } from "./mix.ts";

/**
 * A 429 is called for when the key's requests admitted (answered other than 429) in that
 * bucket, sent from one window plus JUDGE_SLACK_MS before the refused request was sent until
 * its answer arrived, were at least the limit less JUDGE_TOLERANCE. The slack covers the
 * server's window being counted in slots (1/60 of the window) and the time a request takes to
 * reach the limiter; the tolerance, requests counted ahead of the client seeing them.
 */
export const JUDGE_SLACK_MS = 2000;
export const JUDGE_TOLERANCE = 2;

export interface RouteFigures {
  route: string;
  /** attempts sent in the phase, 429s included */
  count: number;
  perSecond: number;
  /** answered as the client asked */
  answered: number;
  /** over the answers the client asked for (429s and failures left out); null without any */
  p50Ms: number | null;
  p99Ms: number | null;
  maxMs: number | null;
  /** p50 and p99 over the baseline's */
  p50Ratio: number | null;
  p99Ratio: number | null;
  /** per status code; "none" for no answer */
  statuses: Record<string, number>;
  limited: number;
  unexpected: number;
}

export interface CpuFigures extends CpuUse {
  /** the server's main thread alone (the API's event loop; the worker runner's too), percent of one core */
  mainThreadPercent: number | null;
  /** the whole database server (every backend, background work), percent of one core; null unless local */
  databasePercent: number | null;
}

/** The server's own readings over a phase (one a second): event loop and API pool. */
export interface ServerFigures {
  seconds: number;
  /** the median and the largest of the per-second p99s of the event loop's delay, and its longest delay */
  delayP99MedianMs: number | null;
  delayP99MaxMs: number | null;
  delayMaxMs: number | null;
  /** the event loop's mean use, 0..1 */
  utilization: number | null;
  /** requests waiting for a connection of the API's pool: mean and most */
  poolWaitingMean: number | null;
  poolWaitingMax: number | null;
}

export interface ServerReading {
  /** ms since the run's origin when it arrived */
  at: number;
  delayP99Ms: number;
  delayMaxMs: number;
  utilization: number;
  poolWaitingMean: number;
  poolWaitingMax: number;
}

export function serverFigures(readings: readonly ServerReading[], from: number, to: number): ServerFigures {
  const of = readings.filter((r) => r.at > from + 500 && r.at <= to + 500);
  const n = of.length;
  const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
  return {
    seconds: n,
    delayP99MedianMs: n > 0 ? round(median(of.map((r) => r.delayP99Ms)), 1) : null,
    delayP99MaxMs: n > 0 ? round(Math.max(...of.map((r) => r.delayP99Ms)), 1) : null,
    delayMaxMs: n > 0 ? round(Math.max(...of.map((r) => r.delayMaxMs)), 1) : null,
    utilization: n > 0 ? round(mean(of.map((r) => r.utilization)), 2) : null,
    poolWaitingMean: n > 0 ? round(mean(of.map((r) => r.poolWaitingMean)), 1) : null,
    poolWaitingMax: n > 0 ? Math.max(...of.map((r) => r.poolWaitingMax)) : null,
  };
}

function poolLine(a: ActivitySummary): string {
  const shares = a.shares
    .slice(0, 4)
    .map((s) => `${s.state} ${(s.share * 100).toFixed(0)} %`)
    .join(", ");
  return `API pool's database connections (mean ${a.meanConnections.toFixed(1)}): ${shares || "-"}`;
}

function serverLine(f: ServerFigures): string {
  return (
    `server: event loop ${f.utilization === null ? "-" : `${(f.utilization * 100).toFixed(0)} %`} busy, its delay p99 ${num(f.delayP99MedianMs)} ms ` +
    `(median of the seconds; worst second ${num(f.delayP99MaxMs)} ms, longest ${num(f.delayMaxMs)} ms); ` +
    `requests waiting for a pooled connection: mean ${num(f.poolWaitingMean)}, most ${f.poolWaitingMax ?? "-"}`
  );
}

export interface PhaseFigures {
  phase: "baseline" | "mix";
  seconds: number;
  requests: number;
  perSecond: number;
  /** answered as asked, per second (429s and failures left out) */
  answeredPerSecond: number;
  routes: RouteFigures[];
  total: RouteFigures;
  cpu: CpuFigures;
  server: ServerFigures;
  /** where the API pool's database connections were, sampled every 50 ms (pg_stat_activity) */
  apiPool: ActivitySummary;
}

function routeFigures(
  route: string,
  samples: readonly Sample[],
  seconds: number,
  baseline: { p50: number; p99: number } | null,
): RouteFigures {
  const ms = samples.filter((s) => s.outcome === "ok").map((s) => s.doneAt - s.sentAt);
  const statuses: Record<string, number> = {};
  for (const s of samples)
    statuses[s.status === null ? "none" : String(s.status)] =
      (statuses[s.status === null ? "none" : String(s.status)] ?? 0) + 1;
  const p50 = ms.length > 0 ? percentile(ms, 50) : null;
  const p99 = ms.length > 0 ? percentile(ms, 99) : null;
  return {
    route,
    count: samples.length,
    perSecond: round(samples.length / seconds, 2),
    answered: ms.length,
    p50Ms: p50 === null ? null : round(p50, 2),
    p99Ms: p99 === null ? null : round(p99, 2),
    maxMs: ms.length > 0 ? round(Math.max(...ms), 1) : null,
    p50Ratio: p50 === null || !baseline ? null : round(p50 / baseline.p50, 2),
    p99Ratio: p99 === null || !baseline ? null : round(p99 / baseline.p99, 2),
    statuses,
    limited: samples.filter((s) => s.outcome === "limited").length,
    unexpected: samples.filter((s) => s.outcome === "unexpected").length,
  };
}

/** Figures of one phase's samples (those sent in it); ratios against `baseline` when given. */
export function phaseFigures(
  phase: PhaseFigures["phase"],
  samples: readonly Sample[],
  seconds: number,
  measured: { cpu: CpuFigures; server: ServerFigures; apiPool: ActivitySummary },
  baseline: PhaseFigures | null,
): PhaseFigures {
  const ofPhase = samples.filter((s) => s.phase === phase);
  const base =
    baseline?.total.p50Ms != null && baseline.total.p99Ms != null
      ? { p50: baseline.total.p50Ms, p99: baseline.total.p99Ms }
      : null;
  const order = Object.values(ROUTES) as string[];
  const routes = [...new Set(ofPhase.map((s) => s.route))]
    .sort((a, b) => order.indexOf(a) - order.indexOf(b))
    .map((route) =>
      routeFigures(
        route,
        ofPhase.filter((s) => s.route === route),
        seconds,
        base ?? null,
      ),
    );
  const total = routeFigures("all", ofPhase, seconds, base);
  return {
    phase,
    seconds,
    requests: ofPhase.length,
    perSecond: round(ofPhase.length / seconds, 1),
    answeredPerSecond: round(total.answered / seconds, 1),
    routes,
    total,
    ...measured,
  };
}

export interface LimitedJudgement {
  /** 429s per bucket */
  byBucket: Record<string, number>;
  justified: number;
  /** 429s no limit called for: what the client had seen of its key's window */
  unjustified: {
    client: number;
    route: string;
    bucket: string;
    sentAtS: number;
    admittedInWindow: number;
    limit: number;
  }[];
  /** per bucket, the most requests any key got admitted within one window (client's clock) */
  mostAdmitted: Record<string, { client: number; admitted: number; limit: number }>;
}

export function judgeLimited(samples: readonly Sample[], limits: Limits): LimitedJudgement {
  const byClient = new Map<number, Sample[]>();
  for (const s of samples) if (s.client >= 0) byClient.set(s.client, [...(byClient.get(s.client) ?? []), s]);
  const byBucket: Record<string, number> = {};
  const unjustified: LimitedJudgement["unjustified"] = [];
  let justified = 0;
  const mostAdmitted: LimitedJudgement["mostAdmitted"] = {};
  for (const [client, own] of byClient) {
    for (const [bucket, { limit, windowSeconds }] of Object.entries(limits.perBucket)) {
      const windowMs = windowSeconds * 1000;
      // answered other than 429 (a failure after the limiter was counted too; an unknown one as well)
      const admitted = own
        .filter((s) => s.buckets.includes(bucket) && s.status !== 429)
        .map((s) => s.sentAt)
        .sort((a, b) => a - b);
      let most = 0;
      for (let i = 0, j = 0; j < admitted.length; j++) {
        while (admitted[j]! - admitted[i]! >= windowMs) i++;
        most = Math.max(most, j - i + 1);
      }
      if (most > (mostAdmitted[bucket]?.admitted ?? -1)) mostAdmitted[bucket] = { client, admitted: most, limit };
      for (const s of own) {
        if (s.outcome !== "limited" || s.bucket !== bucket) continue;
        byBucket[bucket] = (byBucket[bucket] ?? 0) + 1;
        const inWindow = admitted.filter((at) => at >= s.sentAt - windowMs - JUDGE_SLACK_MS && at <= s.doneAt).length;
        if (inWindow >= limit - JUDGE_TOLERANCE) justified += 1;
        else
          unjustified.push({
            client,
            route: s.route,
            bucket,
            sentAtS: round(s.sentAt / 1000, 2),
            admittedInWindow: inWindow,
            limit,
          });
      }
    }
  }
  return { byBucket, justified, unjustified, mostAdmitted };
}

export interface PlanningFigures {
  /** 202s in the window (queued: behind another planning of the same user) */
  accepted: number;
  acceptedQueued: number;
  /** as of the window's end, from the tasks' timestamps */
  atWindowEnd: { queued: number; running: number; success: number; failed: number; cancelled: number };
  /** statuses when the benchmark read them, after the last requests were answered */
  whenRead: Record<string, number>;
  /**
   * of those finished in the window: started to finished (from when a worker took it, which may
   * include waiting for a planning thread) and created to started
   */
  runSeconds: { p50: number; max: number } | null;
  waitSeconds: { p50: number; max: number } | null;
  failures: string[];
}

export interface TaskTimes {
  status: string;
  createdMs: number;
  startedMs: number | null;
  finishedMs: number | null;
  errorCode: string | null;
  errorMessage: string | null;
}

export function planningFigures(
  accepted: number,
  acceptedQueued: number,
  tasks: readonly TaskTimes[],
  windowEndMs: number,
): PlanningFigures {
  const atWindowEnd = { queued: 0, running: 0, success: 0, failed: 0, cancelled: 0 };
  const whenRead: Record<string, number> = {};
  const runs: number[] = [];
  const waits: number[] = [];
  const failures: string[] = [];
  for (const t of tasks) {
    whenRead[t.status] = (whenRead[t.status] ?? 0) + 1;
    if (t.finishedMs !== null && t.finishedMs <= windowEndMs) {
      if (t.status === "success" || t.status === "failed" || t.status === "cancelled") atWindowEnd[t.status] += 1;
      if (t.startedMs !== null) {
        runs.push((t.finishedMs - t.startedMs) / 1000);
        waits.push((t.startedMs - t.createdMs) / 1000);
      }
    } else if (t.startedMs !== null && t.startedMs <= windowEndMs) atWindowEnd.running += 1;
    else atWindowEnd.queued += 1;
    if (t.status === "failed") failures.push(`${t.errorCode ?? "?"}: ${t.errorMessage ?? ""}`.slice(0, 300));
  }
  const spread = (values: number[]) =>
    values.length > 0 ? { p50: round(median(values), 1), max: round(Math.max(...values), 1) } : null;
  return {
    accepted,
    acceptedQueued,
    atWindowEnd,
    whenRead,
    runSeconds: spread(runs),
    waitSeconds: spread(waits),
    failures,
  };
}

export interface SplitRow {
  label: string;
  count: number;
  p50Ms: number | null;
  p99Ms: number | null;
}

/**
 * The mix's answers (as asked) split by whether a planning was running on the server when the
 * request was sent: on 2 cores a planning takes both (the planner and its simulation thread).
 * `running(at)` says so for a sample's send time (ms since the run's origin).
 */
export function planningSplit(
  samples: readonly Sample[],
  running: (at: number) => boolean,
  probeRoute: string,
): SplitRow[] {
  const answered = samples.filter((s) => s.phase === "mix" && s.outcome === "ok");
  const row = (label: string, of: readonly Sample[]): SplitRow => {
    const ms = of.map((s) => s.doneAt - s.sentAt);
    return {
      label,
      count: ms.length,
      p50Ms: ms.length > 0 ? round(percentile(ms, 50), 1) : null,
      p99Ms: ms.length > 0 ? round(percentile(ms, 99), 1) : null,
    };
  };
  const keyed = answered.filter((s) => s.route !== probeRoute);
  const probe = answered.filter((s) => s.route === probeRoute);
  return [
    row(
      "keyed requests, a planning running",
      keyed.filter((s) => running(s.sentAt)),
    ),
    row(
      "keyed requests, none running",
      keyed.filter((s) => !running(s.sentAt)),
    ),
    row(
      "probe, a planning running",
      probe.filter((s) => running(s.sentAt)),
    ),
    row(
      "probe, none running",
      probe.filter((s) => !running(s.sentAt)),
    ),
  ];
}

export function formatSplit(rows: readonly SplitRow[]): string {
  return [
    "By whether a planning was running when the request was sent (answers as asked):",
    "",
    table([
      ["requests", "count", "p50 ms", "p99 ms"],
      ...rows.map((r) => [r.label, r.count, num(r.p50Ms), num(r.p99Ms)]),
    ]),
  ].join("\n");
}

const pct = (value: number | null) => (value === null ? "-" : `${value.toFixed(0)} %`);
const num = (value: number | null, digits = 1) => (value === null ? "-" : value.toFixed(digits));
const ratio = (value: number | null) => (value === null ? "-" : `${value.toFixed(1)}x`);

function statusText(statuses: Record<string, number>): string {
  return Object.entries(statuses)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([code, n]) => `${code}:${n}`)
    .join(" ");
}

function cpuLine(cpu: CpuFigures, cores: number): string {
  return (
    `CPU: server process ${pct(cpu.serverPercent)} (its main thread ${pct(cpu.mainThreadPercent)}) and the database server ${pct(cpu.databasePercent)} (of one core), ` +
    `machine ${pct(cpu.machinePercent)} (of ${cores} cores), load generator ${pct(cpu.loadGeneratorPercent)}`
  );
}

export function formatBaseline(b: PhaseFigures, clients: number, cores: number): string {
  return [
    `Baseline: GET /healthz (no key, one select 1) from the same ${clients} clients at the same pace, ${b.seconds} s: ` +
      `${b.perSecond} requests/s, p50 ${num(b.total.p50Ms, 2)} ms, p99 ${num(b.total.p99Ms, 2)} ms, max ${num(b.total.maxMs)} ms; ` +
      `${b.total.unexpected} unexpected`,
    `  ${cpuLine(b.cpu, cores)}`,
    `  ${serverLine(b.server)}`,
    `  ${poolLine(b.apiPool)}`,
  ].join("\n");
}

export function formatMix(m: PhaseFigures, baseline: PhaseFigures, cores: number): string {
  const row = (r: RouteFigures) => [
    r.route,
    r.count,
    r.perSecond.toFixed(2),
    num(r.p50Ms),
    num(r.p99Ms),
    num(r.maxMs, 0),
    ratio(r.p50Ratio),
    ratio(r.p99Ratio),
    r.limited,
    r.unexpected,
    statusText(r.statuses),
  ];
  return [
    `Mixed load, ${m.seconds} s: ${m.requests} requests, ${m.perSecond} requests/s (${m.answeredPerSecond}/s answered as asked, 429s left out); ` +
      `throughput mix/baseline ${(m.perSecond / baseline.perSecond).toFixed(2)} at the same offered pace`,
    `  ${cpuLine(m.cpu, cores)}`,
    `  ${serverLine(m.server)}`,
    `  ${poolLine(m.apiPool)}`,
    "  p50, p99 and max over the answers the client asked for (429s left out); x: multiple of the baseline's p50 or p99",
    "",
    table([
      ["route", "requests", "req/s", "p50 ms", "p99 ms", "max ms", "p50 x", "p99 x", "429", "unexpected", "statuses"],
      ...m.routes.map(row),
      row(m.total),
    ]),
  ].join("\n");
}

export function formatLimited(
  j: LimitedJudgement,
  limits: Limits,
  retries: { gaveUp: number; cutShort: number },
): string {
  const buckets = Object.entries(limits.perBucket).map(
    ([bucket, l]) =>
      `${bucket} ${l.limit} per ${l.windowSeconds === 60 ? "minute" : l.windowSeconds === 3600 ? "hour" : `${l.windowSeconds} s`}`,
  );
  const lines = [
    `429s (limits per key: ${buckets.join(", ")}): ${
      Object.entries(j.byBucket)
        .map(([b, n]) => `${n} from ${b}`)
        .join(", ") || "none"
    }; ` +
      `${j.justified} called for, ${j.unjustified.length} not; ${retries.gaveUp} requests given up after 6 refusals, ` +
      `${retries.cutShort} not retried because the wait ran past the window's end`,
    `  most admitted to one key within one window (client's clock): ${Object.entries(j.mostAdmitted)
      .map(([b, m]) => `${b} ${m.admitted} of ${m.limit} (client ${m.client})`)
      .join(", ")}`,
  ];
  for (const u of j.unjustified.slice(0, 20)) {
    lines.push(
      `  NOT CALLED FOR: client ${u.client} ${u.route} ${u.sentAtS} s after the server was up: ${u.bucket} refused after ${u.admittedInWindow} admitted in its window (limit ${u.limit})`,
    );
  }
  return lines.join("\n");
}

export function formatPlannings(p: PlanningFigures, seconds: number): string {
  const w = p.atWindowEnd;
  return [
    `Plannings: ${p.accepted} accepted (202) in the ${seconds} s, ${p.acceptedQueued} of them queued behind another of the same user.`,
    `  at the window's end: ${w.success} succeeded, ${w.failed} failed, ${w.cancelled} cancelled, ${w.running} running, ${w.queued} waiting; ` +
      `when read afterwards: ${
        Object.entries(p.whenRead)
          .map(([s, n]) => `${n} ${s}`)
          .join(", ") || "none"
      }`,
    `  finished in the window: started to finished ${p.runSeconds ? `p50 ${p.runSeconds.p50} s, max ${p.runSeconds.max} s` : "-"}; ` +
      `created to started ${p.waitSeconds ? `p50 ${p.waitSeconds.p50} s, max ${p.waitSeconds.max} s` : "-"}`,
    "  (a task is running from when a worker takes it; with more workers than planning threads it may then wait for a thread)",
    ...p.failures.slice(0, 10).map((f) => `  failed: ${f}`),
  ].join("\n");
}
