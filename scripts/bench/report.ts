/** The printed tables and bench-results.json. */
import fs from "node:fs";
import type { RequestAnatomy } from "./anatomy.ts";
import type { HttpConfigResult, TargetSummary } from "./http-load.ts";
import { round } from "./stats.ts";
import type { TaskLatencyResult } from "./task-latency.ts";

export const AIMS = {
  /** ours/bare of requests/s, at every connection count */
  minThroughputRatio: 0.2,
  /** p99 of ours at this many connections */
  maxP99Ms: 25,
  p99AtConnections: 50,
} as const;

export interface AimCheck {
  aim: string;
  value: number;
  met: boolean;
}

export function checkAims(http: readonly HttpConfigResult[]): AimCheck[] {
  const checks: AimCheck[] = http.map((c) => ({
    aim: `throughput ours/bare >= ${AIMS.minThroughputRatio} at ${c.connections} connections`,
    value: round(c.throughputRatio, 3),
    met: c.throughputRatio >= AIMS.minThroughputRatio,
  }));
  const at = http.find((c) => c.connections === AIMS.p99AtConnections);
  if (at)
    checks.push({
      aim: `p99 of ours < ${AIMS.maxP99Ms} ms at ${at.connections} connections`,
      value: at.ours.p99Ms,
      met: at.ours.p99Ms < AIMS.maxP99Ms,
    });
  return checks;
}

/** Problems that make the figures worthless: failed or refused requests. */
export function findProblems(http: readonly HttpConfigResult[]): string[] {
  const problems: string[] = [];
  for (const c of http) {
    for (const t of [c.ours, c.bare]) {
      if (t.non2xx > 0 || t.errors > 0 || t.timeouts > 0) {
        const codes: Record<string, number> = {};
        for (const r of t.rounds)
          for (const [code, n] of Object.entries(r.statusCodes))
            if (!code.startsWith("2")) codes[code] = (codes[code] ?? 0) + n;
        problems.push(
          `${t.name} at ${c.connections} connections: ${t.non2xx} non-2xx ${JSON.stringify(codes)}, ${t.errors} errors, ${t.timeouts} timeouts`,
        );
      }
    }
  }
  return problems;
}

export function table(rows: (string | number)[][]): string {
  const cells = rows.map((row) => row.map(String));
  const widths = cells[0]!.map((_, i) => Math.max(...cells.map((row) => (row[i] ?? "").length)));
  return cells
    .map(
      (row) => `  ${row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join("  ")}`,
    )
    .join("\n");
}

const pct = (value: number | null) => (value === null ? "-" : `${value.toFixed(0)} %`);
const ms = (value: number | null) => (value === null ? "-" : value.toFixed(3));

function serverRow(connections: number, t: TargetSummary): (string | number)[] {
  return [
    `${connections} ${t.name}`,
    t.requestsPerSecond.toFixed(0),
    t.p50Ms.toFixed(1),
    t.p99Ms.toFixed(1),
    t.non2xx,
    t.errors + t.timeouts,
    pct(t.serverCpuPercent),
    pct(t.databaseCpuPercent),
    pct(t.machineCpuPercent),
    pct(t.loadGeneratorCpuPercent),
    ms(t.serverCpuMsPerRequest),
    ms(t.databaseCpuMsPerRequest),
  ];
}

export function formatHttp(http: readonly HttpConfigResult[], rounds: number, seconds: number, cores: number): string {
  const lines = [
    `GET /projects/{id}: ours (auth, rate limit, RLS transaction) vs bare Express; median of ${rounds} rounds x ${seconds} s`,
    `CPU: server process and its database backends (% of one core), whole machine (% of ${cores} cores),`,
    "load generator (% of one core); CPU ms per request in the server and in the database",
    "",
    table([
      [
        "conn server",
        "req/s",
        "p50 ms",
        "p99 ms",
        "non-2xx",
        "errors",
        "server CPU",
        "db CPU",
        "machine CPU",
        "loadgen CPU",
        "server ms/req",
        "db ms/req",
      ],
      ...http.flatMap((c) => [serverRow(c.connections, c.ours), serverRow(c.connections, c.bare)]),
    ]),
    "",
  ];
  for (const c of http) {
    lines.push(
      `  ${c.connections} connections: ours/bare throughput ${c.throughputRatio.toFixed(3)} ` +
        `(per round ${c.roundRatios.map((r) => r.toFixed(3)).join(", ")}); ` +
        `p50 ${(c.ours.p50Ms / Math.max(c.bare.p50Ms, 1e-9)).toFixed(1)}x, p99 ${(c.ours.p99Ms / Math.max(c.bare.p99Ms, 1e-9)).toFixed(1)}x the bare route's`,
    );
    const activity = c.ourDatabaseActivity.shares
      .slice(0, 5)
      .map((s) => `${s.state} ${(s.share * 100).toFixed(0)} %`)
      .join(", ");
    lines.push(`    API pool connections (mean ${c.ourDatabaseActivity.meanConnections.toFixed(1)}): ${activity}`);
  }
  return lines.join("\n");
}

export function formatTasks(t: TaskLatencyResult): string {
  const row = (name: string, s: TaskLatencyResult["tracked"]) => [
    name,
    s.count,
    s.p50Ms.toFixed(2),
    s.p90Ms.toFixed(2),
    s.p99Ms.toFixed(2),
    s.maxMs.toFixed(2),
  ];
  return [
    `Task creation to worker start: ${t.perKind} of each kind at ${t.ratePerSecond}/s, worker concurrency ${t.workerConcurrency}`,
    "",
    table([
      ["kind", "count", "p50 ms", "p90 ms", "p99 ms", "max ms"],
      row("tracked task (app_public.tasks)", t.tracked),
      row("plain graphile-worker job", t.plain),
    ]),
    "",
    `  tracked/plain: p50 ${t.ratioP50.toFixed(2)}, p99 ${t.ratioP99.toFixed(2)}`,
  ].join("\n");
}

export function formatAims(checks: readonly AimCheck[]): string {
  return ["Aims:", ...checks.map((c) => `  ${c.met ? "met    " : "NOT MET"}  ${c.aim}: ${c.value}`)].join("\n");
}

export function writeJson(file: string, value: unknown): void {
  fs.writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
}

export function formatAnatomy(a: RequestAnatomy): string {
  return [
    `One request at a time (${a.iterations} iterations of its SQL from this process, then HTTP at 1 connection):`,
    "",
    table([
      ["step", "p50 ms", "p99 ms"],
      ...a.steps.map((s) => [s.step, s.p50Ms.toFixed(3), s.p99Ms.toFixed(3)]),
      ["SQL total (p50s)", a.sqlP50Ms.toFixed(3), ""],
    ]),
    "",
    `  whole request, mean at 1 connection: ours ${a.oursSerialMs.toFixed(3)} ms, bare ${a.bareSerialMs.toFixed(3)} ms; ` +
      `ours - bare - SQL = ${a.apiProcessMs.toFixed(3)} ms in the API process`,
  ].join("\n");
}
