/**
 * Messages between the benchmark and its child processes (Node IPC channel), and the
 * environment variables the children read.
 */

export type ChildMessage =
  /** the child is listening (servers report their port) or running (worker) */
  | { type: "ready"; port?: number }
  /** the worker ran a plain graphile-worker job: enqueue to handler start, database clock */
  | { type: "plain-job"; seq: number; latencyMs: number }
  /** the ingest server's resident size before its geometry pool starts and once it is ready */
  | { type: "memory"; phase: "before-pool" | "pool-ready"; rssBytes: number }
  /** bench:load's server, every second: its event loop's delay and use, and its API pool's queue */
  | {
      type: "server-stats";
      delayP99Ms: number;
      delayMaxMs: number;
      utilization: number;
      poolWaitingMean: number;
      poolWaitingMax: number;
    };

export const CHILD_ENV = {
  /** the API role's connection string (server-app) */
  appUrl: "BENCH_APP_DATABASE_URL",
  /** the owner connection string (worker) */
  ownerUrl: "BENCH_OWNER_DATABASE_URL",
  /** the JSON body the bare route answers with (server-bare) */
  bareBody: "BENCH_BARE_BODY",
  /** the pg application_name of the API pool, so the sampler can find its backends */
  applicationName: "BENCH_APPLICATION_NAME",
} as const;

export function requiredEnv(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: this script is started by scripts/bench/index.ts`);
  return value;
}

export function isChildMessage(value: unknown): value is ChildMessage {
  return typeof value === "object" && value !== null && "type" in value && typeof value.type === "string";
}
