/**
 * Keeps this runner's lease alive and hands back the jobs of runners that stopped renewing
 * theirs. Both run on a per-process schedule (node-cron), every `heartbeatSeconds`.
 *
 * Timing (defaults): heartbeat every 5 s, a lease is stale after 30 s, so a SIGKILLed worker's
 * jobs are free again 30-35 s after its last heartbeat and picked up within graphile-worker's
 * poll interval after that: well inside a minute. The price is that a worker whose event
 * loop is blocked for longer than the stale interval is declared dead while it still runs;
 * its late writes are discarded because task records are written per attempt
 * (db/queries/task-state.ts). CPU-heavy work runs in worker threads so the loop stays free.
 */
import os from "node:os";
import cron from "node-cron";
import type pg from "pg";
import { log } from "../config/logger.ts";
import { dropLease, recoverDeadWorkers, renewLease } from "../db/queries/worker-leases.ts";

export interface LeaseKeeper {
  stop(): Promise<void>;
}

export async function keepLease(
  pool: pg.Pool,
  options: { poolId: string; taskNames: readonly string[]; heartbeatSeconds: number; staleSeconds: number },
): Promise<LeaseKeeper> {
  const lease = { poolId: options.poolId, hostname: os.hostname(), pid: process.pid, taskNames: options.taskNames };
  const logger = log.child({ component: "leases", poolId: options.poolId });
  await renewLease(pool, lease);

  // noOverlap: a slow round is skipped rather than piled up
  const tick = async () => {
    try {
      await renewLease(pool, lease);
      for (const recovered of await recoverDeadWorkers(pool, options.staleSeconds)) {
        logger.warn({ deadPool: recovered.pool_id, tasksRequeued: recovered.tasks_requeued }, "recovered the jobs of a dead worker");
      }
    } catch (error) {
      logger.error({ err: error }, "lease round failed");
    }
  };
  const every = Math.max(1, Math.min(59, Math.round(options.heartbeatSeconds)));
  const task = cron.schedule(`*/${every} * * * * *`, tick, { noOverlap: true, name: `lease-${options.poolId}` });

  return {
    async stop() {
      await task.stop();
      await dropLease(pool, options.poolId).catch((error: unknown) => logger.warn({ err: error }, "could not drop the lease"));
    },
  };
}
