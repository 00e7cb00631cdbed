/**
 * `npm run bench:catalogue`: see docs/benchmarks.md. The catalogue search through the real API
 * over the standard range and 100,000 synthetic entries: a realistic mix of searches, one at a
 * time and several in flight, each kind's p50/p95/p99 next to a baseline measured in the same
 * run (GET of one entry by its primary key, through the same stack). Progress goes to stderr,
 * the tables to stdout, the figures to bench-catalogue-results.json. Exit 0 when every request
 * answered 200 and the checked answers agree with the plain full sort (aim met or not), 1 when
 * something broke, 130 on Ctrl-C.
 */
import os from "node:os";
import path from "node:path";
import type pg from "pg";
import { parseApiKey } from "../../../auth/api-key.ts";
import { readEnv, repoRoot } from "../../../config/env.ts";
import { createPool } from "../../../db/pools.ts";
import { withTransaction } from "../../../db/request-transaction.ts";
import { upsertCatalogueEntries } from "../../../db/seed/catalogue.ts";
import { generateSyntheticCatalogue } from "../../../kernel/tools/catalogue/synthetic-catalogue.ts";
import { backendPids } from "../activity-sampler.ts";
import { type BenchChild, childOrigin, startChild } from "../children.ts";
import { runBenchSession } from "../session.ts";
import {
  backendCpuBetween,
  backendCpuSeconds,
  cpuBetween,
  cpuSnapshot,
  CORES,
  CPU_MODEL,
  describeMachine,
} from "../cpu.ts";
import { createBenchUser } from "../fixtures.ts";
import { CHILD_ENV } from "../protocol.ts";
import { writeJson } from "../report.ts";
import { seededRandom as random } from "../../../kernel/seeded-random.ts";
import { buildRequests, SEARCH_KINDS, type BenchRequest, type SampleEntry } from "./mix.ts";
import { checkAgainstReference, explainSearch } from "./plans.ts";
import {
  checkAims,
  formatAims,
  formatPhase,
  formatPlans,
  phaseFigures,
  type KindPlan,
  type PhaseFigures,
  type Sample,
} from "./report.ts";
import { readCatalogueSettings } from "./settings.ts";

const API_APPLICATION_NAME = "swarf-bench-catalogue-api";
export const CATALOGUE_RESULTS_FILE = path.join(repoRoot, "bench-catalogue-results.json");
const POLICIES = {
  committed: "as committed in 000004, using (current_user_id() is not null)",
  open: "replaced by using (true)",
  off: "row-level security disabled on the table",
} as const;

/** searches of each kind whose answers are checked against the plain full sort */
const CHECKED_PER_KIND = 4;

function say(line: string): void {
  process.stderr.write(`[bench:catalogue] ${line}\n`);
}

interface Answer {
  status: number;
  ms: number;
  body: string;
}

async function send(origin: string, request: BenchRequest, apiKey: string, signal: AbortSignal): Promise<Answer> {
  // between requests: fetch would add a listener to the one signal per request
  signal.throwIfAborted();
  const started = performance.now();
  const res = await fetch(`${origin}${request.path}`, { headers: { "X-API-Key": apiKey } });
  const body = await res.text();
  return { status: res.status, ms: performance.now() - started, body };
}

function sampleOf(request: BenchRequest, answer: Answer): Sample {
  let count: number | null = null;
  let truncated: boolean | null = null;
  if (request.kind !== "baseline" && answer.status === 200) {
    const parsed = JSON.parse(answer.body) as { count: number; truncated: boolean };
    count = parsed.count;
    truncated = parsed.truncated;
  }
  return { kind: request.kind, label: request.label, ms: answer.ms, status: answer.status, count, truncated };
}

/** Sends the requests, `concurrency` at a time, in order; the CPU the server and its backends used meanwhile. */
async function runPhase(
  name: string,
  requests: readonly BenchRequest[],
  concurrency: number,
  context: { origin: string; apiKey: string; server: BenchChild; owner: pg.Pool; signal: AbortSignal },
): Promise<{ samples: Sample[]; figures: PhaseFigures }> {
  const samples: Sample[] = [];
  const backendsBefore = backendCpuSeconds(await backendPids(context.owner, API_APPLICATION_NAME));
  const before = cpuSnapshot(context.server.pid);
  let next = 0;
  const worker = async () => {
    while (next < requests.length) {
      const request = requests[next++]!;
      const answer = await send(context.origin, request, context.apiKey, context.signal);
      samples.push(sampleOf(request, answer));
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const after = cpuSnapshot(context.server.pid);
  const backendsAfter = backendCpuSeconds(await backendPids(context.owner, API_APPLICATION_NAME));
  const wall = Number(after.atNs - before.atNs) / 1e9;
  const cpu = cpuBetween(before, after);
  const backendSeconds = backendCpuBetween(backendsBefore, backendsAfter);
  const databaseCpuPercent = backendSeconds === null ? null : (backendSeconds / wall) * 100;
  const perRequest = (percent: number | null) => (percent === null ? null : (percent * 10 * wall) / samples.length);
  return {
    samples,
    figures: phaseFigures(name, concurrency, wall, samples, {
      ...cpu,
      databaseCpuPercent,
      serverCpuMsPerRequest: perRequest(cpu.serverPercent),
      databaseCpuMsPerRequest: perRequest(databaseCpuPercent),
    }),
  };
}

export async function main(): Promise<number> {
  const settings = readCatalogueSettings();
  const env = readEnv();
  const started = new Date();
  const problems: string[] = [];
  /** findings that do not make the run fail */
  const notes: string[] = [];

  return runBenchSession(say, async (session) => {
    const { signal } = session;
    const { database, owner } = await session.openDatabase(env, 4);
    // a what-if for a pending migration, in this scratch database only: the committed policy
    // (current_user_id() is not null) is checked before any condition that is not leakproof,
    // and none the search indexes serve is (@@, LIKE, lower()), so none may be an index condition
    if (settings.readPolicy !== "committed")
      say(`read policy of the catalogue in the scratch database: ${POLICIES[settings.readPolicy]}`);
    if (settings.readPolicy === "open") {
      await owner.query(`drop policy catalogue_entries_read on app_public.catalogue_entries;
        create policy catalogue_entries_read on app_public.catalogue_entries for select using (true)`);
    } else if (settings.readPolicy === "off") {
      await owner.query("alter table app_public.catalogue_entries disable row level security");
    }

    say(`generating ${settings.entries.toLocaleString("en")} synthetic entries (seed ${settings.seed})`);
    let generated: ReturnType<typeof generateSyntheticCatalogue> | null = generateSyntheticCatalogue(
      settings.entries,
      settings.seed,
    );
    const loadStarted = performance.now();
    const client = await owner.connect();
    try {
      const entries = generated;
      await withTransaction(client, () => upsertCatalogueEntries(client, entries, "synthetic"));
    } finally {
      client.release();
    }
    const loadSeconds = (performance.now() - loadStarted) / 1000;
    say(`loaded in ${loadSeconds.toFixed(1)} s; vacuum analyze (what autovacuum does after a load)`);
    // the GIN indexes' pending lists merged, statistics for the planner, the visibility map
    await owner.query("vacuum (analyze) app_public.catalogue_entries");
    const { rows: stored } = await owner.query<SampleEntry>(
      "select manufacturer, article_number, name, tool_type, diameter_mm, dimensions ->> 'standard' as standard from app_public.catalogue_entries",
    );
    generated = null;
    const { rows: sizeRows } = await owner.query<{ heap: string; total: string; sources: Record<string, number> }>(
      `select pg_size_pretty(pg_relation_size('app_public.catalogue_entries')) as heap,
              pg_size_pretty(pg_total_relation_size('app_public.catalogue_entries')) as total,
              (select jsonb_object_agg(source, n) from (select source, count(*)::int as n from app_public.catalogue_entries group by source) s) as sources`,
    );
    const size = sizeRows[0]!;
    say(`catalogue: ${JSON.stringify(size.sources)}, table ${size.heap}, with indexes ${size.total}`);

    const user = await createBenchUser(owner);
    const server = await startChild(
      "api server",
      "server-app.ts",
      {
        LOG_LEVEL: env.LOG_LEVEL,
        [CHILD_ENV.appUrl]: database.appUrl,
        [CHILD_ENV.applicationName]: API_APPLICATION_NAME,
        // one key sends every request: counted, never refused
        RATE_LIMIT_PER_MINUTE: "100000000",
      },
      { signal },
    );
    session.adopt(server);
    const origin = childOrigin(server);
    const context = { origin, apiKey: user.apiKey, server, owner, signal };
    say(`server pid ${server.pid} at ${origin}`);

    const timed = buildRequests(settings.seed, settings.requests, stored);
    const warmup = buildRequests(settings.seed + 1, settings.warmup, stored);
    const concurrent = buildRequests(settings.seed + 2, settings.requests, stored);

    // the answers are right before they are timed
    const rng = random(settings.seed + 3);
    let checked = 0;
    for (const kind of SEARCH_KINDS) {
      const ofKind = timed.filter((r) => r.kind === kind);
      for (let i = 0; i < CHECKED_PER_KIND && ofKind.length > 0; i++) {
        const request = ofKind[Math.floor(rng() * ofKind.length)]!;
        const answer = await send(origin, request, user.apiKey, signal);
        if (answer.status !== 200) {
          problems.push(`${kind} ${request.label}: ${answer.status} ${answer.body.slice(0, 200)}`);
          continue;
        }
        const differs = await checkAgainstReference(owner, request.search!, JSON.parse(answer.body) as never);
        if (differs) problems.push(`${kind} ${request.label}: not the plain full sort's answer: ${differs}`);
        checked += 1;
      }
    }
    say(
      `${checked} searches checked against the plain full sort${problems.length > 0 ? `: ${problems.length} differ` : ": all agree"}`,
    );

    const plans: KindPlan[] = [];
    const appPool = createPool(database.appUrl, 1, "swarf-bench-catalogue-explain");
    try {
      const credential = parseApiKey(user.apiKey)!;
      for (const kind of SEARCH_KINDS) {
        const request = timed.find((r) => r.kind === kind)!;
        const statements = await explainSearch(appPool, credential, request.search!);
        plans.push({ kind, label: request.label, statements });
        if (statements.some((s) => s.seqScan))
          notes.push(`${kind} ${request.label}: a statement scans the whole table`);
      }
    } finally {
      await appPool.end();
    }

    say(`warm-up: ${warmup.length} requests`);
    for (const request of warmup) await send(origin, request, user.apiKey, signal);

    say(`sequential: ${timed.length} requests (${settings.requests} of each kind and of the baseline)`);
    const sequential = await runPhase("sequential", timed, 1, context);
    say(`concurrent: ${concurrent.length} requests, ${settings.concurrency} in flight`);
    const parallel = await runPhase("concurrent", concurrent, settings.concurrency, context);
    await server.stop();

    const phases = [sequential.figures, parallel.figures];
    for (const p of phases) {
      for (const k of p.kinds)
        if (k.non200 > 0 && k.kind !== "all searches")
          problems.push(`${p.phase} ${k.kind}: ${k.non200} answers were not 200`);
    }
    const aims = checkAims(phases);
    const overall = aims.filter((a) => a.aim.includes("all searches"));
    process.stdout.write(
      [
        "",
        `Swarf catalogue search benchmark, ${started.toISOString()}, ${CORES} cores (${CPU_MODEL ?? "unknown CPU"}), Node ${process.version}, ` +
          `PostgreSQL ${database.serverVersion}`,
        `Read policy of app_public.catalogue_entries: ${POLICIES[settings.readPolicy]} (BENCH_CATALOGUE_READ_POLICY=${settings.readPolicy})`,
        `Catalogue: ${Object.entries(size.sources)
          .map(([source, n]) => `${n.toLocaleString("en")} ${source}`)
          .join(", ")}; ` + `table ${size.heap}, ${size.total} with its indexes; loaded in ${loadSeconds.toFixed(0)} s`,
        "",
        formatPhase(sequential.figures),
        "",
        formatPhase(parallel.figures),
        "",
        formatPlans(plans),
        "",
        formatAims(aims),
        "",
        `Overall: p95 of all searches ${overall.map((a) => `${a.valueMs.toFixed(1)} ms ${a.aim.split(",")[0]}`).join(", ")}: ` +
          (overall.every((a) => a.met) ? "the aim is met" : "the aim is NOT met"),
        ...(notes.length > 0 ? ["", "Notes:", ...notes.map((n) => `  ${n}`)] : []),
        ...(problems.length > 0 ? ["", "PROBLEMS:", ...problems.map((p) => `  ${p}`)] : []),
        "",
        `figures written to ${path.relative(process.cwd(), CATALOGUE_RESULTS_FILE) || CATALOGUE_RESULTS_FILE}`,
        "",
      ].join("\n"),
    );
    writeJson(CATALOGUE_RESULTS_FILE, {
      date: started.toISOString(),
      durationSeconds: (Date.now() - started.getTime()) / 1000,
      machine: { ...describeMachine(), loadAverage: os.loadavg() },
      database: { description: database.description, serverVersion: database.serverVersion },
      settings: { ...settings, apiPoolSize: env.API_POOL_SIZE },
      catalogue: { ...size, loadSeconds },
      checked,
      plans,
      phases,
      aims,
      notes,
      problems,
      samples: { sequential: sequential.samples, concurrent: parallel.samples },
    });
    return problems.length > 0 ? 1 : 0;
  });
}
