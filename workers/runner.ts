/**
 * A graphile-worker runner for some or all of the service's tasks, with a lease that lets
 * the fleet recover its jobs within a minute if this process dies (workers/leases.ts).
 */
import EventEmitter from "node:events";
import { Logger, run, type Runner, type Task, type WorkerEvents } from "graphile-worker";
import { graphileLogFactory } from "../config/logger.ts";
import { createPool } from "../db/pools.ts";
import { ALL_TASK_NAMES, createTaskList, GEOMETRY_TASK_NAMES, schedules, type TaskServices } from "../tasks/index.ts";
import { keepLease, type LeaseKeeper } from "./leases.ts";

export interface WorkerRunnerOptions {
  ownerUrl: string;
  /** task names to run; default: all */
  taskNames?: readonly string[];
  /** tasks besides the service's own (tests and benchmarks add theirs) */
  extraTasks?: Record<string, Task>;
  /** what some tasks need (geometry threads for tessellate) */
  services?: TaskServices;
  concurrency: number;
  heartbeatSeconds: number;
  leaseStaleSeconds: number;
  pollIntervalMs?: number;
}

export interface WorkerRunner {
  poolId: string;
  taskNames: readonly string[];
  /** "failing" once graphile-worker's runner has stopped on a fatal error */
  health(): "ok" | "failing";
  stop(): Promise<void>;
}

/**
 * The tasks to run: the named ones, or every one this process can run (a geometry task only
 * with geometry threads). A name that is not a task, or a geometry task without threads, is
 * refused before anything starts.
 */
export function selectTasks(
  taskNames: readonly string[] | undefined,
  extra: Record<string, Task> = {},
  services: TaskServices = {},
): Record<string, Task> {
  const available: Record<string, Task> = { ...createTaskList(services), ...extra };
  if (!taskNames) return available;
  checkTaskNames(taskNames, Object.keys(extra));
  const needGeometry = taskNames.filter((name) => !(name in available) && GEOMETRY_TASK_NAMES.includes(name));
  if (needGeometry.length > 0) {
    throw new Error(`task ${needGeometry.join(", ")} runs on geometry threads, and this process has none (GEOMETRY_WORKERS=0)`);
  }
  return Object.fromEntries(taskNames.map((name) => [name, available[name]!]));
}

/** Refuses names that are no task of the service (nor one of `extra`). */
export function checkTaskNames(taskNames: readonly string[], extra: readonly string[] = []): void {
  const known = [...ALL_TASK_NAMES, ...extra];
  const unknown = taskNames.filter((name) => !known.includes(name));
  if (unknown.length > 0) throw new Error(`unknown task ${unknown.join(", ")}; known: ${[...known].sort().join(", ")}`);
}

export async function startWorkerRunner(options: WorkerRunnerOptions): Promise<WorkerRunner> {
  const tasks = selectTasks(options.taskNames, options.extraTasks, options.services);
  const taskNames = Object.keys(tasks);
  const crontab = taskNames.flatMap((name) => (schedules[name] ? [schedules[name]] : [])).join("\n");
  const pgPool = createPool(options.ownerUrl, options.concurrency + 3, "swarf-worker");

  const events: WorkerEvents = new EventEmitter();
  let poolId: string | undefined;
  events.on("pool:create", ({ workerPool }) => {
    poolId = workerPool.id;
  });

  let runner: Runner;
  try {
    runner = await run({
      pgPool,
      concurrency: options.concurrency,
      taskList: tasks,
      crontab,
      noHandleSignals: true,
      pollInterval: options.pollIntervalMs ?? 2000,
      logger: new Logger(graphileLogFactory("worker")),
      events,
    });
  } catch (error) {
    await pgPool.end();
    throw error;
  }
  if (!poolId) throw new Error("graphile-worker did not report its pool id");
  let failed = false;
  runner.promise.catch(() => {
    failed = true;
  });
  let lease: LeaseKeeper;
  try {
    lease = await keepLease(pgPool, {
      poolId,
      taskNames,
      heartbeatSeconds: options.heartbeatSeconds,
      staleSeconds: options.leaseStaleSeconds,
    });
  } catch (error) {
    await runner.stop();
    await pgPool.end();
    throw error;
  }

  return {
    poolId,
    taskNames,
    health: () => (failed ? "failing" : "ok"),
    async stop() {
      // the lease outlives the draining runner, or a long job could be handed out twice
      await runner.stop();
      await lease.stop();
      await pgPool.end();
    },
  };
}
