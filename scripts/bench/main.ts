/**
 * `npm run bench`: see docs/benchmarks.md. Progress goes to stderr, the tables to stdout, the
 * figures to bench-results.json. Exit 0 when the run completed with every request answered
 * 2xx (aims met or not: that is for the reader), 1 when something broke, 130 on Ctrl-C.
 */
import path from "node:path";
import { readEnv, repoRoot } from "../../config/env.ts";
import { childOrigin as origin, startChild } from "./children.ts";
import { runBenchSession } from "./session.ts";
import { measureAnatomy } from "./anatomy.ts";
import { CORES, CPU_MODEL, describeMachine } from "./cpu.ts";
import { checkSameAnswer, createBenchUser, createProjectViaApi } from "./fixtures.ts";
import { runHttpLoad } from "./http-load.ts";
import { CHILD_ENV } from "./protocol.ts";
import { checkAims, findProblems, formatAims, formatAnatomy, formatHttp, formatTasks, writeJson } from "./report.ts";
import { readSettings } from "./settings.ts";
import { measureTaskLatency } from "./task-latency.ts";

const API_APPLICATION_NAME = "swarf-bench-api";
export const RESULTS_FILE = path.join(repoRoot, "bench-results.json");

function say(line: string): void {
  process.stderr.write(`[bench] ${line}\n`);
}

export async function main(): Promise<number> {
  const settings = readSettings();
  const env = readEnv();
  const childLog = { LOG_LEVEL: env.LOG_LEVEL };
  const started = new Date();

  return runBenchSession(say, async (session) => {
    const { signal } = session;
    const { database, owner } = await session.openDatabase(env, 4);
    const user = await createBenchUser(owner);

    const ours = await startChild(
      "api server",
      "server-app.ts",
      {
        ...childLog,
        [CHILD_ENV.appUrl]: database.appUrl,
        [CHILD_ENV.applicationName]: API_APPLICATION_NAME,
        RATE_LIMIT_PER_MINUTE: String(settings.rateLimitPerMinute),
      },
      {
        signal,
        nodeArgs: settings.cpuProfileDir
          ? ["--cpu-prof", `--cpu-prof-dir=${path.resolve(settings.cpuProfileDir)}`]
          : [],
      },
    );
    session.adopt(ours);
    const project = await createProjectViaApi(origin(ours), user.apiKey);
    const bare = await startChild(
      "bare server",
      "server-bare.ts",
      { ...childLog, [CHILD_ENV.bareBody]: project.body },
      { signal },
    );
    session.adopt(bare);
    await checkSameAnswer(origin(ours), origin(bare), project, user.apiKey);
    say(
      `servers: ours pid ${ours.pid} at ${origin(ours)}, bare pid ${bare.pid} at ${origin(bare)}; ${project.body.length} byte body`,
    );

    say("anatomy: one request at a time");
    const anatomy = await measureAnatomy({
      appUrl: database.appUrl,
      apiKey: user.apiKey,
      projectId: project.id,
      rateLimitPerMinute: settings.rateLimitPerMinute,
      origins: { ours: origin(ours), bare: origin(bare) },
      path: project.path,
      iterations: 300,
      httpSeconds: 2,
      signal,
    });

    const http = await runHttpLoad({
      targets: {
        ours: { name: "ours", origin: origin(ours), pid: ours.pid, running: ours.running },
        bare: { name: "bare", origin: origin(bare), pid: bare.pid, running: bare.running },
      },
      path: project.path,
      apiKey: user.apiKey,
      connections: settings.connections,
      rounds: settings.rounds,
      seconds: settings.seconds,
      warmupSeconds: settings.warmupSeconds,
      sampler: { pool: owner, applicationName: API_APPLICATION_NAME },
      signal,
      progress: say,
    });
    await Promise.all([ours.stop(), bare.stop()]);

    const worker = await startChild(
      "worker",
      "worker.ts",
      { ...childLog, [CHILD_ENV.ownerUrl]: database.ownerUrl },
      { signal },
    );
    session.adopt(worker);
    const tasks = await measureTaskLatency({
      owner,
      worker,
      workerConcurrency: env.WORKER_CONCURRENCY,
      userId: user.userId,
      projectId: project.id,
      count: settings.tasks,
      rounds: 2,
      ratePerSecond: settings.taskRatePerSecond,
      signal,
      progress: say,
    });
    await worker.stop();

    const aims = checkAims(http);
    const problems = findProblems(http);
    process.stdout.write(
      [
        "",
        `Swarf benchmark, ${started.toISOString()}, ${CORES} cores (${CPU_MODEL ?? "unknown CPU"}), Node ${process.version}, PostgreSQL ${database.serverVersion}`,
        "",
        formatAnatomy(anatomy),
        "",
        formatHttp(http, settings.rounds, settings.seconds, CORES),
        "",
        formatTasks(tasks),
        "",
        formatAims(aims),
        ...(problems.length > 0
          ? ["", "PROBLEMS (the figures above are not valid):", ...problems.map((p) => `  ${p}`)]
          : []),
        "",
        `figures written to ${path.relative(process.cwd(), RESULTS_FILE) || RESULTS_FILE}`,
        "",
      ].join("\n"),
    );
    writeJson(RESULTS_FILE, {
      date: started.toISOString(),
      durationSeconds: (Date.now() - started.getTime()) / 1000,
      machine: { ...describeMachine() },
      database: { description: database.description, serverVersion: database.serverVersion },
      settings: {
        ...settings,
        apiPoolSize: env.API_POOL_SIZE,
        workerConcurrency: env.WORKER_CONCURRENCY,
        authCacheTtlSeconds: env.AUTH_CACHE_TTL_SECONDS,
      },
      anatomy,
      http,
      tasks,
      aims,
      problems,
    });
    return problems.length > 0 ? 1 : 0;
  });
}
