import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import {
  failAttempt,
  reportProgress,
  requeueAttempt,
  startAttempt,
  succeedAttempt,
} from "../../db/queries/task-state.ts";
import { createTestDatabase, type TestDatabase } from "../../test/support/database.ts";
import {
  gate,
  insertTaskRecord,
  readJob,
  readTaskRecord,
  waitFor,
  waitForTask,
  type Gate,
  type TaskRecord,
} from "../../test/support/task-records.ts";
import { createTestUser, type TestUser } from "../../test/support/users.ts";
import { startWorkerRunner, type WorkerRunner } from "../../workers/runner.ts";
import { TaskCancelled, TaskFailure, trackedTask } from "./tracked-task.ts";

/** What a test task does at its stops, per task id; every gate is opened at the end. */
interface Control {
  calls: number;
  progressed: Gate;
  hold: Gate;
  heldOnce: Gate<boolean>;
  release: Gate;
}
const controls = new Map<string, Control>();
function control(taskId: string): Control {
  let c = controls.get(taskId);
  if (!c) {
    c = { calls: 0, progressed: gate(), hold: gate(), heldOnce: gate<boolean>(), release: gate() };
    controls.set(taskId, c);
  }
  return c;
}

const extraTasks = {
  test_succeed: trackedTask(async (ctx) => {
    control(ctx.taskId).calls += 1;
    return { answer: 42, echo: ctx.payload };
  }),
  // 0.25, 0.6, stop; then a backwards report (0.4), stop; then done
  test_progress: trackedTask(async (ctx) => {
    const c = control(ctx.taskId);
    await ctx.progress(0.25);
    await ctx.progress(0.6);
    c.progressed.open();
    await c.hold.promise;
    c.heldOnce.open(await ctx.progress(0.4));
    await c.release.promise;
    return "done";
  }),
  test_refuse: trackedTask(async (ctx) => {
    control(ctx.taskId).calls += 1;
    throw new TaskFailure("no_tool_fits", "no tool of the library reaches the pocket floor at 42 mm");
  }),
  test_flaky: trackedTask(async (ctx) => {
    control(ctx.taskId).calls += 1;
    throw new Error(`connection reset in attempt ${ctx.attempt}`);
  }),
  // waits until its cancel is requested, then honours it
  test_cancellable: trackedTask(async (ctx) => {
    control(ctx.taskId).progressed.open();
    while (!(await ctx.cancelRequested())) await new Promise((resolve) => setTimeout(resolve, 20));
    throw new TaskCancelled();
  }),
  // waits until its cancel is requested, then fails on a fault (which is not retried then)
  test_cancel_fault: trackedTask(async (ctx) => {
    control(ctx.taskId).progressed.open();
    while (!(await ctx.cancelRequested())) await new Promise((resolve) => setTimeout(resolve, 20));
    throw new Error("connection reset while stopping");
  }),
  // reports 0.3, stops; then reports 0.9 (its answer recorded) and returns
  test_superseded: trackedTask(async (ctx) => {
    const c = control(ctx.taskId);
    await ctx.progress(0.3);
    c.progressed.open();
    await c.hold.promise;
    c.heldOnce.open(await ctx.progress(0.9));
    return { from: ctx.attempt };
  }),
};

let db: TestDatabase;
let user: TestUser;
let runner: WorkerRunner;

before(async () => {
  db = await createTestDatabase();
  user = await createTestUser(db.owner, "tracked");
  runner = await startWorkerRunner({
    ownerUrl: db.ownerUrl,
    taskNames: Object.keys(extraTasks),
    extraTasks,
    concurrency: 2,
    heartbeatSeconds: 1,
    leaseStaleSeconds: 30,
    pollIntervalMs: 100,
  });
});
after(async () => {
  for (const c of controls.values()) {
    c.hold.open();
    c.release.open();
  }
  await runner?.stop();
  await db?.drop();
});

describe("a tracked task", () => {
  it("records success with its result, progress 1, one attempt and both timestamps", async () => {
    const id = await insertTaskRecord(db.owner, {
      userId: user.id,
      workerTask: "test_succeed",
      payload: { part: "bracket" },
    });
    const task = await waitForTask(db.owner, id, "success", (t) => t.status === "success");
    assert.equal(task.progress, 1);
    assert.deepEqual(task.result, { answer: 42, echo: { part: "bracket" } });
    assert.equal(task.error, null);
    assert.equal(task.attempts, 1);
    assert.equal(task.locked_by, null);
    assert.ok(task.started_at && task.finished_at, "started_at and finished_at are set");
    assert.ok(task.started_at <= task.finished_at);
    assert.equal(control(id).calls, 1);
    await waitFor("the completed job to be removed", async () => (await readJob(db.owner, id)) === null);
  });

  it("shows its progress while it runs, and the progress never goes backwards", async () => {
    const id = await insertTaskRecord(db.owner, { userId: user.id, workerTask: "test_progress" });
    const c = control(id);
    const samples: Array<Pick<TaskRecord, "status" | "progress">> = [];
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const { status, progress } = await readTaskRecord(db.owner, id);
        samples.push({ status, progress });
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();
    try {
      await c.progressed.promise;
      const running = await readTaskRecord(db.owner, id);
      assert.equal(running.status, "running");
      assert.equal(running.progress, 0.6);
      assert.equal(running.attempts, 1);
      assert.ok(running.started_at, "started_at is set when the attempt starts");
      assert.equal(running.finished_at, null);
      await waitFor("the sampler to see the task running", async () =>
        samples.some((s) => s.status === "running" && s.progress === 0.6),
      );

      c.hold.open();
      assert.equal(await c.heldOnce.promise, true, "the report of the current attempt is accepted");
      const lowered = await readTaskRecord(db.owner, id);
      assert.equal(lowered.status, "running");
      assert.equal(lowered.progress, 0.6, "a lower report does not move the progress back");

      c.release.open();
      const done = await waitForTask(db.owner, id, "success", (t) => t.status === "success");
      assert.equal(done.progress, 1);
      assert.equal(done.result, "done");
    } finally {
      sampling = false;
      await sampler;
    }
    for (let i = 1; i < samples.length; i++) {
      assert.ok(
        samples[i]!.progress >= samples[i - 1]!.progress,
        `progress went backwards: ${JSON.stringify(samples)}`,
      );
    }
  });

  it("fails at once with the TaskFailure's code and message, without a retry", async () => {
    const id = await insertTaskRecord(db.owner, { userId: user.id, workerTask: "test_refuse", maxAttempts: 3 });
    const task = await waitForTask(db.owner, id, "failed", (t) => t.status === "failed");
    assert.deepEqual(task.error, {
      code: "no_tool_fits",
      message: "no tool of the library reaches the pocket floor at 42 mm",
    });
    assert.equal(task.attempts, 1);
    assert.ok(task.finished_at);
    assert.equal(task.locked_by, null);
    // completed, not failed for a retry (which would keep it for at least e^1 s)
    await waitFor("the job to be removed", async () => (await readJob(db.owner, id)) === null, { timeoutMs: 1500 });
    assert.equal(control(id).calls, 1);
  });

  it("goes back to queued as retrying after a fault, and fails as internal_error after its last attempt", async () => {
    const id = await insertTaskRecord(db.owner, { userId: user.id, workerTask: "test_flaky", maxAttempts: 2 });
    const requeued = await waitForTask(
      db.owner,
      id,
      "queued for a retry",
      (t) => t.status === "queued" && t.attempts === 1,
    );
    assert.deepEqual(requeued.error, { code: "retrying", message: "connection reset in attempt 1" });
    assert.equal(requeued.locked_by, null);
    assert.equal(requeued.finished_at, null);

    // graphile-worker unlocks the job with its backoff (e^1 s); then we bring the retry forward
    const job = await waitFor("the job to be unlocked for its retry", async () => {
      const row = await readJob(db.owner, id);
      return row && row.locked_by === null ? row : null;
    });
    assert.equal(job.attempts, 1);
    assert.match(job.last_error ?? "", /connection reset in attempt 1/);
    assert.ok(job.run_at.getTime() > Date.now(), "the retry waits for its backoff");
    assert.equal(control(id).calls, 1, "no second attempt before the backoff");
    await db.owner.query("update graphile_worker._private_jobs set run_at = now() where key = $1", [id]);

    const failed = await waitForTask(db.owner, id, "failed", (t) => t.status === "failed");
    assert.equal(failed.attempts, 2);
    assert.equal(failed.error?.code, "internal_error");
    assert.match(failed.error?.message ?? "", /after 2 attempts/);
    assert.match(failed.error?.message ?? "", /connection reset in attempt 2/);
    assert.ok(failed.finished_at);
    await waitFor("the job to be removed", async () => (await readJob(db.owner, id)) === null);
    assert.equal(control(id).calls, 2);
  });

  it("discards every write of a superseded attempt", async () => {
    const id = await insertTaskRecord(db.owner, { userId: user.id, workerTask: "test_superseded" });
    const c = control(id);
    await c.progressed.promise;
    const first = await readTaskRecord(db.owner, id);
    assert.equal(first.status, "running");
    assert.equal(first.attempts, 1);
    assert.equal(first.progress, 0.3);

    // another worker takes the task over (as after a lease recovery): attempt 2
    const second = await startAttempt(db.owner, id, "pool-of-attempt-2");
    assert.equal(second?.attempt, 2);
    const before = await readTaskRecord(db.owner, id);
    assert.equal(await reportProgress(db.owner, id, 1, 0.95), false);
    assert.equal(await succeedAttempt(db.owner, id, 1, { stale: true }), false);
    assert.equal(await failAttempt(db.owner, id, 1, { code: "internal_error", message: "stale" }), false);
    assert.equal(await requeueAttempt(db.owner, id, 1, { code: "retrying", message: "stale" }), false);
    assert.deepEqual(await readTaskRecord(db.owner, id), before, "the record is untouched by attempt 1");

    // the old attempt runs to its end in the worker: its progress and success are refused
    c.hold.open();
    assert.equal(await c.heldOnce.promise, false, "the superseded attempt learns it was superseded");
    await waitFor("attempt 1's job to complete", async () => (await readJob(db.owner, id)) === null);
    const afterOld = await readTaskRecord(db.owner, id);
    assert.equal(afterOld.status, "running");
    assert.equal(afterOld.attempts, 2);
    assert.equal(afterOld.progress, 0.3);
    assert.equal(afterOld.result, null);
    assert.equal(afterOld.locked_by, "pool-of-attempt-2");

    // while the current attempt still writes
    assert.equal(await reportProgress(db.owner, id, 2, 0.7), true);
    assert.equal(await succeedAttempt(db.owner, id, 2, { from: 2 }), true);
    const done = await readTaskRecord(db.owner, id);
    assert.equal(done.status, "success");
    assert.deepEqual(done.result, { from: 2 });
  });

  it("ends cancelled, not retried, when the run honours a cancel request, or fails on a fault after one", async () => {
    for (const workerTask of ["test_cancellable", "test_cancel_fault"]) {
      const id = await insertTaskRecord(db.owner, { userId: user.id, workerTask, maxAttempts: 3 });
      await control(id).progressed.promise;
      await db.owner.query("update app_public.tasks set cancel_requested_at = now() where id = $1", [id]);
      const task = await waitForTask(db.owner, id, "cancelled", (t) => t.status !== "running" && t.status !== "queued");
      assert.equal(task.status, "cancelled", workerTask);
      assert.equal(task.attempts, 1);
      assert.equal(task.error, null);
      assert.equal(task.result, null);
      assert.ok(task.finished_at);
      await waitFor("the job to be removed", async () => (await readJob(db.owner, id)) === null);
    }
  });
});
