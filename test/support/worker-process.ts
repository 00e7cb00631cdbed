/**
 * A worker process for the crash-recovery suite: `node --import tsx test/support/worker-process.ts`
 * with SWARF_TEST_WORKER_URL (owner connection), SWARF_TEST_HEARTBEAT_SECONDS and
 * SWARF_TEST_STALE_SECONDS. It runs only `test_sleep`, a tracked task that reports progress
 * and then, in its first attempt, sleeps for ten minutes (the test kills it meanwhile); a
 * later attempt returns at once. With SWARF_TEST_PLAN=1 it runs `plan_cam` as well, on one
 * geometry thread of the stand-in planner (test/support/plan-test-thread.ts). Prints one JSON
 * line `{"poolId": ...}` on stdout when ready; SIGTERM stops it cleanly.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { planCamTask } from "../../tasks/automated_cam_planning.ts";
import { trackedTask } from "../../tasks/runtime/tracked-task.ts";
import { createGeometryPool } from "../../workers/geometry/pool.ts";
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

const geometry = process.env.SWARF_TEST_PLAN === "1"
  ? createGeometryPool({ size: 1, threadModule: new URL("./plan-test-thread.ts", import.meta.url).href })
  : undefined;
await geometry?.ready();

const runner = await startWorkerRunner({
  ownerUrl: required("SWARF_TEST_WORKER_URL"),
  taskNames: geometry ? ["test_sleep", "plan_cam"] : ["test_sleep"],
  extraTasks: {
    test_sleep: testSleep,
    ...(geometry ? { plan_cam: planCamTask(geometry, { cancelPollMs: 200, progressIntervalMs: 500, cancelGraceMs: 1500 }) } : {}),
  },
  concurrency: 1,
  heartbeatSeconds: Number(required("SWARF_TEST_HEARTBEAT_SECONDS")),
  leaseStaleSeconds: Number(required("SWARF_TEST_STALE_SECONDS")),
  pollIntervalMs: 250,
});
process.stdout.write(`${JSON.stringify({ poolId: runner.poolId, pid: process.pid })}\n`);

process.once("SIGTERM", () => {
  void runner.stop().then(() => geometry?.close()).then(
    () => process.exit(0),
    () => process.exit(1),
  );
});
