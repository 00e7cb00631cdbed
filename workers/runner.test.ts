import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { after, before, describe, it } from "node:test";
import { repoRoot } from "../config/env.ts";
import { saveWorkpiece } from "../db/queries/workpieces.ts";
import { meshToGlb } from "../kernel/mesh/glb.ts";
import { startTestApi, type TestApi } from "../test/support/api.ts";
import { asUser } from "../test/support/as-user.ts";
import { partC } from "../test/support/fixture-workpiece.ts";
import { createTestDatabase, type TestDatabase } from "../test/support/database.ts";
import { insertTaskRecord, readJob, readTaskRecord, waitFor } from "../test/support/task-records.ts";
import { createTestUser, type TestUser } from "../test/support/users.ts";
import { parseTaskNames } from "./args.ts";
import { selectTasks, startWorkerRunner, type WorkerRunner } from "./runner.ts";

const SERVICE_TASKS = [
  "deliver_webhook",
  "expire_idempotency_records",
  "prune_rate_limit_slots",
  "purge_project",
  "sweep_stuck_tasks",
];

let db: TestDatabase;
let api: TestApi;
let alice: TestUser;

before(async () => {
  db = await createTestDatabase();
  api = await startTestApi(db);
  alice = await createTestUser(db.owner, "runner");
});
after(async () => {
  await api?.close();
  await db?.drop();
});

async function withRunner<T>(taskNames: readonly string[], work: (runner: WorkerRunner) => Promise<T>): Promise<T> {
  const runner = await startWorkerRunner({
    ownerUrl: db.ownerUrl,
    taskNames,
    concurrency: 1,
    heartbeatSeconds: 1,
    leaseStaleSeconds: 30,
    pollIntervalMs: 100,
  });
  try {
    return await work(runner);
  } finally {
    await runner.stop();
  }
}

describe("parseTaskNames", () => {
  it("runs every task when --tasks is not given", () => {
    assert.equal(parseTaskNames([]), undefined);
    assert.equal(parseTaskNames(["--verbose"]), undefined);
  });

  it("reads --tasks a,b and --tasks=a,b", () => {
    assert.deepEqual(parseTaskNames(["--tasks", "plan_cam,tessellate"]), ["plan_cam", "tessellate"]);
    assert.deepEqual(parseTaskNames(["--tasks=deliver_webhook,purge_project"]), ["deliver_webhook", "purge_project"]);
    assert.deepEqual(parseTaskNames(["--tasks", " a , b ,"]), ["a", "b"]);
  });

  it("refuses --tasks without a list", () => {
    assert.throws(() => parseTaskNames(["--tasks"]), /--tasks needs a comma-separated list/);
    assert.throws(() => parseTaskNames(["--tasks="]), /--tasks needs a comma-separated list/);
  });
});

describe("selectTasks", () => {
  it("selects every service task by default and only the named ones otherwise", () => {
    assert.deepEqual(Object.keys(selectTasks(undefined)).sort(), SERVICE_TASKS);
    assert.deepEqual(Object.keys(selectTasks(["purge_project"])), ["purge_project"]);
    const extra = { test_extra: async () => {} };
    assert.deepEqual(Object.keys(selectTasks(["test_extra", "purge_project"], extra)), ["test_extra", "purge_project"]);
  });

  it("rejects unknown names and lists the known ones", () => {
    assert.throws(
      () => selectTasks(["purge_project", "plan_kam"]),
      (error: Error) => {
        assert.match(error.message, /unknown task plan_kam/);
        assert.match(
          error.message,
          new RegExp(`known: ${[...SERVICE_TASKS, "plan_cam", "tessellate"].sort().join(", ")}`),
        );
        return true;
      },
    );
  });

  it("offers the geometry tasks only to a process with geometry threads, and refuses to run them without", () => {
    assert.ok(!("tessellate" in selectTasks(undefined)), "not among all the tasks of a process without threads");
    assert.ok(!("plan_cam" in selectTasks(undefined)));
    assert.throws(() => selectTasks(["tessellate"]), /runs on geometry threads, and this process has none/);
    assert.throws(() => selectTasks(["plan_cam"]), /runs on geometry threads, and this process has none/);
  });
});

describe("a worker runner", () => {
  it("purges a deleted project with its quote job, jobs, workpieces and the blobs only it used, runs only its own tasks, and keeps the task records readable", async () => {
    const created = await api.request<{ id: string }>("POST", "/projects", {
      key: alice.key,
      body: { name: "Gone", customer: "ACME" },
    });
    assert.equal(created.status, 201);
    const projectId = created.body.id;
    // the project to purge and one that stays share the uploaded file and the thumbnail; their meshes differ
    const part = await partC();
    const gone = await asUser(api.pool, alice, (db) =>
      saveWorkpiece(db, projectId, part.ingested, part.original, part.glb, part.png),
    );
    assert.ok(gone);
    const stock = await api.request("POST", `/projects/${projectId}/stock/bounding-box`, {
      key: alice.key,
      body: { minus_x: 1, plus_x: 1, minus_y: 1, plus_y: 1, minus_z: 0, plus_z: 2 },
    });
    assert.equal(stock.status, 200);
    const kept = await api.request<{ id: string }>("POST", "/projects", {
      key: alice.key,
      body: { name: "Kept", customer: "ACME" },
    });
    const moved = { ...part.ingested.mesh, positions: Float32Array.from(part.ingested.mesh.positions, (v) => v + 1) };
    const stays = await asUser(api.pool, alice, (db) =>
      saveWorkpiece(db, kept.body.id, part.ingested, part.original, meshToGlb(moved), part.png),
    );
    assert.ok(stays);
    assert.equal(stays.workpiece.blobs.original, gone.workpiece.blobs.original);
    assert.notEqual(stays.workpiece.blobs.mesh, gone.workpiece.blobs.mesh);
    const taskId = await insertTaskRecord(db.owner, {
      userId: alice.id,
      projectId,
      workerTask: "test_not_run",
      taskName: "automation.automated_cam_planning",
    });
    // a job for another of the service's tasks, due earlier and more urgent than the purge
    await db.owner.query(
      "select graphile_worker.add_job('prune_rate_limit_slots', '{}'::json, run_at := now() - interval '1 minute', priority := -10, job_key := 'test-prune')",
    );

    assert.equal((await api.request("DELETE", `/projects/${projectId}`, { key: alice.key })).status, 204);
    const { rowCount: softDeleted } = await db.owner.query(
      "select 1 from app_public.projects where id = $1 and deleted_at is not null",
      [projectId],
    );
    assert.equal(softDeleted, 1, "the row stays until the worker purges it");

    await withRunner(["purge_project"], async (runner) => {
      assert.deepEqual(runner.taskNames, ["purge_project"]);
      await waitFor(
        "the purge job to complete",
        async () => (await readJob(db.owner, `purge_project:${projectId}`)) === null,
      );
      const prune = await readJob(db.owner, "test-prune");
      assert.equal(prune?.attempts, 0, "the runner did not touch another task's job");
      assert.equal(prune?.locked_by, null);
    });

    const project = await db.owner.query("select 1 from app_public.projects where id = $1", [projectId]);
    assert.equal(project.rowCount, 0, "the project row is gone");
    const quote = await db.owner.query("select 1 from app_public.quote_jobs where project_id = $1", [projectId]);
    assert.equal(quote.rowCount, 0, "its quote job is gone");
    for (const table of ["jobs", "workpieces"]) {
      const rows = await db.owner.query(`select 1 from app_public.${table} where project_id = $1`, [projectId]);
      assert.equal(rows.rowCount, 0, `its ${table} are gone`);
    }
    const blobs = await db.owner.query<{ id: string }>("select id from app_private.blobs where user_id = $1", [
      alice.id,
    ]);
    assert.deepEqual(
      new Set(blobs.rows.map((b) => b.id)),
      new Set([stays.workpiece.blobs.original, stays.workpiece.blobs.mesh, stays.workpiece.blobs.thumbnail]),
      "the mesh only it used is gone; the file and thumbnail the kept project shares stay",
    );
    const again = await db.owner.query("select * from app_private.purge_project($1)", [projectId]);
    assert.deepEqual(again.rows, [{ projects_deleted: 0, blobs_deleted: 0 }], "a repeat finds nothing to do");

    const task = await api.request<{ task_id: string; project_id: string; status: string }>("GET", `/tasks/${taskId}`, {
      key: alice.key,
    });
    assert.equal(task.status, 200);
    assert.equal(task.body.task_id, taskId);
    assert.equal(task.body.project_id, projectId);
    assert.equal(task.body.status, "queued");
  });

  it("sweep_stuck_tasks fails tasks whose job is gone or can never run, after a grace period", async () => {
    const make = async (label: string) =>
      insertTaskRecord(db.owner, { userId: alice.id, workerTask: "test_stuck", taskName: `test.${label}` });
    const lostQueued = await make("lost_queued");
    const lostRunning = await make("lost_running");
    const exhausted = await make("exhausted");
    const recentlyLost = await make("recently_lost");
    const waiting = await make("waiting");
    const finished = await make("finished");
    const lastAttemptRunning = await make("last_attempt_running");

    await db.owner.query("select graphile_worker.remove_job(k) from unnest($1::text[]) as k", [
      [lostQueued, lostRunning, recentlyLost, finished],
    ]);
    await db.owner.query("update app_public.tasks set status = 'running', attempts = 1 where id = $1", [lostRunning]);
    await db.owner.query(
      "update app_public.tasks set status = 'success', progress = 1, finished_at = now() where id = $1",
      [finished],
    );
    // its worker died in the last attempt: recovery unlocked the job, which has no attempts left
    await db.owner.query("update graphile_worker._private_jobs set attempts = max_attempts where key = $1", [
      exhausted,
    ]);
    await db.owner.query("update app_public.tasks set attempts = 3 where id = $1", [exhausted]);
    // a long last attempt that reported nothing for a while: its job is locked by a live worker
    await db.owner.query(
      "update graphile_worker._private_jobs set attempts = max_attempts, locked_by = 'pool-busy', locked_at = now() where key = $1",
      [lastAttemptRunning],
    );
    await db.owner.query(
      "update app_public.tasks set status = 'running', attempts = 3, locked_by = 'pool-busy' where id = $1",
      [lastAttemptRunning],
    );
    await db.owner.query("update app_public.tasks set updated_at = now() - interval '10 minutes' where id <> $1", [
      recentlyLost,
    ]);

    await withRunner(["sweep_stuck_tasks"], async () => {
      await db.owner.query("select graphile_worker.add_job('sweep_stuck_tasks', '{}'::json, job_key := 'test-sweep')");
      await waitFor("the sweep to complete", async () => (await readJob(db.owner, "test-sweep")) === null);
    });

    for (const id of [lostQueued, lostRunning, exhausted]) {
      const task = await readTaskRecord(db.owner, id);
      assert.equal(task.status, "failed", task.task_name);
      assert.equal(task.error?.code, "task_lost", task.task_name);
      assert.ok(task.finished_at, task.task_name);
      assert.equal(task.locked_by, null);
    }
    assert.equal((await readTaskRecord(db.owner, recentlyLost)).status, "queued", "within the grace period");
    assert.equal((await readTaskRecord(db.owner, waiting)).status, "queued", "its job still waits to run");
    assert.equal((await readTaskRecord(db.owner, lastAttemptRunning)).status, "running", "its last attempt still runs");
    const done = await readTaskRecord(db.owner, finished);
    assert.equal(done.status, "success");
    assert.equal(done.error, null);
  });
});

describe("npm run worker", () => {
  it("exits non-zero on an unknown task and names the known ones", async () => {
    const child = spawn("npm", ["run", "--silent", "worker", "--", "--tasks", "nope"], {
      cwd: repoRoot,
      env: { ...process.env, DATABASE_URL: db.ownerUrl },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => process.kill(-child.pid!, "SIGKILL"), 20_000);
    const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
      child.on("exit", (exitCode, exitSignal) => resolve([exitCode, exitSignal])),
    );
    clearTimeout(timer);
    assert.equal(signal, null, `it must exit on its own, not hang: ${output}`);
    assert.notEqual(code, 0);
    assert.match(output, /nope/);
    for (const name of SERVICE_TASKS) assert.ok(output.includes(name), `names ${name}: ${output}`);
    const { rowCount } = await db.owner.query("select 1 from app_private.worker_leases");
    assert.equal(rowCount, 0, "no worker started");
  });
});
