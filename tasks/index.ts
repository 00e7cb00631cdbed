/**
 * Every graphile-worker task of the service, and the cluster-wide schedules. A fleet process
 * runs a subset (`npm run worker -- --tasks a,b`) and schedules only the cron items of the
 * tasks it runs. Some tasks need a service of the process (geometry threads): they exist
 * only in a process that has it.
 */
import type { Task } from "graphile-worker";
import { PLAN_CAM_WORKER_TASK, TESSELLATE_WORKER_TASK } from "../contracts/tasks.ts";
import type { GeometryPool } from "../geometry-pool/pool.ts";
import { planCamTask } from "./automated_cam_planning.ts";
import { deliverWebhookTask, type WebhookAttemptObserver } from "./deliver_webhook.ts";
import { expireIdempotencyRecordsTask } from "./expire_idempotency_records.ts";
import { pruneRateLimitSlotsTask } from "./prune_rate_limit_slots.ts";
import { purgeProject } from "./purge_project.ts";
import { sweepStuckTasks } from "./sweep_stuck_tasks.ts";
import { tessellateTask } from "./tessellate.ts";

export interface TaskServices {
  /** warm OCCT threads; without them the geometry tasks are not run here */
  geometry?: GeometryPool;
  /** each webhook attempt's outcome, for the process's metrics */
  onWebhookAttempt?: WebhookAttemptObserver;
  /** PUBLIC_BASE_URL: the base of the presigned URLs a task result carries; unset: root-relative */
  publicBaseUrl?: string;
}

/** tasks that run on geometry threads: a process offers them only with a pool */
export const GEOMETRY_TASK_NAMES: readonly string[] = [TESSELLATE_WORKER_TASK, PLAN_CAM_WORKER_TASK];

/** Every task name, whatever the process has. */
export const ALL_TASK_NAMES: readonly string[] = [
  "deliver_webhook",
  "purge_project",
  "expire_idempotency_records",
  "prune_rate_limit_slots",
  "sweep_stuck_tasks",
  ...GEOMETRY_TASK_NAMES,
];

/** The tasks this process can run with the services it has. */
export function createTaskList(services: TaskServices = {}): Record<string, Task> {
  return {
    deliver_webhook: deliverWebhookTask(undefined, undefined, services.onWebhookAttempt),
    purge_project: purgeProject,
    expire_idempotency_records: expireIdempotencyRecordsTask,
    prune_rate_limit_slots: pruneRateLimitSlotsTask,
    sweep_stuck_tasks: sweepStuckTasks,
    ...(services.geometry
      ? {
          [TESSELLATE_WORKER_TASK]: tessellateTask(services.geometry, services.publicBaseUrl),
          [PLAN_CAM_WORKER_TASK]: planCamTask(services.geometry),
        }
      : {}),
  };
}

/** graphile-worker crontab lines (minute hour day month weekday task ?options) */
export const schedules: Record<string, string> = {
  expire_idempotency_records: "17 * * * * expire_idempotency_records ?max=1",
  prune_rate_limit_slots: "*/10 * * * * prune_rate_limit_slots ?max=1",
  sweep_stuck_tasks: "* * * * * sweep_stuck_tasks ?max=1",
};
