/**
 * The project viewer's app routes: the scene's shape, a setup's toolpaths read back by the web
 * app's own decoder against the plan and the program the public route writes, and the refusals.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { APP_ROUTES_PATH } from "../../http/base-path.ts";
import { firstPosition } from "../../kernel/cam/machining-time.ts";
import type { CamPlan } from "../../kernel/job/plan.ts";
import { decodeToolpaths, MOVE_CLASS } from "../../web/src/api/toolpath-buffer.ts";
import type { ViewerScene } from "../../contracts/viewer.ts";
import { startTestApi, type TestApi } from "../support/api.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import type { ErrorBody } from "../support/error-body.ts";
import { everyMovePlan } from "../support/every-move-plan.ts";
import { planningProject, projectWithPlan } from "../support/planning.ts";
import { givePassword, signIn, type TestSession } from "../support/sessions.ts";
import { createTestUser, type TestUser } from "../support/users.ts";

let db: TestDatabase;
let api: TestApi;
let alice: TestUser;
let bob: TestUser;
let aliceSession: TestSession;
let plan: CamPlan;
let planned = "";
let unplanned = "";
let withoutPart = "";
let bobs = "";

function expectError(res: { status: number; body: unknown; text: string }, status: number, code: string): void {
  assert.equal(res.status, status, res.text);
  assert.equal((res.body as ErrorBody).detail.code, code);
}

const scene = (session: TestSession, id: string) =>
  session.request<ViewerScene>("GET", `${APP_ROUTES_PATH}/projects/${id}/viewer`);
const toolpaths = (session: TestSession, id: string, index: number | string) =>
  session.request("GET", `${APP_ROUTES_PATH}/projects/${id}/setups/${index}/toolpaths`);

before(async () => {
  db = await createTestDatabase();
  api = await startTestApi(db);
  alice = await createTestUser(db.owner, "alice");
  bob = await createTestUser(db.owner, "bob");
  await givePassword(db.owner, alice.id);
  aliceSession = await signIn(api, alice.email);
  plan = everyMovePlan(true, "vise");
  planned = await projectWithPlan(api, alice, plan);
  unplanned = await planningProject(api, alice);
  withoutPart = await planningProject(api, alice, { workpiece: false });
  bobs = await projectWithPlan(api, bob, plan);
});
after(async () => {
  await api?.close();
  await db?.drop();
});

describe("the project viewer's scene", () => {
  it("lists the setups with frame, stock, workholding and blocks of operations with their tools", async () => {
    const res = await scene(aliceSession, planned);
    assert.equal(res.status, 200, res.text);
    const body = res.body;
    assert.match(body.part?.mesh_url ?? "", /^http:\/\/.+/);
    assert.equal(body.setups.length, plan.setups.length);
    body.setups.forEach((setup, s) => {
      const stored = plan.setups[s] as CamPlan["setups"][number];
      assert.deepEqual(setup.wcs, stored.wcs);
      assert.deepEqual(setup.stock, stored.stock);
      assert.equal(setup.work_offset, stored.work_offset);
      assert.equal(setup.workholding?.jaws.length, 2, "a vise's two jaws");
      assert.deepEqual(
        setup.operation_ids,
        stored.operations.map((operation) => operation.id),
      );
      const listed = setup.blocks.flatMap((block) => block.operations);
      assert.deepEqual(
        listed.map((operation) => operation.id),
        setup.operation_ids,
        "every operation in one block, in order",
      );
      for (const operation of listed) {
        const own = stored.operations.find((candidate) => candidate.id === operation.id);
        assert.equal(operation.move_count, own?.moves.length);
        assert.equal(operation.tool.diameter_mm, own?.tool.diameter);
        assert.ok((operation.tool.number ?? 0) > 0, "the job's T number");
      }
    });
  });

  it("answers the part's mesh through its presigned URL", async () => {
    const res = await scene(aliceSession, planned);
    const mesh = await fetch(res.body.part?.mesh_url ?? "");
    assert.equal(mesh.status, 200);
    assert.equal(
      Buffer.from(await mesh.arrayBuffer())
        .subarray(0, 4)
        .toString("latin1"),
      "glTF",
    );
  });
});

describe("a setup's toolpaths in binary", () => {
  it("has a polyline per operation from its first position through its moves, and the program's lines", async () => {
    for (const [s, stored] of plan.setups.entries()) {
      const res = await toolpaths(aliceSession, planned, s);
      assert.equal(res.status, 200, res.text);
      assert.equal(res.headers.get("content-type"), "application/octet-stream");
      const bytes = res.bytes;
      const decoded = decodeToolpaths(new Uint8Array(bytes).buffer);
      const posted = await api.request("POST", `/projects/${planned}/post/run?setup_index=${s}`, { key: alice.key });
      assert.equal(posted.status, 200, posted.text);
      const program = posted.text.trimEnd().split("\n");
      assert.deepEqual(decoded.program, program, "the program the public route writes");
      assert.equal(decoded.operations.length, stored.operations.length);
      decoded.operations.forEach((path, k) => {
        const operation = stored.operations[k] as CamPlan["setups"][number]["operations"][number];
        const n = path.classes.length;
        assert.ok(n > operation.moves.length, "a point per move at least, after the start");
        assert.deepEqual([...path.positions.subarray(0, 3)], [...new Float32Array(firstPosition(operation))]);
        assert.equal(path.classes[0], MOVE_CLASS.start);
        const last = operation.moves.at(-1);
        if (last && last.kind !== "drill")
          assert.deepEqual([...path.positions.subarray(3 * n - 3)], [...new Float32Array(last.to)]);
        for (let i = 1; i < n; i += 1) {
          assert.ok((path.lines[i] as number) >= (path.lines[i - 1] as number), "lines run forwards");
          const line = program[path.lines[i] as number] ?? "";
          if (path.classes[i] === MOVE_CLASS.arc) assert.match(line, /\bI-?[\d.]+ J-?[\d.]+/, `arc at ${line}`);
          if (path.classes[i] === MOVE_CLASS.plunge) assert.match(line, /\bZ-?[\d.]+/, `plunge at ${line}`);
        }
      });
      const classes = new Set(decoded.operations.flatMap((path) => [...path.classes]));
      for (const kind of ["rapid", "arc", "drill"] as const)
        assert.ok(classes.has(MOVE_CLASS[kind]), `the plan's ${kind} moves are classed so`);
    }
  });

  it("is gzip-encoded for a client that asks", async () => {
    const res = await aliceSession.request("GET", `${APP_ROUTES_PATH}/projects/${planned}/setups/0/toolpaths`, {
      headers: { "Accept-Encoding": "gzip" },
    });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("content-encoding"), "gzip");
  });
});

describe("the viewer's refusals", () => {
  it("refuses a malformed project id or setup index with 400", async () => {
    expectError(await scene(aliceSession, "not-a-uuid"), 400, "invalid_parameter");
    expectError(await toolpaths(aliceSession, planned, "x"), 400, "invalid_parameter");
    expectError(await toolpaths(aliceSession, planned, "-1"), 400, "invalid_parameter");
  });

  it("answers 404 for a setup the plan has not, another user's project and one without a part", async () => {
    expectError(await toolpaths(aliceSession, planned, plan.setups.length), 404, "not_found");
    expectError(await scene(aliceSession, bobs), 404, "not_found");
    expectError(await toolpaths(aliceSession, bobs, 0), 404, "not_found");
    expectError(await scene(aliceSession, withoutPart), 404, "job_missing");
  });

  it("answers 409 no_toolpaths before planning", async () => {
    expectError(await scene(aliceSession, unplanned), 409, "no_toolpaths");
    expectError(await toolpaths(aliceSession, unplanned, 0), 409, "no_toolpaths");
  });

  it("needs a session", async () => {
    expectError(await api.request("GET", `${APP_ROUTES_PATH}/projects/${planned}/viewer`), 401, "not_signed_in");
    expectError(
      await api.request("GET", `${APP_ROUTES_PATH}/projects/${planned}/setups/0/toolpaths`),
      401,
      "not_signed_in",
    );
  });
});
