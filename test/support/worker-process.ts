/**
 * A worker process for the crash-recovery and chaos suites: `node --import tsx test/support/worker-process.ts`
 * with SWARF_TEST_WORKER_URL (owner connection), SWARF_TEST_HEARTBEAT_SECONDS and
 * SWARF_TEST_STALE_SECONDS. By default it runs only `test_sleep`, a tracked task that reports
 * progress and then, in its first attempt, sleeps for ten minutes (the test kills it meanwhile);
 * a later attempt returns at once. With SWARF_TEST_PLAN=1 it runs `plan_cam` as well, on one
 * geometry thread of the stand-in planner (test/support/plan-test-thread.ts).
 *
 * SWARF_TEST_TASKS (comma-separated) names the tasks instead, among test_sleep, test_nap (a
 * tracked task that reports progress for payload.ms, default 500, then returns), plan_cam and
 * deliver_webhook (the real one, with the environment's WEBHOOK_TIMEOUT_MS);
 * SWARF_TEST_CONCURRENCY sets graphile-worker's concurrency (default 1).
 *
 * Prints one JSON line `{"poolId": ..., "pid": ...}` on stdout when ready; SIGTERM stops it cleanly.
 */
import { setTimeout as sleep } from "node:timers/promises";
import type { Task } from "graphile-worker";
import { planCamTask } from "../../tasks/automated_cam_planning.ts";
import { deliverWebhookTask } from "../../tasks/deliver_webhook.ts";
import { trackedTask } from "../../tasks/runtime/tracked-task.ts";
import { createGeometryPool } from "../../geometry-pool/pool.ts";
import { startWorkerRunner } from "../../workers/runner.ts";

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
}

const testSleep = trackedTask(async (ctx) => {
  await ctx.progress(0.5);
  if (ctx.attempt === 1) await sleep(10 * 60_000, undefined, { signal: ctx.signal });
  await ctx.progress(0.9);
  return { attempt: ctx.attempt, pid: process.pid };
});

const testNap = trackedTask(async (ctx) => {
  const ms = typeof ctx.payload.ms === "number" ? ctx.payload.ms : 500;
  const steps = 4;
  for (let step = 1; step <= steps; step++) {
    await ctx.progress(step / (steps + 1));
    await sleep(ms / steps, undefined, { signal: ctx.signal });
  }
  return { attempt: ctx.attempt, pid: process.pid };
});

const taskNames = process.env.SWARF_TEST_TASKS
  ? process.env.SWARF_TEST_TASKS.split(",").map((name) => name.trim())
  : process.env.SWARF_TEST_PLAN === "1"
    ? ["test_sleep", "plan_cam"]
    : ["test_sleep"];

const geometry = taskNames.includes("plan_cam")
  ? createGeometryPool({ size: 1, threadModule: new URL("./plan-test-thread.ts", import.meta.url).href })
  : undefined;
await geometry?.ready();

const available: Record<string, () => Task> = {
  test_sleep: () => testSleep,
  test_nap: () => testNap,
  plan_cam: () => planCamTask(geometry!, { cancelPollMs: 200, progressIntervalMs: 500, cancelGraceMs: 1500 }),
  deliver_webhook: () => deliverWebhookTask(),
};
const extraTasks = Object.fromEntries(
  taskNames.map((name) => {
    const make = available[name];
    if (!make) throw new Error(`test/support/worker-process.ts runs no task ${name}`);
    return [name, make()];
  }),
);

const runner = await startWorkerRunner({
  ownerUrl: required("SWARF_TEST_WORKER_URL"),
  taskNames,
  extraTasks,
  concurrency: Number(process.env.SWARF_TEST_CONCURRENCY ?? 1),
  heartbeatSeconds: Number(required("SWARF_TEST_HEARTBEAT_SECONDS")),
  leaseStaleSeconds: Number(required("SWARF_TEST_STALE_SECONDS")),
  pollIntervalMs: 250,
});
process.stdout.write(`${JSON.stringify({ poolId: runner.poolId, pid: process.pid })}\n`);

process.once("SIGTERM", () => {
  void runner
    .stop()
    .then(() => geometry?.close())
    .then(
      () => process.exit(0),
      () => process.exit(1),
    );
});
