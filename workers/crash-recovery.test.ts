import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { after, before, describe, it } from "node:test";
import { repoRoot } from "../config/env.ts";
import { recoverDeadWorkers } from "../db/queries/worker-leases.ts";
import { trackedTask } from "../tasks/runtime/tracked-task.ts";
import { startTestApi } from "../test/support/api.ts";
import { createTestDatabase, type TestDatabase } from "../test/support/database.ts";
import { PLAN_OPTIONS, planningProject } from "../test/support/planning.ts";
import { gate, insertTaskRecord, readJob, readTaskRecord, waitFor, waitForTask } from "../test/support/task-records.ts";
import { createTestUser, type TestUser } from "../test/support/users.ts";
import { startWorkerRunner, type WorkerRunner } from "./runner.ts";

const HEARTBEAT_SECONDS = 1;
const STALE_SECONDS = 5;

interface WorkerProcess {
  child: ChildProcess;
  pid: number;
  poolId: string;
  stderr(): string;
}

const children: ChildProcess[] = [];

/** Starts test/support/worker-process.ts and waits for its ready line. plan: it runs plan_cam too. */
async function spawnWorker(db: TestDatabase, options: { plan?: boolean } = {}): Promise<WorkerProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", "test/support/worker-process.ts"], {
    cwd: repoRoot,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...process.env,
      SWARF_TEST_WORKER_URL: db.ownerUrl,
      SWARF_TEST_HEARTBEAT_SECONDS: String(HEARTBEAT_SECONDS),
      SWARF_TEST_STALE_SECONDS: String(STALE_SECONDS),
      ...(options.plan ? { SWARF_TEST_PLAN: "1" } : {}),
    },
  });
  children.push(child);
  let stdout = "";
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const ready = new Promise<{ poolId: string; pid: number }>((resolve, reject) => {
    child.stdout!.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      const line = stdout.split("\n").find((l) => l.startsWith("{"));
      if (line && stdout.includes("\n")) resolve(JSON.parse(line) as { poolId: string; pid: number });
    });
    child.once("exit", (code, signal) =>
      reject(new Error(`worker exited (${code ?? signal}) before it was ready: ${stderr}`)),
    );
    setTimeout(() => reject(new Error(`worker not ready after 20 s: ${stderr}`)), 20_000).unref();
  });
  const { poolId, pid } = await ready;
  return { child, pid, poolId, stderr: () => stderr };
}

async function leaseOf(db: TestDatabase, poolId: string): Promise<{ pid: number; heartbeat_at: Date } | null> {
  const { rows } = await db.owner.query<{ pid: number; heartbeat_at: Date }>(
    "select pid, heartbeat_at from app_private.worker_leases where pool_id = $1",
    [poolId],
  );
  return rows[0] ?? null;
}

/** Makes a task look as if pool `poolId` started its first attempt `ago` and still holds it. */
async function holdAsFirstAttempt(taskId: string, poolId: string, ago: string): Promise<void> {
  await db.owner.query(
    `update graphile_worker._private_jobs set locked_by = $2, locked_at = now() - $3::interval, attempts = 1 where key = $1`,
    [taskId, poolId, ago],
  );
  await db.owner.query(
    "update app_public.tasks set status = 'running', attempts = 1, locked_by = $2, started_at = now() where id = $1",
    [taskId, poolId],
  );
}

let db: TestDatabase;
let user: TestUser;

before(async () => {
  db = await createTestDatabase();
  user = await createTestUser(db.owner, "crash");
});
after(async () => {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGKILL");
      await once(child, "exit");
    }
  }
  await db?.drop();
});

describe("crash recovery", () => {
  it("runs the task of a SIGKILLed worker again on another worker within 60 s, as a new attempt", async (t) => {
    const first = await spawnWorker(db);
    const id = await insertTaskRecord(db.owner, { userId: user.id, workerTask: "test_sleep", maxAttempts: 3 });
    const running = await waitForTask(
      db.owner,
      id,
      "running its first attempt",
      (task) => task.status === "running" && task.attempts === 1 && task.progress === 0.5,
      { timeoutMs: 15_000 },
    );
    assert.equal(running.locked_by, first.poolId);

    // the operator's view joins the task to its job and to the lease of the worker holding it
    const { rows: view } = await db.owner.query<Record<string, unknown>>(
      `select status, task_attempts, job_attempts, job_locked_by, worker_pid, worker_hostname, user_email
         from app_private.task_queue_state where task_id = $1`,
      [id],
    );
    assert.equal(view.length, 1);
    assert.deepEqual(
      { ...view[0], worker_hostname: typeof view[0]!.worker_hostname },
      {
        status: "running",
        task_attempts: 1,
        job_attempts: 1,
        job_locked_by: first.poolId,
        worker_pid: first.pid,
        worker_hostname: "string",
        user_email: user.email,
      },
    );
    assert.ok(await leaseOf(db, first.poolId), "the first worker holds a lease");

    first.child.kill("SIGKILL");
    await once(first.child, "exit");
    const killedAt = Date.now();
    const lockedJob = await readJob(db.owner, id);
    assert.equal(lockedJob?.locked_by, first.poolId, "the dead worker's job stays locked by it");

    const second = await spawnWorker(db);
    assert.notEqual(second.poolId, first.poolId);
    const done = await waitForTask(db.owner, id, "success on the second worker", (task) => task.status === "success", {
      timeoutMs: 60_000 - (Date.now() - killedAt),
      intervalMs: 100,
    });
    const recoverySeconds = (Date.now() - killedAt) / 1000;
    t.diagnostic(
      `recovered and finished ${recoverySeconds.toFixed(1)} s after the SIGKILL (stale interval ${STALE_SECONDS} s)`,
    );
    assert.ok(recoverySeconds < 60);

    assert.equal(done.attempts, 2);
    assert.deepEqual(done.result, { attempt: 2, pid: second.pid });
    assert.equal(done.progress, 1);
    assert.equal(done.error, null);
    assert.deepEqual(done.started_at, running.started_at, "started_at is the first attempt's");
    // the task's row says success inside the handler; the worker then completes its job
    await waitFor("the job to complete", async () => (await readJob(db.owner, id)) === null, { timeoutMs: 5_000 });
    assert.equal(await leaseOf(db, first.poolId), null, "the dead worker's lease is gone");
    assert.equal((await leaseOf(db, second.poolId))?.pid, second.pid, "the live worker keeps its lease");

    second.child.kill("SIGTERM");
    const [code] = (await once(second.child, "exit")) as [number | null];
    assert.equal(code, 0, second.stderr());
    assert.equal(await leaseOf(db, second.poolId), null, "a worker that stops drops its lease");
  });

  it("plans again on another worker when the worker planning a project is SIGKILLed, and saves the plan once", async () => {
    const api = await startTestApi(db, { env: { RATE_LIMIT_PER_MINUTE: "100000" } });
    try {
      const first = await spawnWorker(db, { plan: true });
      const projectId = await planningProject(api, user, { library: ["fake:until-cancelled"] });
      const started = await api.request<{ task_id: string }>("POST", `/projects/${projectId}/automation/cam-planning`, {
        key: user.key,
        body: PLAN_OPTIONS,
      });
      assert.equal(started.status, 202, started.text);
      const id = started.body.task_id;
      const running = await waitForTask(
        db.owner,
        id,
        "planning on the first worker",
        (task) => task.status === "running" && task.progress > 0.3,
        {
          timeoutMs: 30_000,
        },
      );
      assert.equal(running.locked_by, first.poolId);
      first.child.kill("SIGKILL");
      await once(first.child, "exit");
      // the next attempt's planner finishes (the stand-in reads its script from the library)
      await db.owner.query(
        `update app_public.library_assemblies set body = jsonb_set(body, '{name}', '"fake:success"'), name = 'fake:success'
          where library_id = (select library_id from app_public.projects where id = $1)`,
        [projectId],
      );
      const second = await spawnWorker(db, { plan: true });
      const done = await waitForTask(
        db.owner,
        id,
        "success on the second worker",
        (task) => task.status !== "running" && task.status !== "queued",
        {
          timeoutMs: 60_000,
          intervalMs: 100,
        },
      );
      assert.equal(done.status, "success", JSON.stringify(done.error));
      assert.equal(done.attempts, 2);
      const jobs = await db.owner.query(
        "select count(*)::int as n from app_public.jobs where project_id = $1 and source = 'plan'",
        [projectId],
      );
      assert.equal(jobs.rows[0].n, 1);
      second.child.kill("SIGTERM");
      await once(second.child, "exit");
    } finally {
      await api.close();
    }
  });

  it("leaves the jobs of a worker with a fresh lease alone, however long they run", async () => {
    const release = gate();
    const started = gate();
    let runner: WorkerRunner | undefined;
    try {
      runner = await startWorkerRunner({
        ownerUrl: db.ownerUrl,
        taskNames: ["test_hold"],
        extraTasks: {
          test_hold: trackedTask(async () => {
            started.open();
            await release.promise;
            return "held";
          }),
        },
        concurrency: 1,
        heartbeatSeconds: 1,
        leaseStaleSeconds: 3,
        pollIntervalMs: 100,
      });
      const liveId = await insertTaskRecord(db.owner, { userId: user.id, workerTask: "test_hold" });
      await started.promise;
      // a job that has run for an hour, on a worker that renews its lease
      await db.owner.query(
        "update graphile_worker._private_jobs set locked_at = now() - interval '1 hour' where key = $1",
        [liveId],
      );

      // beside it, a job of a pool that died an hour ago
      const deadId = await insertTaskRecord(db.owner, { userId: user.id, workerTask: "test_orphan" });
      await holdAsFirstAttempt(deadId, "pool-dead", "1 hour");
      await db.owner.query(
        `insert into app_private.worker_leases (pool_id, hostname, pid, task_names, heartbeat_at)
         values ('pool-dead', 'gone', 1, '{test_orphan}', now() - interval '1 hour')`,
      );

      const recovered = await recoverDeadWorkers(db.owner, 3);
      assert.ok(!recovered.some((r) => r.pool_id === runner!.poolId), "the live pool is not recovered");
      // the runner's own lease round may have been first: look at the state, not the return value
      const requeued = await waitForTask(db.owner, deadId, "requeued", (task) => task.status === "queued", {
        timeoutMs: 5000,
      });
      assert.equal(requeued.locked_by, null);
      assert.equal((await readJob(db.owner, deadId))?.locked_by, null, "the dead pool's job is free again");
      assert.equal(await leaseOf(db, "pool-dead"), null, "the stale lease is deleted");

      // two more of the live runner's own lease rounds
      const seen = (await leaseOf(db, runner.poolId))!.heartbeat_at.getTime();
      await waitFor(
        "two more lease rounds",
        async () => ((await leaseOf(db, runner!.poolId))?.heartbeat_at.getTime() ?? 0) >= seen + 1900,
        {
          timeoutMs: 5000,
          intervalMs: 100,
        },
      );
      assert.deepEqual(await recoverDeadWorkers(db.owner, 3), []);
      const live = await readTaskRecord(db.owner, liveId);
      assert.equal(live.status, "running");
      assert.equal(live.attempts, 1);
      assert.equal(live.locked_by, runner.poolId);
      assert.equal((await readJob(db.owner, liveId))?.locked_by, runner.poolId, "the live job stays locked");

      release.open();
      const done = await waitForTask(db.owner, liveId, "success", (task) => task.status === "success");
      assert.equal(done.attempts, 1, "it ran once");
    } finally {
      release.open();
      await runner?.stop();
    }
  });

  it("cancels, rather than runs again or fails, a task whose cancel was requested before its worker died", async () => {
    for (const maxAttempts of [1, 3]) {
      const id = await insertTaskRecord(db.owner, { userId: user.id, workerTask: "test_orphan", maxAttempts });
      await holdAsFirstAttempt(id, `pool-cancelled-${maxAttempts}`, "1 minute");
      await db.owner.query("update app_public.tasks set cancel_requested_at = now() where id = $1", [id]);
      await recoverDeadWorkers(db.owner, 5);
      const task = await readTaskRecord(db.owner, id);
      assert.equal(task.status, "cancelled", `max_attempts ${maxAttempts}`);
      assert.equal(task.error, null);
      assert.ok(task.finished_at);
    }
  });

  it("fails a task at once with worker_lost when its worker dies in the last attempt", async () => {
    const id = await insertTaskRecord(db.owner, { userId: user.id, workerTask: "test_orphan", maxAttempts: 1 });
    await holdAsFirstAttempt(id, "pool-gone", "1 minute");

    const recovered = await recoverDeadWorkers(db.owner, 5);
    assert.deepEqual(recovered, [{ pool_id: "pool-gone", tasks_requeued: 0 }]);
    const task = await readTaskRecord(db.owner, id);
    assert.equal(task.status, "failed");
    assert.equal(task.error?.code, "worker_lost");
    assert.equal(task.locked_by, null);
    assert.ok(task.finished_at, "the failure is final");
    assert.equal((await readJob(db.owner, id))?.locked_by, null, "the job is unlocked, with no attempt left");
  });
});
