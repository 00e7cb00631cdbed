/**
 * What a worker does on SIGTERM (stopOnSignal calls runner.stop()): it takes no new job, lets
 * running jobs finish within the grace, then tells the rest to stop; a task that stops goes
 * back to the queue and another worker finishes it.
 */
import assert from "node:assert/strict";
import { setTimeout as sleep } from "node:timers/promises";
import { after, before, describe, it } from "node:test";
import { trackedTask } from "../tasks/runtime/tracked-task.ts";
import { createTestDatabase, type TestDatabase } from "../test/support/database.ts";
import { gate, insertTaskRecord, readJob, waitFor, waitForTask } from "../test/support/task-records.ts";
import { createTestUser, type TestUser } from "../test/support/users.ts";
import { startWorkerRunner, type WorkerRunner } from "./runner.ts";

let db: TestDatabase;
let user: TestUser;

before(async () => {
  db = await createTestDatabase();
  user = await createTestUser(db.owner, "shutdown");
});
after(async () => {
  await db?.drop();
});

/** A long task that honours the stop signal in its first attempt and returns at once later. */
const longTask = trackedTask(async (ctx) => {
  await ctx.progress(0.3);
  if (ctx.attempt === 1) await sleep(10 * 60_000, undefined, { signal: ctx.signal });
  return { attempt: ctx.attempt };
});

function startRunner(
  extraTasks: Parameters<typeof startWorkerRunner>[0]["extraTasks"],
  graceSeconds: number,
): Promise<WorkerRunner> {
  return startWorkerRunner({
    ownerUrl: db.ownerUrl,
    taskNames: Object.keys(extraTasks ?? {}),
    extraTasks,
    concurrency: 1,
    heartbeatSeconds: 1,
    leaseStaleSeconds: 30,
    pollIntervalMs: 100,
    shutdownGraceSeconds: graceSeconds,
  });
}

describe("a worker stopping", () => {
  it("tells a long task to stop after the grace; the task goes back to the queue and another worker finishes it", async (t) => {
    const first = await startRunner({ test_long: longTask }, 1);
    const id = await insertTaskRecord(db.owner, { userId: user.id, workerTask: "test_long", maxAttempts: 3 });
    await waitForTask(db.owner, id, "running", (task) => task.status === "running" && task.progress === 0.3, {
      timeoutMs: 10_000,
    });

    const stopping = Date.now();
    await first.stop();
    const stoppedIn = (Date.now() - stopping) / 1000;
    assert.ok(stoppedIn >= 0.9 && stoppedIn < 10, `stopped in ${stoppedIn} s with a grace of 1 s`);
    const requeued = await waitForTask(db.owner, id, "queued again", (task) => task.status === "queued");
    assert.equal(requeued.attempts, 1);
    assert.equal(requeued.locked_by, null);
    const job = await readJob(db.owner, id);
    assert.equal(job?.locked_by, null, "the job is not held by the stopped worker");
    const { rowCount } = await db.owner.query("select 1 from app_private.worker_leases where pool_id = $1", [
      first.poolId,
    ]);
    assert.equal(rowCount, 0, "its lease is gone");

    const second = await startRunner({ test_long: longTask }, 1);
    try {
      // graphile-worker's retry backoff after a first failed attempt is about e^1 s
      const done = await waitForTask(
        db.owner,
        id,
        "success on the second worker",
        (task) => task.status === "success",
        { timeoutMs: 20_000 },
      );
      assert.deepEqual(done.result, { attempt: 2 });
      t.diagnostic(
        `stopped ${stoppedIn.toFixed(2)} s after stop() (grace 1 s); finished on the second worker ${((Date.now() - stopping) / 1000 - stoppedIn).toFixed(2)} s later`,
      );
    } finally {
      await second.stop();
    }
  });

  it("lets a task that finishes within the grace finish, and takes no new job meanwhile", async () => {
    const release = gate();
    const shortTask = trackedTask(async () => {
      await release.promise;
      return { finished: true };
    });
    const runner = await startRunner({ test_short: shortTask }, 30);
    const running = await insertTaskRecord(db.owner, { userId: user.id, workerTask: "test_short" });
    await waitForTask(db.owner, running, "running", (task) => task.status === "running", { timeoutMs: 10_000 });

    const stopped = runner.stop();
    const waiting = await insertTaskRecord(db.owner, { userId: user.id, workerTask: "test_short" });
    await sleep(500);
    release.open();
    await stopped;
    assert.equal((await waitForTask(db.owner, running, "success", (task) => task.status === "success")).attempts, 1);
    const untouched = await waitFor(
      "the second task's record",
      async () =>
        (
          await db.owner.query<{ status: string; attempts: number }>(
            "select status, attempts from app_public.tasks where id = $1",
            [waiting],
          )
        ).rows[0],
    );
    assert.deepEqual(untouched, { status: "queued", attempts: 0 }, "a stopping worker takes no new job");
  });
});
