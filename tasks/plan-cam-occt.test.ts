/**
 * plan_cam with the service's own geometry thread (OCCT loaded, kernel/cam/plan.ts): what the
 * stand-in planner of automated_cam_planning.test.ts cannot show: real plans of a real part,
 * refusals with their codes, and cancelling a planning that is running.
 */
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { repoRoot } from "../config/env.ts";
import { decodeFamc } from "../kernel/job/famc.ts";
import { PLAN_CONTENT_TYPE } from "../kernel/job/plan.ts";
import { startTestApi, type TestApi } from "../test/support/api.ts";
import { createTestDatabase, type TestDatabase } from "../test/support/database.ts";
import { fileUpload } from "../test/support/multipart.ts";
import type { Assembly } from "../kernel/tools/assembly.ts";
import { catalogueAssembly, PLAN_OPTIONS, planningProject, type PlanningStarted } from "../test/support/planning.ts";
import { POSTPROCESSORS } from "../kernel/post/index.ts";
import { assertRunsAsPlanned, judgedByRs274, programBlocks, programText } from "../test/support/program-checks.ts";
import { rs274Missing } from "../test/support/rs274.ts";
import { waitForTask } from "../test/support/task-records.ts";
import { createTestUser, type TestUser } from "../test/support/users.ts";
import { createGeometryPool, type GeometryPool } from "../geometry-pool/pool.ts";
import { startWorkerRunner, type WorkerRunner } from "../workers/runner.ts";
import type { PlanCamResult } from "./automated_cam_planning.ts";

// STC-06 plans in about 3 minutes alone, and the suite runs files two at a time
const WAIT = { timeoutMs: 900_000, intervalMs: 200 };
const TERMINAL = new Set(["success", "failed", "cancelled"]);
const fixturePart = (name: string) => ({
  name,
  bytes: fs.readFileSync(path.resolve(repoRoot, "../shared/fixtures/parts", name)),
});
const partCStep = fixturePart("partC.step");

let db: TestDatabase;
let api: TestApi;
let geometry: GeometryPool;
let runner: WorkerRunner;
let alice: TestUser;

before(async () => {
  db = await createTestDatabase();
  geometry = createGeometryPool({ size: 1 });
  await geometry.ready();
  api = await startTestApi(db, { geometry, env: { RATE_LIMIT_PER_MINUTE: "100000" } });
  runner = await startWorkerRunner({
    ownerUrl: db.ownerUrl,
    taskNames: ["plan_cam"],
    services: { geometry },
    concurrency: 1,
    heartbeatSeconds: 1,
    leaseStaleSeconds: 30,
    pollIntervalMs: 100,
  });
  alice = await createTestUser(db.owner, "alice");
});
after(async () => {
  await runner?.stop();
  await api?.close();
  await geometry?.close();
  await db?.drop();
});

async function plan(projectId: string) {
  const res = await api.request<PlanningStarted>("POST", `/projects/${projectId}/automation/cam-planning`, {
    key: alice.key,
    body: PLAN_OPTIONS,
  });
  assert.equal(res.status, 202, res.text);
  return waitForTask(db.owner, res.body.task_id, "finished", (task) => TERMINAL.has(task.status), WAIT);
}

/**
 * Every setup of the project's current plan as the route writes it for the project's (Fanuc)
 * machine, and in every postprocessor of the kernel, judged (test/support/program-checks.ts):
 * each reads to its end, and its feeds match the plan's. rs274's judgements skip without it.
 */
async function assertProgramsRun(projectId: string): Promise<void> {
  const file = await decodeFamc(
    (await api.request("GET", `/projects/${projectId}/job`, { key: alice.key })).bytes,
    alice.id,
    async () => true,
  );
  const plan = file.plan?.document;
  assert.ok(plan, "the job keeps its plan");
  const project = await api.request<{ name: string }>("GET", `/projects/${projectId}`, { key: alice.key });
  // every program downloaded before any is judged: judging blocks this process, the server's too,
  // and a keep-alive connection it let lapse meanwhile was reset under the next request
  const downloaded: string[] = [];
  for (let s = 0; s < plan.setups.length; s += 1) {
    const res = await api.request("POST", `/projects/${projectId}/post/run?setup_index=${s}`, { key: alice.key });
    assert.equal(res.status, 200, res.text);
    downloaded.push(res.text);
  }
  downloaded.forEach((text, s) => {
    assert.deepEqual(
      programBlocks(text),
      programBlocks(programText(plan, s, "fanuc", project.body.name)),
      "the route writes the kernel's Fanuc program",
    );
    assert.match(
      text,
      /^\(PART X [\d.]+, Y [\d.]+, Z [\d.]+, STOCK BEYOND IT:\)$/m,
      "the header places the part in the stock",
    );
    for (const postprocessor of POSTPROCESSORS)
      if (!(judgedByRs274(postprocessor) && rs274Missing())) assertRunsAsPlanned(plan, s, postprocessor);
  });
}

/** a shop's everyday tools from the standard range */
const everydayTools = () => [
  catalogueAssembly("FaceMill", 50),
  catalogueAssembly("CentreCuttingEndMill", 10),
  catalogueAssembly("CentreCuttingEndMill", 6),
  catalogueAssembly("CentreCuttingEndMill", 3),
  catalogueAssembly("SpotDrill", 8),
  catalogueAssembly("Drill", 6.8),
  catalogueAssembly("Drill", 5),
  catalogueAssembly("ChamferMill", 10),
];

/** a project whose workpiece is a fixture part (partC.step unless told), uploaded (and so read by OCCT) */
async function stepProject(library: (string | Assembly)[] = ["End mill"], part = partCStep): Promise<string> {
  const projectId = await planningProject(api, alice, { library, workpiece: false });
  const upload = await api.request("POST", `/projects/${projectId}/workpiece`, {
    key: alice.key,
    raw: fileUpload(part.bytes, part.name),
  });
  assert.equal(upload.status, 201, upload.text);
  const stock = await api.request("POST", `/projects/${projectId}/stock/bounding-box`, {
    key: alice.key,
    body: { minus_x: 2, plus_x: 2, minus_y: 2, plus_y: 2, minus_z: 8, plus_z: 5 },
  });
  assert.equal(stock.status, 200, stock.text);
  return projectId;
}

describe("plan_cam on the service's geometry thread", () => {
  it("ends failed with part_exceeds_travel when the stock is larger than the machine, saving nothing", async () => {
    const projectId = await stepProject(everydayTools());
    const stock = await api.request("POST", `/projects/${projectId}/stock/bounding-box`, {
      key: alice.key,
      body: { minus_x: 500, plus_x: 500, minus_y: 0, plus_y: 0, minus_z: 0, plus_z: 5 },
    });
    assert.equal(stock.status, 200, stock.text);
    const before = await db.owner.query("select current_job_id from app_public.projects where id = $1", [projectId]);
    const task = await plan(projectId);
    assert.equal(task.status, "failed");
    assert.equal(task.error?.code, "part_exceeds_travel");
    assert.equal(task.attempts, 1, "a refusal is not retried");
    const afterwards = await db.owner.query("select current_job_id from app_public.projects where id = $1", [
      projectId,
    ]);
    assert.deepEqual(afterwards.rows, before.rows);
    const blobs = await db.owner.query("select 1 from app_private.blobs where user_id = $1 and content_type = $2", [
      alice.id,
      PLAN_CONTENT_TYPE,
    ]);
    assert.equal(blobs.rowCount, 0);
  });

  it("plans the setups that fit a machine too short for the stock from one side, and reports the one left out", async () => {
    const projectId = await stepProject(everydayTools());
    // the desktop router has 100 mm of Z travel: 107.5 mm of stock along X is too deep from +X and -X
    const machine = await api.request("PATCH", `/projects/${projectId}`, {
      key: alice.key,
      body: { product_id: "router-450-grbl" },
    });
    assert.equal(machine.status, 200, machine.text);
    const stock = await api.request<{ warnings: { axis: string; setups: string[] }[] }>(
      "POST",
      `/projects/${projectId}/stock/bounding-box`,
      {
        key: alice.key,
        body: { minus_x: 2, plus_x: 20, minus_y: 2, plus_y: 2, minus_z: 8, plus_z: 5 },
      },
    );
    assert.deepEqual(
      stock.body.warnings.map((w) => [w.axis, w.setups]),
      [["Z", ["+X", "-X"]]],
    );
    const task = await plan(projectId);
    assert.equal(task.status, "success", JSON.stringify(task.error));
    const result = task.result as PlanCamResult;
    assert.ok(
      result.setups.length >= 1 && result.setups.every((setup) => Math.abs(setup.direction[0]) < 0.5),
      JSON.stringify(result.setups.map((s) => s.name)),
    );
    const left = result.unmachined.filter((u) => u.code === "setup_exceeds_travel");
    assert.equal(left.length, 1, JSON.stringify(result.unmachined.map((u) => u.code)));
    assert.match(
      left[0]!.message,
      /^setup \+X: the stock is 107\.5 mm along the tool axis, the Desktop router 450 \(Grbl 1\.1\)'s Z travel is 100 mm/,
    );
    const unreachable = new Set(result.unmachined.filter((u) => u.code === "face_unreachable").flatMap((u) => u.faces));
    for (const face of left[0]!.faces) assert.ok(unreachable.has(face), `face ${face} only +X reaches is unreachable`);
  });

  it("plans partC.step from the B-rep: setups with verified toolpaths (no gouge, rapid through material or holder collision), saved as the current job, every setup's program run by rs274 as planned", async () => {
    const projectId = await stepProject(everydayTools());
    const task = await plan(projectId);
    assert.equal(task.status, "success", JSON.stringify(task.error));
    const result = task.result as PlanCamResult;
    assert.ok(result.setups.length >= 1);
    for (const setup of result.setups) {
      assert.deepEqual(
        [setup.verification.gouges, setup.verification.rapids_through_material, setup.verification.holder_collisions],
        [0, 0, 0],
        setup.name,
      );
      assert.ok(setup.operations.length > 0 && setup.tools.length > 0);
      assert.deepEqual(
        setup.blocks.flatMap((b) => b.operation_ids),
        setup.operations.map((o) => o.id),
        `${setup.name}: every operation in one block, in order`,
      );
    }
    assert.ok(result.machining_time_s > 0);
    const current = await db.owner.query("select current_job_id from app_public.projects where id = $1", [projectId]);
    assert.equal(current.rows[0].current_job_id, result.job_id);
    const file = await decodeFamc(
      (await api.request("GET", `/projects/${projectId}/job`, { key: alice.key })).bytes,
      alice.id,
      async () => true,
    );
    assert.equal(file.plan?.document.setups.length, result.setups.length);
    assert.deepEqual(
      file.plan?.document.setups.map((s) => s.blocks.map((b) => [b.id, b.kind, b.operation_ids])),
      result.setups.map((s) => s.blocks.map((b) => [b.id, b.kind, b.operation_ids])),
      "the job file keeps the blocks the result shows",
    );
    assert.ok(result.completeness, "the task result says how complete the plan is");
    assert.deepEqual(file.plan?.document.completeness, result.completeness, "and the job file keeps it");
    await assertProgramsRun(projectId);
  });

  // what the vmc-850's vise, else its table, leaves unheld of each part with the walk-through
  // stock (2 mm around, 8 mm below), and the material left (% of the removable volume): FTC-10's
  // +X finds rounded lugs and no finished plane in its lowest 5 mm (the vise) or 10 mm (the
  // table's clamps); STC-06's -Z and -X find no pair of parallel finished faces there, and its
  // three chamfer setups stand tilted (a sine vise's work, not modelled). Planned unheld, STC-06
  // leaves 5.7 %: the rest of its 14.2 % is what those setups would cut.
  const held: Record<string, { leftOut: string[]; maxLeftPct: number }> = {
    "partC.stl": { leftOut: [], maxLeftPct: 10 },
    "nist_ftc_10_asme1_ap242-e2.stp": { leftOut: ["+X"], maxLeftPct: 10 },
    // too wide for the vise from above: +Z and -Z on the table, -Y in the vise
    "nist_ctc_01_asme1_ap242-e1.stp": { leftOut: [], maxLeftPct: 10 },
    "nist_stc_06_asme1_ap242-e3.stp": {
      leftOut: ["-X", "-Z", "feature 20 (chamfer)", "feature 21 (chamfer)", "feature 22 (chamfer)"],
      maxLeftPct: 15,
    },
  };

  // the other fixture parts, end to end as a client sends them: a mesh, and the NIST test parts
  for (const name of [
    "partC.stl",
    "nist_ftc_10_asme1_ap242-e2.stp",
    "nist_ctc_01_asme1_ap242-e1.stp",
    "nist_stc_06_asme1_ap242-e3.stp",
  ]) {
    it(`plans ${name} uploaded through the API: verified setups, the material left reported, the job saved, every setup's program run by rs274 as planned`, async () => {
      // the NIST parts are 250 to 400 mm long: the shop's 20 mm end mill roughs them; FTC-10's
      // long bores take a 7 mm drill
      const library = name.startsWith("nist")
        ? [...everydayTools(), catalogueAssembly("CentreCuttingEndMill", 20), catalogueAssembly("Drill", 7)]
        : everydayTools();
      const projectId = await stepProject(library, fixturePart(name));
      const task = await plan(projectId);
      assert.equal(task.status, "success", JSON.stringify(task.error));
      const result = task.result as PlanCamResult;
      assert.ok(result.setups.length >= 2, `setups: ${result.setups.map((s) => s.name).join(", ")}`);
      for (const setup of result.setups) {
        const v = setup.verification;
        assert.deepEqual(
          [v.gouges, v.rapids_through_material, v.holder_collisions, v.workholding_collisions],
          [0, 0, 0, 0],
          setup.name,
        );
        // the vise where it opens wide enough, else the machine's table
        assert.ok(setup.workholding, `setup ${setup.name} is held`);
      }
      const completeness = result.completeness;
      assert.ok(completeness, "the task result says how complete the plan is");
      const expected = held[name]!;
      const unheld = completeness.setups_left_out.filter((s) => s.reason === "workholding_unavailable");
      assert.deepEqual(
        unheld.map((s) => s.name).sort(),
        [...expected.leftOut].sort(),
        unheld.map((s) => s.message).join("\n"),
      );
      for (const out of unheld)
        assert.match(
          out.message,
          /the vise can hold.*the table's clamps can hold|tilted .* sine vise or an angle plate/,
          out.name,
        );
      assert.equal(
        completeness.reasons.some((r) => r.code === "workholding_unavailable"),
        unheld.length > 0,
        "completeness says why",
      );
      const left = result.setups.at(-1)?.verification.material_left_pct ?? 100;
      assert.ok(left < expected.maxLeftPct, `${left} % of the removable volume left`);
      assert.ok(result.unmachined.some((u) => u.code === "material_left"));
      const unreachable = result.unmachined.filter((u) => u.code === "face_unreachable").flatMap((u) => u.faces);
      assert.ok(
        unreachable.every((face) => completeness.faces_unreachable.includes(face)),
        "every face reported unreachable is in completeness",
      );
      assert.equal(completeness.status === "complete", completeness.reasons.length === 0);
      if (name.startsWith("nist_ftc")) {
        // its four 7 mm bores, 75 mm long and counterbored from both ends, are drilled and bored from +Z
        const kinds = result.setups.find((s) => s.name === "+Z")?.operations.map((o) => o.kind) ?? [];
        assert.ok(kinds.includes("drilling") && kinds.includes("helical_boring"), `+Z: ${kinds.join(", ")}`);
      }
      const current = await db.owner.query("select current_job_id from app_public.projects where id = $1", [projectId]);
      assert.equal(current.rows[0].current_job_id, result.job_id);
      await assertProgramsRun(projectId);
    });
  }

  it("fails with no_tool_fits when the library holds only tools too large for the part's features", async () => {
    const task = await plan(await stepProject([catalogueAssembly("FaceMill", 160)]));
    assert.equal(task.status, "failed");
    assert.equal(task.error?.code, "no_tool_fits");
  });

  it("cancels a real planning within seconds of the request, at the planner's own check", async () => {
    const projectId = await stepProject(everydayTools());
    const res = await api.request<PlanningStarted>("POST", `/projects/${projectId}/automation/cam-planning`, {
      key: alice.key,
      body: PLAN_OPTIONS,
    });
    const planning = await waitForTask(
      db.owner,
      res.body.task_id,
      "planning",
      (task) => task.progress > 0.1 || TERMINAL.has(task.status),
      WAIT,
    );
    assert.equal(planning.status, "running", JSON.stringify(planning.error));
    const asked = Date.now();
    assert.equal((await api.request("POST", `/tasks/${res.body.task_id}/cancel`, { key: alice.key })).status, 202);
    const task = await waitForTask(db.owner, res.body.task_id, "cancelled", (t) => TERMINAL.has(t.status), WAIT);
    assert.equal(task.status, "cancelled");
    assert.ok(Date.now() - asked < 5000, "the planner checks hooks.cancelled() often");
  });
});
