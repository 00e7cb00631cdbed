/**
 * `npm start`: the API and a worker for every task in one process. Without DATABASE_URL it
 * starts (or joins) the embedded cluster under SWARF_DATA_DIR. /healthz is 503 until the
 * workers run.
 */
import { createApp } from "../api/app.ts";
import { createHttpServer } from "../http/http-server.ts";
import { readEnv } from "../config/env.ts";
import { log } from "../config/logger.ts";
import { stopOnSignal } from "../config/shutdown.ts";
import { openDatabase } from "../db/open-database.ts";
import { createPool } from "../db/pools.ts";
import { geometryMetrics } from "../metrics/geometry.ts";
import { createMetricsRegistry } from "../metrics/registry.ts";
import { createGeometryPool } from "../geometry-pool/pool.ts";
import { watchGeometryReadiness } from "../geometry-pool/readiness.ts";
import { runnerTuning, startWorkerRunner, type WorkerRunner } from "../workers/runner.ts";

const env = readEnv();
const database = await openDatabase(env, (line) => log.debug({ component: "postgres" }, line));
const pool = createPool(database.appUrl, env.API_POOL_SIZE, "swarf-api");
let runner: WorkerRunner | undefined;

const geometry =
  env.GEOMETRY_WORKERS === 0
    ? undefined
    : createGeometryPool({
        size: env.GEOMETRY_WORKERS,
        queueTimeoutMs: env.GEOMETRY_QUEUE_TIMEOUT_MS,
        simulationThread: env.CAM_SIMULATION_THREAD,
      });
const geometryReadiness = watchGeometryReadiness(geometry);

// one registry for the process: request latency, task runs, the queue, the geometry threads
const metrics = createMetricsRegistry("api");
if (geometry) geometryMetrics(metrics, geometry);
const app = createApp({
  services: { pool, env, ...(geometry ? { geometry } : {}) },
  metrics,
  // the server listens only after the migrations ran; workers and geometry threads start right after
  health: () => ({ migrations: "ok", workers: runner?.health() ?? "starting", geometry: geometryReadiness.state() }),
});
const server = createHttpServer(app, env);
await new Promise<void>((resolve) => server.listen(env.PORT, env.HOST, resolve));
runner = await startWorkerRunner({
  ownerUrl: database.ownerUrl,
  services: { ...(geometry ? { geometry } : {}), publicBaseUrl: env.PUBLIC_BASE_URL },
  ...runnerTuning(env),
  metrics,
});
log.info({ url: `http://localhost:${env.PORT}/backend-api/api/public/v1`, tasks: runner.taskNames }, "swarf ready");

stopOnSignal("swarf", async () => {
  geometryReadiness.stopping();
  server.close();
  await runner?.stop();
  await geometry?.close();
  await pool.end();
  await database.close();
});
