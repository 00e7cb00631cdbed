/**
 * `npm run worker -- [--tasks a,b]`: a worker process of a fleet. It runs the given tasks (all
 * by default) against DATABASE_URL, and migrates first, so a fleet can be upgraded by
 * starting new processes. Without DATABASE_URL it joins the embedded cluster of `npm start`.
 */
import { readEnv } from "../config/env.ts";
import { log } from "../config/logger.ts";
import { stopOnSignal } from "../config/shutdown.ts";
import { openDatabase } from "../db/open-database.ts";
import { ALL_TASK_NAMES, GEOMETRY_TASK_NAMES } from "../tasks/index.ts";
import { parseTaskNames } from "./args.ts";
import { createGeometryPool } from "./geometry/pool.ts";
import { checkTaskNames, startWorkerRunner } from "./runner.ts";

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
const geometry = wantsGeometry && env.GEOMETRY_WORKERS !== 0 ? createGeometryPool({ size: env.GEOMETRY_WORKERS, simulationThread: env.CAM_SIMULATION_THREAD }) : undefined;
const runner = await startWorkerRunner({
  ownerUrl: database.ownerUrl,
  taskNames,
  services: geometry ? { geometry } : {},
  concurrency: env.WORKER_CONCURRENCY,
  heartbeatSeconds: env.WORKER_HEARTBEAT_SECONDS,
  leaseStaleSeconds: env.WORKER_LEASE_STALE_SECONDS,
});
log.info({ poolId: runner.poolId, tasks: runner.taskNames }, "worker ready");

stopOnSignal("worker", async () => {
  await runner.stop();
  await geometry?.close();
  await database.close();
});
