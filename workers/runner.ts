/**
 * A graphile-worker runner for some or all of the service's tasks, with a lease that lets
 * the fleet recover its jobs within a minute if this process dies (workers/leases.ts).
 */
import EventEmitter from "node:events";
import { Logger, run, type Runner, type Task, type WorkerEvents } from "graphile-worker";
import pg from "pg";
import type { Registry } from "prom-client";
import type { Env } from "../config/env.ts";
import { graphileLogFactory } from "../config/logger.ts";
import { survivingLostConnections } from "../db/pools.ts";
import { databaseMetrics } from "../metrics/database.ts";
import { taskMetrics, webhookAttemptCounter } from "../metrics/tasks.ts";
import { ALL_TASK_NAMES, createTaskList, GEOMETRY_TASK_NAMES, schedules, type TaskServices } from "../tasks/index.ts";
import { keepLease, type LeaseKeeper } from "./leases.ts";
import { WaitingPool } from "./waiting-pool.ts";

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
  /** on stop(), how long running jobs may go on before their abort signal fires (default 10 s) */
  shutdownGraceSeconds?: number;
  /** the process's metrics: task runs, webhook attempts and the queue as the database has it */
  metrics?: Registry;
}

/** The runner's tuning as the environment sets it (WORKER_*), for the processes that start one. */
export function runnerTuning(
  env: Env,
): Pick<WorkerRunnerOptions, "concurrency" | "heartbeatSeconds" | "leaseStaleSeconds" | "shutdownGraceSeconds"> {
  return {
    concurrency: env.WORKER_CONCURRENCY,
    heartbeatSeconds: env.WORKER_HEARTBEAT_SECONDS,
    leaseStaleSeconds: env.WORKER_LEASE_STALE_SECONDS,
    shutdownGraceSeconds: env.WORKER_SHUTDOWN_GRACE_SECONDS,
  };
}

export interface WorkerRunner {
  poolId: string;
  taskNames: readonly string[];
  /**
   * "failing" once graphile-worker's runner has stopped on a fatal error, or when the lease
   * has not been renewed for the stale interval (the fleet then takes this worker for dead)
   */
  health(): "ok" | "failing";
  /** resolves when the worker's database answers */
  ping(): Promise<void>;
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
    throw new Error(
      `task ${needGeometry.join(", ")} runs on geometry threads, and this process has none (GEOMETRY_WORKERS=0)`,
    );
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
  const services: TaskServices = options.metrics
    ? { ...options.services, onWebhookAttempt: webhookAttemptCounter(options.metrics) }
    : { ...options.services };
  const tasks = selectTasks(options.taskNames, options.extraTasks, services);
  const taskNames = Object.keys(tasks);
  const crontab = taskNames.flatMap((name) => (schedules[name] ? [schedules[name]] : [])).join("\n");
  // connect() waits out a database that is away: graphile-worker does not await a job's
  // completion, and a rejection there ended the process (workers/waiting-pool.ts)
  const pgPool = new WaitingPool({
    connectionString: options.ownerUrl,
    max: options.concurrency + 3,
    application_name: "swarf-worker",
  });

  // health checks and metric scrapes ask on a connection of their own that gives up after a
  // second: they must answer "the database is away", not wait for it with the jobs
  const probes = survivingLostConnections(
    new pg.Pool({
      connectionString: options.ownerUrl,
      max: 1,
      connectionTimeoutMillis: 1000,
      application_name: "swarf-worker-probe",
    }),
  );
  const events: WorkerEvents = new EventEmitter();
  if (options.metrics) {
    taskMetrics(options.metrics, events);
    databaseMetrics(options.metrics, probes);
  }
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
      gracefulShutdownAbortTimeout: (options.shutdownGraceSeconds ?? 10) * 1000,
      pollInterval: options.pollIntervalMs ?? 2000,
      logger: new Logger(graphileLogFactory("worker")),
      events,
    });
  } catch (error) {
    await Promise.all([pgPool.end(), probes.end()]);
    throw error;
  }
  if (!poolId) throw new Error("graphile-worker did not report its pool id");
  // graphile-worker's promise settles when its job loop ends: rejected on a fatal error, but
  // resolved too after some of them; either way, before our stop() it is a failure
  let failed = false;
  let stopping = false;
  runner.promise.then(
    () => {
      if (!stopping) failed = true;
    },
    () => {
      failed = true;
    },
  );
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
    await Promise.all([pgPool.end(), probes.end()]);
    throw error;
  }

  return {
    poolId,
    taskNames,
    health: () => (failed || Date.now() - lease.renewedAt() > options.leaseStaleSeconds * 1000 ? "failing" : "ok"),
    async ping() {
      await probes.query("select 1");
    },
    async stop() {
      stopping = true;
      // stopping during an outage: what waits for the database gives up
      pgPool.stopWaiting();
      // the lease outlives the draining runner, or a long job could be handed out twice
      await runner.stop();
      await lease.stop();
      await Promise.all([pgPool.end(), probes.end()]);
    },
  };
}
