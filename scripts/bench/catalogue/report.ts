/** Figures per request kind and phase, the aim, the printed tables. */
import { table } from "../report.ts";
import { percentile, round } from "../stats.ts";
import type { CpuUse } from "../cpu.ts";
import { SEARCH_KINDS, type Kind } from "./mix.ts";
import type { StatementPlan } from "./plans.ts";

export const CATALOGUE_AIM = {
  /** p95 of every search together, at each phase */
  maxP95Ms: 20,
} as const;

export interface Sample {
  kind: Kind;
  label: string;
  ms: number;
  status: number;
  /** results in the answer (searches) */
  count: number | null;
  truncated: boolean | null;
}

export interface KindFigures {
  kind: Kind | "all searches";
  requests: number;
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
  maxMs: number;
  /** p50 and p95 over the baseline's */
  p50Ratio: number;
  p95Ratio: number;
  meanResults: number | null;
  truncatedShare: number | null;
  non200: number;
}

export interface PhaseFigures {
  phase: string;
  concurrency: number;
  wallSeconds: number;
  requestsPerSecond: number;
  kinds: KindFigures[];
  cpu: CpuUse & {
    databaseCpuPercent: number | null;
    serverCpuMsPerRequest: number | null;
    databaseCpuMsPerRequest: number | null;
  };
}

function figures(
  kind: KindFigures["kind"],
  samples: readonly Sample[],
  baseline: { p50: number; p95: number },
): KindFigures {
  const ms = samples.map((s) => s.ms);
  const searches = samples.filter((s) => s.count !== null);
  const p50 = percentile(ms, 50);
  const p95 = percentile(ms, 95);
  return {
    kind,
    requests: samples.length,
    p50Ms: round(p50, 2),
    p95Ms: round(p95, 2),
    p99Ms: round(percentile(ms, 99), 2),
    maxMs: round(Math.max(...ms), 2),
    p50Ratio: round(p50 / baseline.p50, 2),
    p95Ratio: round(p95 / baseline.p95, 2),
    meanResults:
      searches.length > 0 ? round(searches.reduce((sum, s) => sum + (s.count ?? 0), 0) / searches.length, 1) : null,
    truncatedShare: searches.length > 0 ? round(searches.filter((s) => s.truncated).length / searches.length, 2) : null,
    non200: samples.filter((s) => s.status !== 200).length,
  };
}

export function phaseFigures(
  phase: string,
  concurrency: number,
  wallSeconds: number,
  samples: readonly Sample[],
  cpu: PhaseFigures["cpu"],
): PhaseFigures {
  const baselineMs = samples.filter((s) => s.kind === "baseline").map((s) => s.ms);
  const baseline = { p50: percentile(baselineMs, 50), p95: percentile(baselineMs, 95) };
  const kinds = [
    ...SEARCH_KINDS.map((kind) =>
      figures(
        kind,
        samples.filter((s) => s.kind === kind),
        baseline,
      ),
    ),
    figures(
      "all searches",
      samples.filter((s) => s.kind !== "baseline"),
      baseline,
    ),
    figures(
      "baseline",
      samples.filter((s) => s.kind === "baseline"),
      baseline,
    ),
  ];
  return {
    phase,
    concurrency,
    wallSeconds: round(wallSeconds, 1),
    requestsPerSecond: round(samples.length / wallSeconds, 0),
    kinds,
    cpu,
  };
}

const pct = (value: number | null) => (value === null ? "-" : `${value.toFixed(0)} %`);

export function formatPhase(p: PhaseFigures): string {
  return [
    `${p.phase}: ${p.concurrency === 1 ? "one request at a time" : `${p.concurrency} requests in flight`}, ` +
      `${p.requestsPerSecond} requests/s; CPU: API process ${pct(p.cpu.serverPercent)}, its database backends ${pct(p.cpu.databaseCpuPercent)} ` +
      `(of one core), machine ${pct(p.cpu.machinePercent)}, load generator ${pct(p.cpu.loadGeneratorPercent)}`,
    "",
    table([
      [
        "kind",
        "requests",
        "p50 ms",
        "p95 ms",
        "p99 ms",
        "max ms",
        "p50 / baseline",
        "p95 / baseline",
        "mean results",
        "truncated",
        "non-200",
      ],
      ...p.kinds.map((k) => [
        k.kind,
        k.requests,
        k.p50Ms.toFixed(2),
        k.p95Ms.toFixed(2),
        k.p99Ms.toFixed(2),
        k.maxMs.toFixed(1),
        k.kind === "baseline" ? "1" : k.p50Ratio.toFixed(1),
        k.kind === "baseline" ? "1" : k.p95Ratio.toFixed(1),
        k.meanResults === null ? "-" : k.meanResults.toFixed(1),
        k.truncatedShare === null ? "-" : `${(k.truncatedShare * 100).toFixed(0)} %`,
        k.non200,
      ]),
    ]),
  ].join("\n");
}

export interface AimCheck {
  aim: string;
  valueMs: number;
  met: boolean;
}

export function checkAims(phases: readonly PhaseFigures[]): AimCheck[] {
  const checks: AimCheck[] = [];
  for (const p of phases) {
    for (const k of p.kinds) {
      if (k.kind === "baseline") continue;
      checks.push({
        aim: `${p.phase}, ${k.kind}: p95 < ${CATALOGUE_AIM.maxP95Ms} ms`,
        valueMs: k.p95Ms,
        met: k.p95Ms < CATALOGUE_AIM.maxP95Ms,
      });
    }
  }
  return checks;
}

export function formatAims(checks: readonly AimCheck[]): string {
  return [
    "Aim (p95 under 20 ms with 100,000 entries):",
    ...checks.map((c) => `  ${c.met ? "met    " : "NOT MET"}  ${c.aim}: ${c.valueMs.toFixed(2)} ms`),
  ].join("\n");
}

export interface KindPlan {
  kind: Kind;
  label: string;
  statements: StatementPlan[];
}

export function formatPlans(plans: readonly KindPlan[]): string {
  const lines = [
    "Plans (one search of each kind again as the API role runs it, every statement under EXPLAIN ANALYZE):",
  ];
  for (const p of plans) {
    lines.push(`  ${p.kind}: ${p.label}`);
    for (const s of p.statements)
      lines.push(
        `    ${s.plan.padEnd(5)} ${s.ms.toFixed(2).padStart(7)} ms  ${s.scans.join(", ") || "(no scan)"}${s.seqScan ? "  <- SEQUENTIAL SCAN" : ""}`,
      );
  }
  return lines.join("\n");
}
