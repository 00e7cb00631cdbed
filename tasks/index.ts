/**
 * Every graphile-worker task of the service, and the cluster-wide schedules. A fleet process
 * runs a subset (`npm run worker -- --tasks a,b`) and schedules only the cron items of the
 * tasks it runs.
 */
import type { Task } from "graphile-worker";
import { expireIdempotencyRecordsTask } from "./expire_idempotency_records.ts";
import { pruneRateLimitSlotsTask } from "./prune_rate_limit_slots.ts";
import { purgeProject } from "./purge_project.ts";
import { sweepStuckTasks } from "./sweep_stuck_tasks.ts";

export const taskList: Record<string, Task> = {
  purge_project: purgeProject,
  expire_idempotency_records: expireIdempotencyRecordsTask,
  prune_rate_limit_slots: pruneRateLimitSlotsTask,
  sweep_stuck_tasks: sweepStuckTasks,
};

/** graphile-worker crontab lines (minute hour day month weekday task ?options) */
export const schedules: Record<string, string> = {
  expire_idempotency_records: "17 * * * * expire_idempotency_records ?max=1",
  prune_rate_limit_slots: "*/10 * * * * prune_rate_limit_slots ?max=1",
  sweep_stuck_tasks: "* * * * * sweep_stuck_tasks ?max=1",
};
