/**
 * `npm run bench:load`: see docs/benchmarks.md. A mixed workload from 20 API keys (one user
 * each) against the real service on loopback (API, geometry threads and worker runner in one
 * child process, as `npm start` runs them, on a throwaway database): each key's client paced a
 * little over its rate limit, waiting out every 429 as the spec asks. First a baseline in the
 * same run: GET /healthz from the same clients at the same pace. Progress goes to stderr, the
 * tables to stdout, the figures to $TMPDIR/swarf-bench-load-results.json. Exit 0 when every
 * answer was one the client asked for or a 429 its key's own requests called for; 1 otherwise
 * (or when something broke); 130 on Ctrl-C.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { readEnv } from "../../../config/env.ts";
import { seededRandom } from "../../../kernel/seeded-random.ts";
import { starterLibrary } from "../../../kernel/tools/catalogue/starter-library.ts";
import { PLAN_CAM_TASK_NAME } from "../../../contracts/tasks.ts";
import { fileUpload } from "../../../test/support/multipart.ts";
import { startActivitySampler, type ActivitySummary } from "../activity-sampler.ts";
import { childOrigin, startChild } from "../children.ts";
import { runBenchSession } from "../session.ts";
import {
  clusterCpuSeconds,
  cpuBetween,
  cpuSnapshot,
  CORES,
  CPU_MODEL,
  describeMachine,
  postmasterOf,
  taskCpuSeconds,
  type CpuSnapshot,
} from "../cpu.ts";
import { createBenchUser, type BenchUser } from "../fixtures.ts";
import { CHILD_ENV } from "../protocol.ts";
import { writeJson } from "../report.ts";
import { Client, runPaced, type Limits, type Sample } from "./client.ts";
import {
  HEALTHZ,
  mixStep,
  PROBE,
  ROUTES,
  WEIGHTS,
  type ClientState,
  type PartUpload,
  type PlanningRequest,
} from "./mix.ts";
import {
  formatBaseline,
  formatLimited,
  formatMix,
  formatPlannings,
  formatSplit,
  JUDGE_SLACK_MS,
  JUDGE_TOLERANCE,
  judgeLimited,
  phaseFigures,
  planningFigures,
  planningSplit,
  serverFigures,
  type CpuFigures,
  type ServerReading,
  type TaskTimes,
} from "./report.ts";
import { readLoadSettings } from "./settings.ts";

const API_APPLICATION_NAME = "swarf-bench-load-api";
const PARTS = ["partC.step", "partC.stl"];
/** the probe's pace during the mix */
const PROBE_INTERVAL_MS = 1000;

function say(line: string): void {
  process.stderr.write(`[bench:load] ${line}\n`);
}

interface CpuReading {
  snapshot: CpuSnapshot;
  /** CPU seconds of the server's main thread (its event loop) so far, or null */
  mainThread: number | null;
  /** CPU seconds of the whole local database server so far, or null */
  database: number | null;
}

/** CPU of the server process, the database server, the machine and this process, for cpuFigures. */
function cpuReading(serverPid: number, postmaster: number | null): CpuReading {
  return {
    snapshot: cpuSnapshot(serverPid),
    mainThread: taskCpuSeconds(serverPid, serverPid),
    database: postmaster === null ? null : clusterCpuSeconds(postmaster),
  };
}

function cpuFigures(before: CpuReading, after: CpuReading): CpuFigures {
  const wall = Number(after.snapshot.atNs - before.snapshot.atNs) / 1e9;
  const database =
    before.database !== null && after.database !== null ? ((after.database - before.database) / wall) * 100 : null;
  const mainThread =
    before.mainThread !== null && after.mainThread !== null
      ? ((after.mainThread - before.mainThread) / wall) * 100
      : null;
  return { ...cpuBetween(before.snapshot, after.snapshot), mainThreadPercent: mainThread, databasePercent: database };
}

/** Runs `work` on every item, `concurrency` at a time. */
async function eachLimited<T>(
  items: readonly T[],
  concurrency: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, items.length) }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
}

export async function main(): Promise<number> {
  const settings = readLoadSettings();
  const env = readEnv();
  const started = new Date();
  const loadBefore = os.loadavg();
  const problems: string[] = [];
  const notes: string[] = [];

  return runBenchSession(say, async (session) => {
    const { signal } = session;
    const uploads: PartUpload[] = PARTS.map((name) => ({
      name,
      ...fileUpload(fs.readFileSync(path.join(settings.partsDir, name)), name),
    }));
    const { database, owner } = await session.openDatabase(env, 4);
    // one more user than keys: the warm-up's, so that no measured key starts with spent requests
    const users: BenchUser[] = [];
    for (let i = 0; i <= settings.keys; i++) users.push(await createBenchUser(owner));

    say("starting the server: API, geometry threads and worker runner in one process");
    const server = await startChild(
      "server",
      "load/server.ts",
      {
        LOG_LEVEL: env.LOG_LEVEL,
        [CHILD_ENV.appUrl]: database.appUrl,
        [CHILD_ENV.ownerUrl]: database.ownerUrl,
        [CHILD_ENV.applicationName]: API_APPLICATION_NAME,
      },
      {
        signal,
        readyTimeoutMs: 240_000,
        // as `npm start` runs
        nodeArgs: [
          "--v8-pool-size=1",
          ...(settings.cpuProfileDir ? ["--cpu-prof", `--cpu-prof-dir=${path.resolve(settings.cpuProfileDir)}`] : []),
        ],
      },
    );
    session.adopt(server);
    const origin = childOrigin(server);
    say(`server pid ${server.pid} at ${origin}`);
    const t0 = performance.now();
    const readings: ServerReading[] = [];
    server.onMessage((message) => {
      if (message.type === "server-stats") readings.push({ ...message, at: performance.now() - t0 });
    });

    const limits: Limits = {
      perBucket: {
        default: { limit: env.RATE_LIMIT_PER_MINUTE, windowSeconds: 60 },
        cam_planning: { limit: env.CAM_PLANNING_RATE_LIMIT_PER_HOUR, windowSeconds: 3600 },
      },
    };
    const samples: Sample[] = [];
    const makeClient = (index: number, apiKey: string | null) =>
      new Client({
        index,
        apiKey,
        origin,
        limits,
        t0,
        record: (s) => samples.push(s),
        rng: seededRandom(settings.seed * 7919 + index + 1),
      });
    const clients = users.slice(0, settings.keys).map((user, i) => makeClient(i, user.apiKey));
    const warmer = makeClient(settings.keys, users[settings.keys]!.apiKey);
    const forever = Number.POSITIVE_INFINITY;

    // each user's planning library (the starter library: 136 assemblies) through the API; on
    // the key's own window, as the client's requests are judged against it
    say(`setup: a library of ${starterLibrary().length} tools for each of the ${settings.keys} users`);
    const libraryIds: string[] = [];
    await eachLimited([...clients, warmer], 4, async (client) => {
      const answer = await client.send(
        {
          route: ROUTES.createLibrary,
          method: "POST",
          path: "/libraries/equipment",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ library: { name: "Load shop tools", assemblies: starterLibrary() } }),
          expect: [201],
          buckets: ["default"],
        },
        "setup",
        forever,
      );
      const id = answer ? (JSON.parse(answer.text) as { id?: string }).id : undefined;
      if (!id)
        throw new Error(
          `could not create client ${client.index}'s library: ${samples.findLast((s) => s.client === client.index)?.problem ?? "no id"}`,
        );
      libraryIds[client.index] = id;
    });
    signal.throwIfAborted();

    // warm-up, by a user of its own: both geometry threads read a STEP file (a fresh thread's
    // first read costs several times a warm one), then one of each read of the mix
    say("warm-up: uploads on every geometry thread, each route once");
    const warm: ClientState = {
      client: warmer,
      rng: seededRandom(settings.seed),
      libraryId: libraryIds[settings.keys]!,
      uploads,
      plansLeft: 0,
      projects: [],
      tasks: [],
      plannings: [],
      t0,
    };
    for (let i = 0; i < 2; i++) await mixStep({ ...warm, rng: () => 0.999 }, "warmup", forever);
    await Promise.all(
      warm.projects.map((p) =>
        warmer.send(
          {
            route: ROUTES.upload,
            method: "POST",
            path: `/projects/${p.id}/workpiece`,
            headers: { "Content-Type": uploads[0]!.contentType },
            body: uploads[0]!.body,
            expect: [201],
            buckets: ["default"],
          },
          "warmup",
          forever,
        ),
      ),
    );
    for (let i = 0; i < 40; i++) await mixStep(warm, "warmup", forever);
    for (let i = 0; i < 100; i++) await warmer.send(HEALTHZ, "warmup", forever);
    const warmProblems = samples.filter((s) => s.phase !== "mix" && s.outcome === "unexpected");
    if (warmProblems.length > 0)
      throw new Error(`set-up or warm-up failed:\n${warmProblems.map((s) => `  ${s.problem}`).join("\n")}`);
    signal.throwIfAborted();

    const perMinute = env.RATE_LIMIT_PER_MINUTE * settings.rateFactor;
    const intervalMs = 60_000 / perMinute;
    const pace = `${settings.keys} clients, each ${perMinute.toFixed(0)} requests/min (${settings.rateFactor}x its limit), at most ${settings.inFlight} in flight`;

    say(`baseline: GET /healthz for ${settings.baselineSeconds} s, ${pace}`);
    const baseActivity = startActivitySampler(owner, API_APPLICATION_NAME);
    const { rows: backend } = await owner.query<{ pid: number }>("select pg_backend_pid() as pid");
    const postmaster = backend[0] ? postmasterOf(backend[0].pid) : null;
    const baseBefore = cpuReading(server.pid, postmaster);
    const baseStart = performance.now();
    const baseUntil = baseStart + settings.baselineSeconds * 1000;
    let baseAfter: CpuReading | undefined;
    const baseTimer = setTimeout(() => (baseAfter = cpuReading(server.pid, postmaster)), baseUntil - performance.now());
    await Promise.all(
      clients.map((client) =>
        runPaced({
          client,
          intervalMs,
          inFlight: settings.inFlight,
          until: baseUntil,
          signal,
          rng: seededRandom(client.index + 101),
          step: async () => void (await client.send(HEALTHZ, "baseline", baseUntil)),
        }),
      ),
    );
    clearTimeout(baseTimer);
    baseAfter ??= cpuReading(server.pid, postmaster);
    const baseDatabase = await baseActivity.stop();
    signal.throwIfAborted();
    const baseline = phaseFigures(
      "baseline",
      samples,
      settings.baselineSeconds,
      {
        cpu: cpuFigures(baseBefore, baseAfter),
        server: serverFigures(readings, baseStart - t0, baseUntil - t0),
        apiPool: baseDatabase,
      },
      null,
    );
    say(`baseline: ${baseline.perSecond} requests/s, p50 ${baseline.total.p50Ms} ms, p99 ${baseline.total.p99Ms} ms`);

    say(`mix: ${settings.seconds} s, ${pace}; plannings at most ${settings.plansPerKey} per key`);
    const plannings: PlanningRequest[] = [];
    const states: ClientState[] = clients.map((client, i) => ({
      client,
      rng: seededRandom(settings.seed * 104_729 + i),
      libraryId: libraryIds[i]!,
      uploads,
      plansLeft: settings.plansPerKey,
      projects: [],
      tasks: [],
      plannings,
      t0,
    }));
    const mixActivity = startActivitySampler(owner, API_APPLICATION_NAME);
    const mixBefore = cpuReading(server.pid, postmaster);
    const mixStart = performance.now();
    const mixStartWall = Date.now();
    const mixUntil = mixStart + settings.seconds * 1000;
    let mixAfter: CpuReading | undefined;
    let mixDatabase: Promise<ActivitySummary> | undefined;
    const mixTimer = setTimeout(() => {
      mixDatabase = mixActivity.stop();
      mixAfter = cpuReading(server.pid, postmaster);
    }, mixUntil - performance.now());
    const progress = setInterval(() => {
      const mix = samples.filter((s) => s.phase === "mix");
      say(
        `mix: ${((performance.now() - mixStart) / 1000).toFixed(0)} s, ${mix.length} requests, ` +
          `${mix.filter((s) => s.outcome === "limited").length} 429s, ${mix.filter((s) => s.outcome === "unexpected").length} unexpected, ${plannings.length} plannings accepted`,
      );
    }, 10_000);
    const probe = makeClient(-1, null);
    try {
      await Promise.all([
        ...states.map((state) =>
          runPaced({
            client: state.client,
            intervalMs,
            inFlight: settings.inFlight,
            until: mixUntil,
            signal,
            rng: seededRandom(state.client.index + 211),
            step: () => mixStep(state, "mix", mixUntil),
          }),
        ),
        runPaced({
          client: probe,
          intervalMs: PROBE_INTERVAL_MS,
          inFlight: 1,
          until: mixUntil,
          signal,
          rng: seededRandom(7),
          step: async () => void (await probe.send(PROBE, "mix", mixUntil)),
        }),
      ]);
    } finally {
      clearInterval(progress);
      clearTimeout(mixTimer);
    }
    mixAfter ??= cpuReading(server.pid, postmaster);
    const mixPool = await (mixDatabase ?? mixActivity.stop());
    const drainedS = (performance.now() - mixUntil) / 1000;
    signal.throwIfAborted();
    if (!server.running()) problems.push("the server exited during the run");

    const { rows: taskRows } = await owner.query<{
      status: string;
      created: number;
      started: number | null;
      finished: number | null;
      code: string | null;
      message: string | null;
    }>(
      `select status, extract(epoch from created_at) * 1000 as created, extract(epoch from started_at) * 1000 as started,
              extract(epoch from finished_at) * 1000 as finished, error ->> 'code' as code, error ->> 'message' as message
         from app_public.tasks where task_name = $1 and user_id = any($2::uuid[])`,
      [PLAN_CAM_TASK_NAME, users.slice(0, settings.keys).map((u) => u.userId)],
    );
    const tasks: TaskTimes[] = taskRows.map((r) => ({
      status: r.status,
      createdMs: Number(r.created),
      startedMs: r.started === null ? null : Number(r.started),
      finishedMs: r.finished === null ? null : Number(r.finished),
      errorCode: r.code,
      errorMessage: r.message,
    }));
    // longer than the child's own 5 s cut-off: running plannings hold its worker runner, and a
    // profiled child writes its profiles on the way out
    await server.stop(10_000);

    const mix = phaseFigures(
      "mix",
      samples.filter((s) => s.phase === "mix" && s.sentAt <= mixUntil - t0),
      settings.seconds,
      {
        cpu: cpuFigures(mixBefore, mixAfter),
        server: serverFigures(readings, mixStart - t0, mixUntil - t0),
        apiPool: mixPool,
      },
      baseline,
    );
    const judged = judgeLimited(samples, limits);
    // a sample's send time on the database's clock (same machine): the planning intervals' clock
    const toWall = (at: number) => mixStartWall + (at - (mixStart - t0));
    const intervals = tasks.flatMap((t) =>
      t.startedMs === null ? [] : [[t.startedMs, t.finishedMs ?? Number.POSITIVE_INFINITY] as const],
    );
    const split = planningSplit(
      samples.filter((s) => s.sentAt <= mixUntil - t0),
      (at) => intervals.some(([from, to]) => toWall(at) >= from && toWall(at) < to),
      ROUTES.probe,
    );
    const planned = planningFigures(
      plannings.length,
      plannings.filter((p) => p.queued).length,
      tasks,
      mixStartWall + settings.seconds * 1000,
    );
    const retries = {
      gaveUp: clients.reduce((sum, c) => sum + c.gaveUp, 0),
      cutShort: clients.reduce((sum, c) => sum + c.cutShort, 0),
    };
    const unexpected = samples.filter((s) => s.outcome === "unexpected");

    if (unexpected.length > 0) {
      problems.push(
        `${unexpected.length} answers the clients did not ask for (5xx, no answer, another 4xx, a malformed 429, a wrong replay):`,
      );
      const seen = new Map<string, number>();
      for (const s of unexpected) {
        const key = `${s.route} ${s.status ?? "none"}`;
        seen.set(key, (seen.get(key) ?? 0) + 1);
        if (seen.get(key)! <= 3)
          problems.push(
            `  [client ${s.client}, ${(s.sentAt / 1000).toFixed(2)} s after the server was up] ${s.problem ?? ""}`,
          );
      }
      for (const [key, n] of seen) if (n > 3) problems.push(`  ... ${n} in all of ${key}`);
    }
    if (judged.unjustified.length > 0)
      problems.push(`${judged.unjustified.length} 429s that no limit called for (listed above)`);
    if (mix.total.limited === 0)
      notes.push(
        "no 429 in the mix: the clients never reached their limit (a short run, or a rate factor of 1 or less)",
      );
    for (const [bucket, m] of Object.entries(judged.mostAdmitted)) {
      if (m.admitted > m.limit + settings.inFlight)
        notes.push(
          `client ${m.client} got ${m.admitted} requests admitted in one ${bucket} window, over its limit of ${m.limit} by more than its requests in flight`,
        );
    }
    if (drainedS > 10) notes.push(`the last requests were answered ${drainedS.toFixed(0)} s after the window's end`);

    process.stdout.write(
      [
        "",
        `Swarf load benchmark, ${started.toISOString()}, ${CORES} cores (${CPU_MODEL ?? "unknown CPU"}), Node ${process.version}, ` +
          `PostgreSQL ${database.serverVersion}; load average before ${loadBefore.map((l) => l.toFixed(2)).join(" ")}`,
        `${settings.keys} keys (one user each), each client ${perMinute.toFixed(0)} requests/min (${settings.rateFactor}x its limit of ${env.RATE_LIMIT_PER_MINUTE}), ` +
          `at most ${settings.inFlight} in flight, waiting out every 429; plannings at most ${settings.plansPerKey} per key`,
        `server: API (pool ${env.API_POOL_SIZE}), ${env.GEOMETRY_WORKERS ?? "default: one per core"} geometry threads, worker concurrency ${env.WORKER_CONCURRENCY}, in one process on 127.0.0.1`,
        "",
        formatBaseline(baseline, settings.keys, CORES),
        "",
        formatMix(mix, baseline, CORES),
        "",
        formatLimited(judged, limits, retries),
        "",
        formatPlannings(planned, settings.seconds),
        "",
        formatSplit(split),
        ...(notes.length > 0 ? ["", "Notes:", ...notes.map((n) => `  ${n}`)] : []),
        "",
        problems.length > 0
          ? ["FAILED:", ...problems.map((p) => `  ${p}`)].join("\n")
          : "PASSED: every answer was one the client asked for, or a 429 its key's requests called for",
        "",
        `figures written to ${settings.out}`,
        "",
      ].join("\n"),
    );
    writeJson(settings.out, {
      date: started.toISOString(),
      durationSeconds: (Date.now() - started.getTime()) / 1000,
      machine: { ...describeMachine(), loadAverageBefore: loadBefore, loadAverageAfter: os.loadavg() },
      database: { description: database.description, serverVersion: database.serverVersion },
      settings: {
        ...settings,
        limits,
        weights: WEIGHTS,
        judge: { slackMs: JUDGE_SLACK_MS, tolerance: JUDGE_TOLERANCE },
        apiPoolSize: env.API_POOL_SIZE,
        geometryWorkers: env.GEOMETRY_WORKERS ?? null,
        workerConcurrency: env.WORKER_CONCURRENCY,
      },
      baseline,
      mix,
      limited: judged,
      retries,
      plannings: { ...planned, requests: plannings, tasks, split },
      notes,
      problems,
      serverReadings: readings,
      samples: samples.map((s) => ({ ...s, sentAt: round3(s.sentAt), doneAt: round3(s.doneAt) })),
    });
    return problems.length > 0 ? 1 : 0;
  });
}

const round3 = (value: number) => Math.round(value * 1000) / 1000;
