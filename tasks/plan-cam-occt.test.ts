/**
 * plan_cam with the service's own geometry thread (OCCT loaded, kernel/cam/plan.ts): what the
 * stand-in planner of automated_cam_planning.test.ts cannot show: real plans of a real part,
 * refusals with their codes, and cancelling a planning that is running. The other fixture parts
 * planned the same way are test/fixture-parts/planned-through-api.test.ts.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { decodeFamc } from "../kernel/job/famc.ts";
import { PLAN_CONTENT_TYPE } from "../kernel/job/plan.ts";
import type { TestApi } from "../test/support/api.ts";
import type { TestDatabase } from "../test/support/database.ts";
import { catalogueAssembly, PLAN_OPTIONS, type PlanningStarted } from "../test/support/planning.ts";
import { everydayTools, PlanningService, TERMINAL, WAIT } from "../test/support/planning-service.ts";
import { waitForTask } from "../test/support/task-records.ts";
import type { TestUser } from "../test/support/users.ts";
import type { PlanCamResult } from "./automated_cam_planning.ts";

let service: PlanningService;
let db: TestDatabase;
let api: TestApi;
let alice: TestUser;

before(async () => {
  service = await PlanningService.start();
  ({ db, api, user: alice } = service);
});
after(async () => {
  await service?.stop();
});

const plan = (projectId: string) => service.plan(projectId);
const stepProject = (...args: Parameters<PlanningService["stepProject"]>) => service.stepProject(...args);
const assertProgramsRun = (projectId: string) => service.assertProgramsRun(projectId);

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
