/**
 * sweep_stuck_tasks (cron, every minute): a task record still queued or running although its
 * queue job is gone (removed by hand, or lost with a restored database) would wait forever;
 * it fails as task_lost so the client hears of it. Dead workers are handled sooner by the
 * lease recovery in workers/leases.ts.
 */
import type { Task } from "graphile-worker";
import { failLostTasks } from "../db/queries/task-state.ts";

const GRACE_SECONDS = 120;

export const sweepStuckTasks: Task = async (_payload, helpers) => {
  const lost = await helpers.withPgClient((db) => failLostTasks(db, GRACE_SECONDS));
  if (lost > 0) helpers.logger.warn(`marked ${lost} tasks as lost`);
};
