/**
 * `npm run worker -- [--tasks a,b]`: a worker process of a fleet. It runs the given tasks (all
 * by default) against DATABASE_URL, and migrates first, so a fleet can be upgraded by
 * starting new processes. Without DATABASE_URL it joins the embedded cluster of `npm start`.
 */
import { readEnv } from "../config/env.ts";
import { log } from "../config/logger.ts";
import { stopOnSignal } from "../config/shutdown.ts";
import { openDatabase } from "../db/open-database.ts";
import { parseTaskNames } from "./args.ts";
import { selectTasks, startWorkerRunner } from "./runner.ts";

const env = readEnv();
let taskNames: string[] | undefined;
try {
  taskNames = parseTaskNames(process.argv.slice(2));
  selectTasks(taskNames); // unknown names fail before anything starts
} catch (error) {
  process.stderr.write(`${(error as Error).message}\nusage: npm run worker -- [--tasks name1,name2]\n`);
  process.exit(2);
}
const database = await openDatabase(env);
const runner = await startWorkerRunner({
  ownerUrl: database.ownerUrl,
  taskNames,
  concurrency: env.WORKER_CONCURRENCY,
  heartbeatSeconds: env.WORKER_HEARTBEAT_SECONDS,
  leaseStaleSeconds: env.WORKER_LEASE_STALE_SECONDS,
});
log.info({ poolId: runner.poolId, tasks: runner.taskNames }, "worker ready");

stopOnSignal("worker", async () => {
  await runner.stop();
  await database.close();
});
