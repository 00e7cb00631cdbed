/**
 * Benchmark child of `npm run bench:load`: what `npm start` runs, in one process, on the
 * benchmark's database: the real API (createApp), warm geometry threads (GEOMETRY_WORKERS,
 * default one per core as memory allows) so that uploads tessellate, and a worker runner with
 * every service task on those threads so that plannings run. Ready once the threads have
 * loaded OCCT and the runner runs. Every second it reports its event loop's delay and use and
 * its API pool's queue (requests waiting for a connection), which tell a busy process from a
 * busy machine.
 */
import { monitorEventLoopDelay, performance } from "node:perf_hooks";
import type pg from "pg";
import { createApp } from "../../../api/app.ts";
import { readEnv } from "../../../config/env.ts";
import { createPool } from "../../../db/pools.ts";
import { createGeometryPool, type GeometryPool } from "../../../geometry-pool/pool.ts";
import { runnerTuning, startWorkerRunner, type WorkerRunner } from "../../../workers/runner.ts";
import { failStartup, onShutdown, sendToParent, serveForParent } from "../child-runtime.ts";
import { CHILD_ENV, requiredEnv } from "../protocol.ts";

/** set once the parent stops us: a start cut short by that is no failure to report */
let stopping = false;

try {
  const env = readEnv();
  const pool = createPool(requiredEnv(CHILD_ENV.appUrl), env.API_POOL_SIZE, requiredEnv(CHILD_ENV.applicationName));
  let geometry: GeometryPool | undefined;
  let runner: WorkerRunner | undefined;
  let closeServer: (() => Promise<void>) | undefined;
  onShutdown(async () => {
    stopping = true;
    await closeServer?.();
    await runner?.stop();
    await geometry?.close();
    await pool.end();
  });

  if (env.GEOMETRY_WORKERS === 0) throw new Error("bench:load needs geometry threads: GEOMETRY_WORKERS must not be 0");
  geometry = createGeometryPool({
    ...(env.GEOMETRY_WORKERS ? { size: env.GEOMETRY_WORKERS } : {}),
    queueTimeoutMs: env.GEOMETRY_QUEUE_TIMEOUT_MS,
    simulationThread: env.CAM_SIMULATION_THREAD,
  });
  await geometry.ready();
  const threads = geometry;
  runner = await startWorkerRunner({
    ownerUrl: requiredEnv(CHILD_ENV.ownerUrl),
    services: { geometry: threads },
    ...runnerTuning(env),
  });
  const workers = runner;
  const app = createApp({
    services: { pool, env, geometry: threads },
    health: () => ({ migrations: "ok", workers: workers.health(), geometry: "ok" }),
  });
  reportStats(pool);
  closeServer = await serveForParent(app);
} catch (error) {
  if (!stopping) failStartup(error);
}

/** Every second: the event loop's delay (p99, max) and use, the API pool's queue sampled every 50 ms. */
function reportStats(pool: pg.Pool): void {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  let use = performance.eventLoopUtilization();
  let waiting: number[] = [];
  setInterval(() => waiting.push(pool.waitingCount), 50).unref();
  setInterval(() => {
    const next = performance.eventLoopUtilization();
    const utilization = performance.eventLoopUtilization(next, use).utilization;
    use = next;
    sendToParent({
      type: "server-stats",
      delayP99Ms: delay.percentile(99) / 1e6,
      delayMaxMs: delay.max / 1e6,
      utilization,
      poolWaitingMean: waiting.length > 0 ? waiting.reduce((a, b) => a + b, 0) / waiting.length : 0,
      poolWaitingMax: Math.max(0, ...waiting),
    });
    delay.reset();
    waiting = [];
  }, 1000).unref();
}
