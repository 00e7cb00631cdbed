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
 * A worker that could not renew its own lease for a while (the database was away) recovers
 * nothing for a stale interval after it can again, so that the others can renew theirs first.
 */
import os from "node:os";
import cron from "node-cron";
import { log } from "../config/logger.ts";
import { dropLease, recoverDeadWorkers, renewLease } from "../db/queries/worker-leases.ts";
import type { Queryable } from "../db/request-transaction.ts";

export interface LeaseKeeper {
  /** when the lease was last renewed (ms since the epoch) */
  renewedAt(): number;
  stop(): Promise<void>;
}

export async function keepLease(
  pool: Queryable,
  options: { poolId: string; taskNames: readonly string[]; heartbeatSeconds: number; staleSeconds: number },
): Promise<LeaseKeeper> {
  const lease = { poolId: options.poolId, hostname: os.hostname(), pid: process.pid, taskNames: options.taskNames };
  const logger = log.child({ component: "leases", poolId: options.poolId });
  await renewLease(pool, lease);
  let renewedAt = Date.now();

  const staleMs = options.staleSeconds * 1000;
  /** no recovery before this time: see below */
  let recoverFrom = 0;

  // noOverlap: a slow round is skipped rather than piled up
  const tick = async () => {
    try {
      await renewLease(pool, lease);
      const now = Date.now();
      // This process could not renew for half the stale interval (the database was away, or
      // this event loop was stuck): the other workers' leases aged as much, and after an outage
      // longer than the stale interval every lease looks stale. The first worker back must not
      // take the others' running jobs (they would run twice): it recovers nothing until they
      // have had a stale interval to renew.
      if (now - renewedAt > staleMs / 2) recoverFrom = now + staleMs;
      renewedAt = now;
      if (now < recoverFrom) return;
      for (const recovered of await recoverDeadWorkers(pool, options.staleSeconds)) {
        logger.warn(
          { deadPool: recovered.pool_id, tasksRequeued: recovered.tasks_requeued },
          "recovered the jobs of a dead worker",
        );
      }
    } catch (error) {
      logger.error({ err: error }, "lease round failed");
    }
  };
  const every = Math.max(1, Math.min(59, Math.round(options.heartbeatSeconds)));
  const task = cron.schedule(`*/${every} * * * * *`, tick, { noOverlap: true, name: `lease-${options.poolId}` });

  return {
    renewedAt: () => renewedAt,
    async stop() {
      await task.stop();
      await dropLease(pool, options.poolId).catch((error: unknown) =>
        logger.warn({ err: error }, "could not drop the lease"),
      );
    },
  };
}
