/**
 * `npm run worker -- [--tasks a,b]`: a worker process of a fleet. It runs the given tasks (all
 * by default) against DATABASE_URL, and migrates first, so a fleet can be upgraded by
 * starting new processes. Without DATABASE_URL it joins the embedded cluster of `npm start`.
 * It serves GET /healthz and GET /metrics on WORKER_HTTP_PORT (workers/health-server.ts).
 */
import { readEnv } from "../config/env.ts";
import { log } from "../config/logger.ts";
import { stopOnSignal } from "../config/shutdown.ts";
import { openDatabase } from "../db/open-database.ts";
import { geometryMetrics } from "../metrics/geometry.ts";
import { createMetricsRegistry } from "../metrics/registry.ts";
import { ALL_TASK_NAMES, GEOMETRY_TASK_NAMES } from "../tasks/index.ts";
import { parseTaskNames } from "./args.ts";
import { createGeometryPool } from "../geometry-pool/pool.ts";
import { watchGeometryReadiness } from "../geometry-pool/readiness.ts";
import { startWorkerHealthServer, type WorkerHealthServer } from "./health-server.ts";
import { checkTaskNames, runnerTuning, startWorkerRunner } from "./runner.ts";

const env = readEnv();
let taskNames: string[] | undefined;
try {
  taskNames = parseTaskNames(process.argv.slice(2));
  checkTaskNames(taskNames ?? []); // unknown names fail before anything starts
} catch (error) {
  process.stderr.write(`${(error as Error).message}\nusage: npm run worker -- [--tasks name1,name2]\n`);
  process.exit(2);
}
const database = await openDatabase(env);
// geometry threads only when this process runs a geometry task (0.5 GB each)
const wantsGeometry = (taskNames ?? ALL_TASK_NAMES).some((name) => GEOMETRY_TASK_NAMES.includes(name));
const geometry =
  wantsGeometry && env.GEOMETRY_WORKERS !== 0
    ? createGeometryPool({
        size: env.GEOMETRY_WORKERS,
        queueTimeoutMs: env.GEOMETRY_QUEUE_TIMEOUT_MS,
        simulationThread: env.CAM_SIMULATION_THREAD,
      })
    : undefined;
const geometryReadiness = watchGeometryReadiness(geometry);
const metrics = createMetricsRegistry("worker");
if (geometry) geometryMetrics(metrics, geometry);
const runner = await startWorkerRunner({
  ownerUrl: database.ownerUrl,
  taskNames,
  services: { ...(geometry ? { geometry } : {}), publicBaseUrl: env.PUBLIC_BASE_URL },
  ...runnerTuning(env),
  metrics,
});
let health: WorkerHealthServer;
try {
  health = await startWorkerHealthServer({
    host: env.HOST,
    port: env.WORKER_HTTP_PORT,
    metrics,
    metricsToken: env.METRICS_TOKEN,
    timeouts: env,
    checks: () => ({ worker: runner.health(), geometry: geometryReadiness.state() }),
    ping: () => runner.ping(),
  });
} catch (error) {
  // a second worker on one host needs a port of its own: say so, and leave no job behind
  log.error(
    { err: error },
    `the worker's HTTP port ${env.HOST}:${env.WORKER_HTTP_PORT} is not free; set WORKER_HTTP_PORT (0: any free port)`,
  );
  await runner.stop();
  await geometry?.close();
  await database.close();
  process.exit(1);
}
log.info({ poolId: runner.poolId, tasks: runner.taskNames, port: health.port }, "worker ready");

// SIGTERM: no new jobs; running ones have WORKER_SHUTDOWN_GRACE_SECONDS to finish, then plans
// and re-meshes stop and go back to the queue (a retry); the lease goes last
stopOnSignal("worker", async () => {
  geometryReadiness.stopping();
  await health.close();
  await runner.stop();
  await geometry?.close();
  await database.close();
});
