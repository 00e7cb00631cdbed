/**
 * The plan_cam task end to end, around a stand-in planner (test/support/plan-test-thread.ts on
 * real geometry-pool threads, scripted by the library's assembly names): what it hands the
 * planner, the job it saves and the result it returns, the job file that carries the plan,
 * progress, cooperative and forced cancellation, the failures and their codes, and the
 * order a user's plans run in. The real planner's thread is in plan-cam-occt.test.ts.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { SCOPES } from "../auth/scopes.ts";
import { decodeFamc } from "../kernel/job/famc.ts";
import { PLAN_CONTENT_TYPE } from "../kernel/job/plan.ts";
import { startTestApi, type TestApi } from "../test/support/api.ts";
import { createTestDatabase, type TestDatabase } from "../test/support/database.ts";
import { fileUpload } from "../test/support/multipart.ts";
import {
  PLAN_OPTIONS,
  planningProject,
  PLANNING_MATERIAL,
  STOCK_OFFSETS,
  type PlanningStarted,
} from "../test/support/planning.ts";
import { insertTaskRecord, readTaskRecord, waitForTask, type TaskRecord } from "../test/support/task-records.ts";
import { createTestUser, type TestUser } from "../test/support/users.ts";
import { createGeometryPool, type GeometryPool } from "../geometry-pool/pool.ts";
import { startWorkerRunner, type WorkerRunner } from "../workers/runner.ts";
import { PLAN_CAM_TASK_NAME } from "../contracts/tasks.ts";
import { defaultWorkholding } from "../kernel/workholding/defaults.ts";
import { planCamTask, type PlanCamResult } from "./automated_cam_planning.ts";

const threadModule = new URL("../test/support/plan-test-thread.ts", import.meta.url).href;
const SETTINGS = { cancelPollMs: 200, progressIntervalMs: 500, cancelGraceMs: 1500 };
const WAIT = { timeoutMs: 30_000, intervalMs: 50 };
const TERMINAL = new Set(["success", "failed", "cancelled"]);

let db: TestDatabase;
let api: TestApi;
let pool: GeometryPool;
let runner: WorkerRunner;
let alice: TestUser;
let bob: TestUser;

before(async () => {
  db = await createTestDatabase();
  api = await startTestApi(db, { env: { RATE_LIMIT_PER_MINUTE: "100000", CAM_PLANNING_RATE_LIMIT_PER_HOUR: "1000" } });
  // three threads: two plans at once (one thread stays free for uploads)
  pool = createGeometryPool({ size: 3, threadModule, timeoutMs: 10_000, planTimeoutMs: 60_000 });
  await pool.ready();
  runner = await startWorkerRunner({
    ownerUrl: db.ownerUrl,
    taskNames: ["plan_cam"],
    extraTasks: { plan_cam: planCamTask(pool, SETTINGS) },
    concurrency: 2,
    heartbeatSeconds: 1,
    leaseStaleSeconds: 30,
    pollIntervalMs: 100,
  });
  alice = await createTestUser(db.owner, "alice");
  bob = await createTestUser(db.owner, "bob");
});
after(async () => {
  await runner?.stop();
  await pool?.close();
  await api?.close();
  await db?.drop();
});

async function startPlan(user: TestUser, projectId: string, body: unknown = PLAN_OPTIONS): Promise<string> {
  const res = await api.request<PlanningStarted>("POST", `/projects/${projectId}/automation/cam-planning`, {
    key: user.key,
    body,
  });
  assert.equal(res.status, 202, res.text);
  return res.body.task_id;
}

const finished = (id: string, timeoutMs = WAIT.timeoutMs) =>
  waitForTask(db.owner, id, "finished", (task) => TERMINAL.has(task.status), { ...WAIT, timeoutMs });

async function projectState(projectId: string) {
  const { rows } = await db.owner.query<{ current_job_id: string; jobs: number }>(
    `select p.current_job_id, (select count(*)::int from app_public.jobs j where j.project_id = p.id) as jobs
       from app_public.projects p where p.id = $1`,
    [projectId],
  );
  return rows[0]!;
}

async function planBlobs(user: TestUser): Promise<number> {
  const { rows } = await db.owner.query<{ n: number }>(
    "select count(*)::int as n from app_private.blobs where user_id = $1 and content_type = $2",
    [user.id, PLAN_CONTENT_TYPE],
  );
  return rows[0]!.n;
}

describe("plan_cam", () => {
  it("saves the plan as the project's new current job and returns job_id, machining time, warnings, unmachined and the setups", async () => {
    const projectId = await planningProject(api, alice, { library: ["fake:success", "Drill"] });
    const before = await projectState(projectId);
    const stockJob = await db.owner.query("select workpiece_id, stock from app_public.jobs where id = $1", [
      before.current_job_id,
    ]);
    const taskId = await startPlan(alice, projectId, { include_face_milling: false, sort_by_height: true });
    const task = await finished(taskId);
    assert.equal(task.status, "success", JSON.stringify(task.error));
    assert.equal(task.progress, 1);
    assert.equal(task.attempts, 1);
    const result = task.result as PlanCamResult;
    assert.deepEqual(Object.keys(result).sort(), [
      "completeness",
      "job_id",
      "machining_time_s",
      "setups",
      "unmachined",
      "warnings",
    ]);
    assert.equal(result.completeness?.status, "complete", "the task result says how complete the plan is");
    assert.equal(result.setups.length, 2);
    const setup = result.setups[0]!;
    assert.deepEqual(Object.keys(setup).sort(), [
      "blocks",
      "direction",
      "id",
      "index",
      "machining_time_s",
      "name",
      "operations",
      "tools",
      "verification",
      "wcs",
      "work_offset",
      "work_offset_origin",
      "workholding",
    ]);
    assert.equal(setup.workholding, null, "planned without a workholding: the request sent none");
    assert.deepEqual(setup.direction, [0, 0, 1]);
    assert.deepEqual(Object.keys(setup.blocks[0]!).sort(), ["id", "kind", "name", "operation_ids"]);
    assert.deepEqual(
      setup.blocks.flatMap((b) => b.operation_ids),
      setup.operations.map((o) => o.id),
      "every operation in one block, in order",
    );
    assert.deepEqual(Object.keys(setup.wcs).sort(), ["origin", "x_axis", "z_axis"]);
    assert.deepEqual(Object.keys(setup.verification).sort(), [
      "gouges",
      "holder_collisions",
      "material_left_mm3",
      "material_left_pct",
      "rapids_through_material",
    ]);
    assert.deepEqual(Object.keys(setup.operations[0]!).sort(), [
      "clearing_regions",
      "engagement",
      "features",
      "id",
      "kind",
      "machining_time_s",
      "name",
      "scallop_mm",
      "tool_number",
    ]);
    assert.deepEqual(result.unmachined[0]?.code, "no_tool_fits");

    // what the planner was given
    const input = JSON.parse(result.warnings.find((w) => w.code === "input")!.message) as Record<string, unknown>;
    const stock = stockJob.rows[0].stock as { min: number[]; max: number[] };
    assert.deepEqual(input, {
      format: "stl",
      bytes_format: "stl",
      bytes: input.bytes,
      stock: { min: stock.min, max: stock.max },
      machine: "vmc-850-fanuc",
      material_id: PLANNING_MATERIAL,
      library: ["fake:success", "Drill"],
      options: { include_face_milling: false, sort_by_height: true },
      workholding: null,
    });
    assert.ok((input.bytes as number) > 1000, "the STL as uploaded");

    // the job: current, on top of the stock job, with the workpiece and stock it was planned for
    const after = await projectState(projectId);
    assert.equal(after.current_job_id, result.job_id);
    assert.equal(after.jobs, before.jobs + 1);
    const { rows } = await db.owner.query(
      `select j.source, j.parent_job_id, j.workpiece_id, j.stock, j.plan_summary, b.content_type
         from app_public.jobs j join app_private.blobs b on b.id = j.plan_blob_id where j.id = $1`,
      [result.job_id],
    );
    const { job_id: _jobId, ...summary } = result;
    assert.deepEqual(rows[0], {
      source: "plan",
      parent_job_id: before.current_job_id,
      workpiece_id: stockJob.rows[0].workpiece_id,
      stock: stockJob.rows[0].stock,
      plan_summary: summary,
      content_type: PLAN_CONTENT_TYPE,
    });
    const read = await api.request<{ result: unknown; status: string }>("GET", `/tasks/${taskId}`, { key: alice.key });
    assert.deepEqual(read.body.result, result);
  });

  it("hands the request's workholding to the planner beside the options, and none when the request sent none", async () => {
    const workholding = defaultWorkholding("vmc-850-fanuc");
    const projectId = await planningProject(api, alice, { library: ["fake:success"] });
    const task = await finished(await startPlan(alice, projectId, { ...PLAN_OPTIONS, workholding }));
    assert.equal(task.status, "success", JSON.stringify(task.error));
    const result = task.result as PlanCamResult;
    const input = JSON.parse(result.warnings.find((w) => w.code === "input")!.message) as Record<string, unknown>;
    assert.deepEqual(input.workholding, workholding);
    assert.deepEqual(input.options, PLAN_OPTIONS, "the workholding is not a plan option");
  });

  it("exports the plan in the job file (GET /projects/{id}/job) and imports it back (POST), storing its bytes once; a new stock drops it", async () => {
    const projectId = await planningProject(api, alice, { library: ["fake:success:2000"] });
    const result = (await finished(await startPlan(alice, projectId))).result as PlanCamResult;
    const download = await api.request("GET", `/projects/${projectId}/job`, { key: alice.key });
    assert.equal(download.status, 200);
    assert.equal(download.headers.get("x-job-id"), result.job_id);
    const file = await decodeFamc(download.bytes, alice.id, async () => true);
    assert.equal(file.version, 2);
    assert.equal(file.job.source, "plan");
    const plan = file.plan!.document;
    assert.equal(plan.setups.length, 2);
    const roughing = plan.setups[0]!.operations[1]!;
    assert.ok(roughing.moves.length > 2000, "the moves are in the file");
    assert.deepEqual(Object.keys(roughing.parameters).sort(), [
      "allowance_xy_mm",
      "allowance_z_mm",
      "coolant",
      "feed_mm_min",
      "plunge_feed_mm_min",
      "spindle_rpm",
      "stepdown_mm",
      "stepover_mm",
    ]);
    assert.equal(roughing.tool.assembly_uuid, plan.setups[0]!.tools[0]!.assembly_uuid);
    assert.equal(plan.setups[1]!.work_offset, "G55");
    const blobsBefore = await planBlobs(alice);

    const upload = await api.request<{ job_id: string }>("POST", `/projects/${projectId}/job`, {
      key: alice.key,
      raw: fileUpload(download.bytes),
    });
    assert.equal(upload.status, 201, upload.text);
    const jobs = await db.owner.query<{ id: string; source: string; plan_blob_id: string; plan_summary: unknown }>(
      "select id, source, plan_blob_id, plan_summary from app_public.jobs where id = any($1::uuid[]) order by created_at",
      [[result.job_id, upload.body.job_id]],
    );
    const [planned, imported] = jobs.rows;
    assert.equal(imported!.source, "import");
    assert.equal(imported!.plan_blob_id, planned!.plan_blob_id, "the same bytes are the same blob");
    assert.deepEqual(imported!.plan_summary, planned!.plan_summary);
    assert.equal(await planBlobs(alice), blobsBefore);

    const stock = await api.request<{ job_id: string }>("POST", `/projects/${projectId}/stock/bounding-box`, {
      key: alice.key,
      body: { ...STOCK_OFFSETS, plus_z: 7 },
    });
    const replanned = await db.owner.query("select plan_blob_id, plan_summary from app_public.jobs where id = $1", [
      stock.body.job_id,
    ]);
    assert.deepEqual(
      replanned.rows[0],
      { plan_blob_id: null, plan_summary: null },
      "a plan is for the stock it was made for",
    );
    const lean = await decodeFamc(
      (await api.request("GET", `/projects/${projectId}/job`, { key: alice.key })).bytes,
      alice.id,
      async () => true,
    );
    assert.equal(lean.plan, null);
  });

  it("leaves a plan to the purge of the last project holding it", async () => {
    const frank = await createTestUser(db.owner, "frank");
    const planned = await planningProject(api, frank, { library: ["fake:success"] });
    const result = (await finished(await startPlan(frank, planned))).result as PlanCamResult;
    const file = (await api.request("GET", `/projects/${planned}/job`, { key: frank.key })).bytes;
    const other = await planningProject(api, frank, { workpiece: false });
    assert.equal(
      (await api.request("POST", `/projects/${other}/job`, { key: frank.key, raw: fileUpload(file) })).status,
      201,
    );
    const blob = (
      await db.owner.query<{ plan_blob_id: string }>("select plan_blob_id from app_public.jobs where id = $1", [
        result.job_id,
      ])
    ).rows[0]!.plan_blob_id;
    const purge = async (projectId: string) => {
      assert.equal((await api.request("DELETE", `/projects/${projectId}`, { key: frank.key })).status, 204);
      await db.owner.query("select * from app_private.purge_project($1)", [projectId]);
    };
    await purge(planned);
    assert.equal(
      (await db.owner.query("select 1 from app_private.blobs where id = $1", [blob])).rowCount,
      1,
      "the other project's import holds it",
    );
    await purge(other);
    assert.equal((await db.owner.query("select 1 from app_private.blobs where id = $1", [blob])).rowCount, 0);
    assert.equal(await planBlobs(frank), 0);
  });

  it("records progress as the planner reports it, in every 10 % bucket it passes, and 1 at the end", async () => {
    const projectId = await planningProject(api, alice, { library: ["fake:slow"] });
    const taskId = await startPlan(alice, projectId);
    const seen: number[] = [];
    let task: TaskRecord;
    do {
      task = await readTaskRecord(db.owner, taskId);
      if (seen.at(-1) !== task.progress) seen.push(task.progress);
      await new Promise((resolve) => setTimeout(resolve, 40));
    } while (!TERMINAL.has(task.status));
    assert.equal(task.status, "success");
    assert.deepEqual(
      [...seen].sort((a, b) => a - b),
      seen,
      "never backwards",
    );
    assert.equal(seen.at(-1), 1);
    // the stand-in reports 0.1, 0.2 .. 1 of the planning every 300 ms, which is 0.135 .. 0.9 of
    // the task: every 10 % bucket it enters is written (0.9, "planned", is followed at once by
    // the save and 1, too quickly to be sure to see it)
    const buckets = new Set(seen.filter((p) => p < 1).map((p) => Math.floor(p * 10 + 1e-9)));
    for (const bucket of [1, 2, 3, 4, 5, 6, 7, 8])
      assert.ok(buckets.has(bucket), `bucket ${bucket}; progress seen: ${seen.join(", ")}`);
  });

  it("cancels a running plan at the planner's next check: 202, then cancelled, with nothing saved", async () => {
    const carol = await createTestUser(db.owner, "carol");
    const projectId = await planningProject(api, carol, { library: ["fake:until-cancelled"] });
    const before = await projectState(projectId);
    const taskId = await startPlan(carol, projectId);
    await waitForTask(db.owner, taskId, "planning", (task) => task.status === "running" && task.progress > 0.3, WAIT);
    const requested = Date.now();
    const res = await api.request<{ status: string; cancel_requested_at: string }>("POST", `/tasks/${taskId}/cancel`, {
      key: carol.key,
    });
    assert.equal(res.status, 202, res.text);
    assert.equal(res.body.status, "running");
    const task = await finished(taskId);
    assert.equal(task.status, "cancelled");
    assert.ok(
      Date.now() - requested < SETTINGS.cancelGraceMs,
      "the planner stopped by itself, before the grace period",
    );
    assert.equal(task.error, null);
    assert.equal(task.result, null);
    assert.ok(task.finished_at);
    assert.deepEqual(await projectState(projectId), before, "no job saved");
    assert.equal(await planBlobs(carol), 0, "no plan stored");
    const read = await api.request<{ status: string; cancel_requested_at: string }>("GET", `/tasks/${taskId}`, {
      key: carol.key,
    });
    assert.equal(read.body.cancel_requested_at, res.body.cancel_requested_at);
    assert.equal((await api.request("POST", `/tasks/${taskId}/cancel`, { key: carol.key })).status, 200);
  });

  it("ends the thread of a planner that ignores the cancel once the grace period is over, and plans again on a new thread", async () => {
    const erin = await createTestUser(db.owner, "erin");
    const projectId = await planningProject(api, erin, { library: ["fake:ignore-cancel"] });
    const before = await projectState(projectId);
    const taskId = await startPlan(erin, projectId);
    await waitForTask(db.owner, taskId, "planning", (task) => task.status === "running" && task.progress > 0.3, WAIT);
    const requested = Date.now();
    assert.equal((await api.request("POST", `/tasks/${taskId}/cancel`, { key: erin.key })).status, 202);
    const task = await finished(taskId);
    assert.equal(task.status, "cancelled");
    const took = Date.now() - requested;
    assert.ok(took >= SETTINGS.cancelGraceMs && took < SETTINGS.cancelGraceMs + 5000, `cancelled after ${took} ms`);
    assert.deepEqual(await projectState(projectId), before);
    const next = await finished(await startPlan(erin, await planningProject(api, erin, { library: ["fake:success"] })));
    assert.equal(next.status, "success", "the pool replaced the thread");
  });

  it("fails with the planner's code when it refuses the part, once, with nothing saved", async () => {
    const projectId = await planningProject(api, alice, { library: ["fake:refuse:no_tool_fits"] });
    const before = await projectState(projectId);
    const task = await finished(await startPlan(alice, projectId));
    assert.equal(task.status, "failed");
    assert.deepEqual(task.error, { code: "no_tool_fits", message: "refused: no_tool_fits" });
    assert.equal(task.attempts, 1, "a refusal is not retried");
    assert.deepEqual(await projectState(projectId), before);
  });

  it("fails as planning_failed when the planner throws and as plan_invalid when its result cannot be saved", async () => {
    for (const [script, code] of [
      ["fake:throw", "planning_failed"],
      ["fake:nan", "plan_invalid"],
    ] as const) {
      const projectId = await planningProject(api, alice, { library: [script] });
      const before = await projectState(projectId);
      const task = await finished(await startPlan(alice, projectId));
      assert.equal(task.status, "failed", script);
      assert.equal(task.error?.code, code, JSON.stringify(task.error));
      assert.equal(task.attempts, 1);
      assert.deepEqual(await projectState(projectId), before);
    }
  });

  it("runs a plan whose thread died once more, then fails it as geometry_worker_crashed", async () => {
    const projectId = await planningProject(api, alice, { library: ["fake:crash"] });
    const task = await finished(await startPlan(alice, projectId));
    assert.equal(task.status, "failed");
    assert.equal(task.error?.code, "geometry_worker_crashed");
    assert.equal(task.attempts, 2);
  });

  it("refuses before planning what cannot be planned: a stock beyond the machine's travel, an open mesh, an empty library, a deleted project", async () => {
    const huge = await planningProject(api, alice, {
      stock: { ...STOCK_OFFSETS, plus_x: 1000, plus_y: 1000, plus_z: 1000 },
    });
    const tooLarge = await finished(await startPlan(alice, huge));
    assert.equal(tooLarge.error?.code, "part_exceeds_travel");
    assert.match(
      tooLarge.error!.message,
      /^the stock \(1087\.5 x 1046\.6 x 1035\.5 mm\) does not fit the travel of .* \(X 850, Y 500, Z \d+ mm\) in any orientation/,
    );

    const open = await planningProject(api, alice);
    await db.owner.query(
      "update app_public.workpieces set closed_solid = false where id = (select workpiece_id from app_public.jobs j join app_public.projects p on p.current_job_id = j.id where p.id = $1)",
      [open],
    );
    assert.equal((await finished(await startPlan(alice, open))).error?.code, "workpiece_not_closed");

    // state that changed after the request was accepted: the task checks again
    const emptied = await planningProject(api, alice);
    await db.owner.query(
      "delete from app_public.library_assemblies where library_id = (select library_id from app_public.projects where id = $1)",
      [emptied],
    );
    const deleted = await planningProject(api, alice);
    await db.owner.query("update app_public.projects set deleted_at = now() where id = $1", [deleted]);
    for (const [projectId, payload, code] of [
      [emptied, PLAN_OPTIONS, "empty_library"],
      [deleted, PLAN_OPTIONS, "project_missing"],
      [await planningProject(api, alice), { include_face_milling: true }, "invalid_payload"],
    ] as const) {
      const id = await insertTaskRecord(db.owner, {
        userId: alice.id,
        projectId,
        workerTask: "plan_cam",
        taskName: PLAN_CAM_TASK_NAME,
        payload,
      });
      const task = await finished(id);
      assert.equal(task.status, "failed");
      assert.equal(task.error?.code, code, JSON.stringify(task.error));
    }
  });

  it("fails a precondition lost after the request with the code and message the API answers for it", async () => {
    const projectId = await planningProject(api, alice);
    await db.owner.query(
      "delete from app_public.library_assemblies where library_id = (select library_id from app_public.projects where id = $1)",
      [projectId],
    );
    const task = await finished(
      await insertTaskRecord(db.owner, {
        userId: alice.id,
        projectId,
        workerTask: "plan_cam",
        taskName: PLAN_CAM_TASK_NAME,
        payload: PLAN_OPTIONS,
      }),
    );
    const refused = await api.request<{ detail: { code: string; message: string } }>(
      "POST",
      `/projects/${projectId}/automation/cam-planning`,
      {
        key: alice.key,
        body: PLAN_OPTIONS,
      },
    );
    assert.equal(refused.status, 409);
    assert.equal(task.error?.code, refused.body.detail.code);
    assert.equal(task.error?.message, refused.body.detail.message);
  });

  it("fails as project_changed, saving nothing, when the stock changes while the part is planned", async () => {
    const projectId = await planningProject(api, alice, { library: ["fake:sleep:1500"] });
    const taskId = await startPlan(alice, projectId);
    await waitForTask(db.owner, taskId, "planning", (task) => task.status === "running" && task.progress >= 0.4, WAIT);
    const stock = await api.request<{ job_id: string }>("POST", `/projects/${projectId}/stock/bounding-box`, {
      key: alice.key,
      body: { ...STOCK_OFFSETS, plus_z: 9 },
    });
    assert.equal(stock.status, 200);
    const task = await finished(taskId);
    assert.equal(task.error?.code, "project_changed");
    assert.equal((await projectState(projectId)).current_job_id, stock.body.job_id);
  });

  it("runs a user's plans one at a time in the order they were accepted, beside another user's", async () => {
    const dana = await createTestUser(db.owner, "dana");
    const projects = [];
    for (let i = 0; i < 3; i += 1)
      projects.push(await planningProject(api, dana, { library: ["fake:sleep:1500"], name: `FIFO ${i}` }));
    // bob's project is ready before dana's plans start: on a loaded machine making it took longer than her first plan
    const bobsProject = await planningProject(api, bob, { library: ["fake:sleep:1500"] });
    const ids = [];
    for (const projectId of projects) ids.push(await startPlan(dana, projectId));
    const bobs = await startPlan(bob, bobsProject);
    const tasks = await Promise.all([...ids, bobs].map((id) => finished(id)));
    assert.deepEqual(
      tasks.map((t) => t.status),
      ["success", "success", "success", "success"],
    );
    const [first, second, third, bobsTask] = tasks as [TaskRecord, TaskRecord, TaskRecord, TaskRecord];
    assert.ok(second.started_at! >= first.finished_at!, "the second started after the first ended");
    assert.ok(third.started_at! >= second.finished_at!, "the third after the second");
    assert.ok(bobsTask.started_at! < first.finished_at!, "bob's ran beside dana's first");
  });

  it("cancels a queued task whose cancel was requested before its attempt started, without running it", async () => {
    const projectId = await planningProject(api, alice);
    const { rows } = await db.owner.query<{ id: string }>(
      `insert into app_public.tasks (user_id, project_id, task_name, worker_task, payload, cancel_requested_at)
       values ($1, $2, $3, 'plan_cam', $4, now()) returning id`,
      [alice.id, projectId, PLAN_CAM_TASK_NAME, PLAN_OPTIONS],
    );
    const task = await finished(rows[0]!.id);
    assert.equal(task.status, "cancelled");
    assert.equal(task.attempts, 0);
  });

  it("needs both scopes to start and automation:run to cancel (a key with cam:write alone starts nothing)", async () => {
    const projectId = await planningProject(api, alice);
    const key = await alice.keyWith(SCOPES.filter((s) => s !== "automation:run"));
    const res = await api.request("POST", `/projects/${projectId}/automation/cam-planning`, {
      key,
      body: PLAN_OPTIONS,
    });
    assert.equal(res.status, 403);
    const { rows } = await db.owner.query("select 1 from app_public.tasks where project_id = $1", [projectId]);
    assert.equal(rows.length, 0);
  });
});
