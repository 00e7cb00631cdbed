/**
 * POST /projects/{project_id}/post/run: the current job's setup as its machine's program. Jobs
 * are saved the way the planning task saves them (a plan blob and its summary), with the plan of
 * test/support/every-move-plan.ts; real plans of the fixture parts go through this route in
 * tasks/plan-cam-occt.test.ts.
 */
import assert from "node:assert/strict";
import { request } from "node:http";
import { after, before, describe, it } from "node:test";
import { gunzipSync } from "node:zlib";
import { camPlanOf, type CamPlan } from "../../kernel/job/plan.ts";
import { findMachineArchetype, type MachineArchetype } from "../../kernel/machines/archetypes.ts";
import { startTestApi, type TestApi } from "../support/api.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { everyMovePlan } from "../support/every-move-plan.ts";
import { fakePlanResult } from "../support/fake-plan.ts";
import { PLAN_OPTIONS, planningProject, projectWithPlan } from "../support/planning.ts";
import { assertRunsAsPlanned, fanucForRs274, programBlocks, programText } from "../support/program-checks.ts";
import { rs274Missing, runRs274 } from "../support/rs274.ts";
import { createTestUser, type TestUser } from "../support/users.ts";

interface ErrorBody {
  detail: { code: string; message: string; details: Record<string, unknown>; request_id: string };
}

const machine = findMachineArchetype("vmc-850-fanuc") as MachineArchetype;

let db: TestDatabase;
let api: TestApi;
let alice: TestUser;

before(async () => {
  db = await createTestDatabase();
  api = await startTestApi(db, { env: { RATE_LIMIT_PER_MINUTE: "100000" } });
  alice = await createTestUser(db.owner, "alice");
});
after(async () => {
  await api?.close();
  await db?.drop();
});

/** a project of alice's (workpiece and stock) whose current job holds `plan`, as the planning task saves one */
const plannedProject = (plan: CamPlan, name = "Bracket (rev B)"): Promise<string> =>
  projectWithPlan(api, alice, plan, { name });

const post = (projectId: string, query: string, headers: Record<string, string> = {}) =>
  api.request<ErrorBody>("POST", `/projects/${projectId}/post/run${query}`, { key: alice.key, headers });

describe("POST /projects/{project_id}/post/run", () => {
  it("returns the setup's program as text, named after the project and the setup, for the project's Fanuc machine", async () => {
    const plan = everyMovePlan(false);
    const projectId = await plannedProject(plan);
    const res = await post(projectId, "?setup_index=0");
    assert.equal(res.status, 200, res.text);
    assert.match(res.headers.get("content-type") ?? "", /^text\/plain/);
    assert.equal(
      res.headers.get("content-disposition"),
      `attachment; filename="Bracket_rev_B_${plan.setups[0]!.name.replace(/[^A-Za-z0-9_-]+/g, "_").replace(/^_+|_+$/g, "")}.nc"`,
    );
    const lines = res.text.trimEnd().split("\n");
    assert.equal(lines[0], "%");
    assert.match(lines[1]!, /^O0001 \(BRACKET REV B\)$/);
    assert.ok(res.text.endsWith("M30\n%\n"));
    if (!rs274Missing()) assert.ok(runRs274(fanucForRs274(res.text)).ok, "rs274 runs the program as downloaded");
  });

  it("is gzip-encoded on the wire when Accept-Encoding asks for it, the same program once decoded", async () => {
    // a roughing of 2,000 moves: a program worth compressing
    const projectId = await plannedProject(camPlanOf(fakePlanResult({ moves: 2000 }), PLAN_OPTIONS, machine));
    const plain = await post(projectId, "?setup_index=0", { "Accept-Encoding": "identity" });
    assert.equal(plain.headers.get("content-encoding"), null);
    assert.match(plain.headers.get("vary") ?? "", /Accept-Encoding/);
    const wire = await new Promise<{ headers: Record<string, unknown>; body: Buffer }>((resolve, reject) => {
      const url = new URL(`${api.origin}/backend-api/api/public/v1/projects/${projectId}/post/run?setup_index=0`);
      const req = request(
        url,
        { method: "POST", headers: { "X-API-Key": alice.key, "Accept-Encoding": "gzip" } },
        (response) => {
          const chunks: Buffer[] = [];
          response.on("data", (chunk: Buffer) => chunks.push(chunk));
          response.on("end", () => resolve({ headers: response.headers, body: Buffer.concat(chunks) }));
        },
      );
      req.on("error", reject);
      req.end();
    });
    assert.equal(wire.headers["content-encoding"], "gzip");
    assert.ok(
      wire.body.length < plain.bytes.length / 2,
      `${wire.body.length} bytes on the wire for ${plain.bytes.length}`,
    );
    assert.ok(gunzipSync(wire.body).equals(plain.bytes));
  });

  it("answers 400 invalid_parameter for a setup_index missing, negative, fractional or not a number", async () => {
    const projectId = await plannedProject(everyMovePlan(false));
    for (const query of [
      "",
      "?setup_index=",
      "?setup_index=-1",
      "?setup_index=0.5",
      "?setup_index=first",
      "?setup_index=0&setup_index=1",
      "?setup_index=0&verbose=1",
    ]) {
      const res = await post(projectId, query);
      assert.equal(res.status, 400, query);
      assert.equal(res.body.detail.code, "invalid_parameter", query);
      assert.equal(typeof res.body.detail.request_id, "string");
    }
  });

  it("takes an optional stop before each later tool change unless optional_stop=false, and refuses other values", async () => {
    const projectId = await plannedProject(everyMovePlan(false));
    const stops = (text: string) => text.split("\n").filter((line) => line === "M01").length;
    const standard = await post(projectId, "?setup_index=0");
    assert.equal(stops(standard.text), 1, "one stop: before T2, none before T1");
    const asked = await post(projectId, "?setup_index=0&optional_stop=true");
    assert.equal(asked.text, standard.text);
    const without = await post(projectId, "?setup_index=0&optional_stop=false");
    assert.equal(without.status, 200);
    assert.equal(stops(without.text), 0);
    assert.deepEqual(
      without.text.split("\n"),
      standard.text.split("\n").filter((line) => line !== "M01"),
      "nothing else changes",
    );
    for (const query of ["?setup_index=0&optional_stop=yes", "?setup_index=0&optional_stop="]) {
      const res = await post(projectId, query);
      assert.equal(res.status, 400, query);
      assert.equal(res.body.detail.code, "invalid_parameter", query);
      assert.match(JSON.stringify(res.body.detail.details), /optional_stop/, query);
    }
  });

  it("answers 400 setup_index_out_of_range past the job's last setup, saying how many it has", async () => {
    const projectId = await plannedProject(everyMovePlan(false));
    const res = await post(projectId, "?setup_index=1");
    assert.equal(res.status, 400);
    assert.equal(res.body.detail.code, "setup_index_out_of_range");
    assert.equal(res.body.detail.details.setups, 1);
  });

  it("answers 409 no_toolpaths for a job that was never planned and for a setup without moves, 404 job_missing before any job", async () => {
    const unplanned = await planningProject(api, alice);
    const res = await post(unplanned, "?setup_index=0");
    assert.equal(res.status, 409);
    assert.equal(res.body.detail.code, "no_toolpaths");

    const plan = everyMovePlan(false);
    const empty: CamPlan = {
      ...plan,
      setups: plan.setups.map((setup) => ({
        ...setup,
        operations: setup.operations.map((operation) => ({ ...operation, moves: [] })),
      })),
    };
    const noMoves = await post(await plannedProject(empty), "?setup_index=0");
    assert.equal(noMoves.status, 409);
    assert.equal(noMoves.body.detail.code, "no_toolpaths");

    const bare = await planningProject(api, alice, { workpiece: false, stock: false });
    const none = await post(bare, "?setup_index=0");
    assert.equal(none.status, 404);
    assert.equal(none.body.detail.code, "job_missing");
  });

  it("leaves the job as it was: the same current job and plan after every kind of answer", async () => {
    const projectId = await plannedProject(everyMovePlan(false));
    const before = await db.owner.query("select current_job_id, updated_at from app_public.projects where id = $1", [
      projectId,
    ]);
    for (const query of ["?setup_index=0", "?setup_index=7", "?setup_index=-1"]) await post(projectId, query);
    const afterwards = await db.owner.query(
      "select current_job_id, updated_at from app_public.projects where id = $1",
      [projectId],
    );
    assert.deepEqual(afterwards.rows, before.rows);
  });
});

describe("a downloaded program through rs274", { skip: rs274Missing() }, () => {
  it("moves as the plan does: feeds' bounding box within 0.01 mm, path within 0.5 %", async () => {
    const plan = everyMovePlan(false);
    assertRunsAsPlanned(plan, 0, "fanuc");
    const projectId = await plannedProject(plan);
    const res = await post(projectId, "?setup_index=0");
    assert.deepEqual(
      programBlocks(res.text),
      programBlocks(programText(plan, 0, "fanuc")),
      "the route sends the kernel's program",
    );
    assert.match(res.text, /^\(MATERIAL EN AW-6061 T6 ALUMINIUM\)$/m);
  });
});
