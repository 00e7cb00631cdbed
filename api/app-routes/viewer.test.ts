/**
 * The viewer's data routes on a real plan: partC planned through the service (OCCT, the planner,
 * the worker), then its simulated stock after operations and its recognised features read with a
 * session, decoded and meshed by the web app's own modules.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { APP_ROUTES_PATH } from "../../http/base-path.ts";
import type { PlanSummary } from "../../kernel/job/plan.ts";
import { everydayTools, PlanningService } from "../../test/support/planning-service.ts";
import { givePassword, signIn, type TestSession } from "../../test/support/sessions.ts";
import { createTestUser } from "../../test/support/users.ts";
import {
  classCounts,
  decodeStockField,
  STOCK_COLOURS,
  type StockField,
  stockMesh,
} from "../../test/support/viewer-stock.ts";

interface FeaturesAnswer {
  job_id: string;
  features: {
    id: number;
    class: string;
    faces: number[];
    depth_mm: number | null;
    width_mm: number | null;
    corner_radius_mm: number | null;
    hole: { diameter_mm: number; depth_mm: number; through: boolean } | null;
    setups: number[];
  }[];
}

interface ErrorAnswer {
  detail: { code: string; details: Record<string, unknown> };
}

let service: PlanningService;
let session: TestSession;
let planned = "";
let unplanned = "";
let bobs = "";
let summary: PlanSummary;
let stockBox: { min: number[]; max: number[] };

const stockPath = (project: string, setup: number | string, query = "") =>
  `${APP_ROUTES_PATH}/projects/${project}/setups/${setup}/stock${query}`;

async function stockAfter(setup: number, after?: number): Promise<{ field: StockField; ms: number; bytes: number }> {
  const started = performance.now();
  const res = await session.request("GET", stockPath(planned, setup, after === undefined ? "" : `?after=${after}`));
  const ms = performance.now() - started;
  assert.equal(res.status, 200, res.text);
  assert.equal(res.headers.get("content-type"), "application/octet-stream");
  const copy = new Uint8Array(res.bytes).buffer;
  return { field: decodeStockField(copy), ms, bytes: res.bytes.byteLength };
}

before(async () => {
  service = await PlanningService.start();
  const { api, db, user } = service;
  planned = await service.stepProject(everydayTools());
  const task = await service.plan(planned);
  assert.equal(task.status, "success", JSON.stringify(task.error));
  unplanned = await service.stepProject(everydayTools());
  const bob = await createTestUser(db.owner, "bob");
  const res = await api.request<{ id: string }>("POST", "/projects", {
    key: bob.key,
    body: { name: "B", customer: "" },
  });
  assert.equal(res.status, 201, res.text);
  bobs = res.body.id;
  await givePassword(db.owner, user.id);
  session = await signIn(api, user.email);
  const job = await db.owner.query<{ plan_summary: PlanSummary; stock: { min: number[]; max: number[] } }>(
    "select j.plan_summary, j.stock from app_public.jobs j join app_public.projects p on p.current_job_id = j.id where p.id = $1",
    [planned],
  );
  summary = job.rows[0]!.plan_summary;
  stockBox = job.rows[0]!.stock;
});
after(async () => {
  await service?.stop();
});

describe("the viewer's simulated stock", () => {
  it("starts the first setup from the stock box: every cell at its top, none cut into", async (t) => {
    const { field, ms, bytes } = await stockAfter(0, -1);
    t.diagnostic(
      `setup 0 before its first operation: ${field.nx} x ${field.ny} cells, ${bytes} bytes, ${ms.toFixed(0)} ms`,
    );
    assert.ok(field.nx <= 512 && field.ny <= 512);
    assert.ok(field.heights.every((h) => Math.abs(h - field.top) < 1e-4));
    assert.equal(classCounts(field).cut_into, 0);
    assert.ok(classCounts(field).left > 0, "the uncut stock stands above the part");
    assert.equal(field.tolerance_mm, 0.1, "the planner's finishing tolerance");
  });

  it("leaves every setup mostly within tolerance after its last operation, cutting into the part nowhere", async (t) => {
    assert.ok(summary.setups.length > 1);
    for (const [index, setup] of summary.setups.entries()) {
      assert.equal(setup.verification.gouges, 0, "the plan has no gouge");
      const first = await stockAfter(index, -1);
      const last = await stockAfter(index);
      const counts = classCounts(last.field);
      t.diagnostic(
        `setup ${index} (${setup.name}): ${JSON.stringify(counts)}, left ${first.field.material_left_mm3.toFixed(0)} -> ` +
          `${last.field.material_left_mm3.toFixed(0)} mm³, ${last.bytes} bytes, ${last.ms.toFixed(0)} ms`,
      );
      assert.equal(counts.cut_into, 0, `setup ${index}: no cell cut into the part`);
      assert.ok(counts.within > counts.left, `setup ${index}: more cells within the tolerance than left`);
      assert.ok(last.field.material_left_mm3 < first.field.material_left_mm3, "the setup removed material");
    }
  });

  it("removes material operation by operation, and answers the last when after is not given", async () => {
    const operations = summary.setups[0]!.operations.length;
    let previous = Number.POSITIVE_INFINITY;
    for (const after of [-1, 0, Math.floor(operations / 2), operations - 1]) {
      const { field } = await stockAfter(0, after);
      assert.ok(field.material_left_mm3 <= previous + 1e-6, `after ${after}: no material comes back`);
      previous = field.material_left_mm3;
    }
    const implicit = await stockAfter(0);
    assert.equal(implicit.field.material_left_mm3, previous);
  });

  it("meshes the stock as coloured triangles within the stock box, red nowhere", async (t) => {
    const { field } = await stockAfter(0);
    const started = performance.now();
    const mesh = stockMesh(field);
    t.diagnostic(`setup 0's stock: ${mesh.triangles} triangles in ${(performance.now() - started).toFixed(0)} ms`);
    assert.equal(mesh.positions.length, mesh.triangles * 9);
    assert.equal(mesh.colours.length, mesh.positions.length);
    const tops = field.heights.filter((h) => h > field.bottom + 1e-4).length;
    assert.ok(mesh.triangles >= 2 * tops, "two triangles for every cell with material, walls beside");
    for (let v = 0; v < mesh.positions.length; v += 3) {
      for (let a = 0; a < 3; a += 1) {
        const p = mesh.positions[v + a] as number;
        assert.ok(p >= stockBox.min[a]! - 1e-3 && p <= stockBox.max[a]! + 1e-3, `vertex ${v / 3} inside the stock box`);
      }
    }
    const red = STOCK_COLOURS[2]!;
    for (let v = 0; v < mesh.colours.length; v += 3) {
      const isRed = [0, 1, 2].every((a) => Math.abs((mesh.colours[v + a] as number) - red[a]!) < 1e-6);
      assert.ok(!isRed, "no red vertex on a plan without gouges");
    }
  });

  it("answers 400 for an index that is not one or out of range", async () => {
    const operations = summary.setups[0]!.operations.length;
    const cases: [string, string][] = [
      [stockPath(planned, 0, "?after=abc"), "invalid_parameter"],
      [stockPath(planned, 0, "?after=-2"), "invalid_parameter"],
      [stockPath(planned, 0, "?after=1.5"), "invalid_parameter"],
      [stockPath(planned, 0, "?before=1"), "invalid_parameter"],
      [stockPath(planned, "x"), "invalid_parameter"],
      [stockPath(planned, -1), "invalid_parameter"],
      [stockPath(planned, 0, `?after=${operations}`), "operation_index_out_of_range"],
      [stockPath(planned, summary.setups.length), "setup_index_out_of_range"],
      [stockPath("not-a-uuid", 0), "invalid_parameter"],
    ];
    for (const [path, code] of cases) {
      const res = await session.request<ErrorAnswer>("GET", path);
      assert.equal(res.status, 400, `${path}: ${res.text}`);
      assert.equal(res.body.detail.code, code, path);
    }
  });
});

describe("the viewer's recognised features", () => {
  it("answers partC's features with their classes, faces, parameters and the setups that make them", async () => {
    const res = await session.request<FeaturesAnswer>("GET", `${APP_ROUTES_PATH}/projects/${planned}/features`);
    assert.equal(res.status, 200, res.text);
    const { features } = res.body;
    assert.ok(features.length > 5, `partC has features (${features.length})`);
    const part = await session.request<{ part: { face_count: number } }>(
      "GET",
      `${APP_ROUTES_PATH}/projects/${planned}/part`,
    );
    const faceCount = part.body.part.face_count;
    const faces = new Set<number>();
    for (const feature of features) {
      assert.ok(feature.faces.length > 0, `feature ${feature.id} has faces`);
      for (const face of feature.faces) {
        assert.ok(Number.isInteger(face) && face >= 0 && face < faceCount, `face ${face} is one of the part's`);
        assert.ok(!faces.has(face), `face ${face} belongs to one feature`);
        faces.add(face);
      }
      for (const setup of feature.setups) assert.ok(setup >= 0 && setup < summary.setups.length);
      if (feature.hole) assert.ok(feature.hole.diameter_mm > 0 && feature.hole.depth_mm > 0);
    }
    const classes = new Set(features.map((f) => f.class));
    assert.ok(classes.size > 1, `more than one class: ${[...classes].join(", ")}`);
    assert.ok(
      features.some((f) => f.setups.length > 0),
      "some features are made by a setup",
    );
    const operationFeatures = new Set(summary.setups.flatMap((s) => s.operations.flatMap((o) => o.features)));
    for (const id of operationFeatures) {
      const feature = features.find((f) => f.id === id);
      assert.ok(feature && feature.setups.length > 0, `feature ${id}, named by an operation, has its setup`);
    }
  });
});

describe("a job imported from a .famc file", () => {
  it("is planned without a planning task: the page is told so, and the viewer's scene and toolpaths answer", async () => {
    const imported = await service.importedProject(planned);
    const part = (project: string) =>
      session.request<{ planned: boolean }>("GET", `${APP_ROUTES_PATH}/projects/${project}/part`);
    assert.equal((await part(imported)).body.planned, true, "the imported job has its plan");
    assert.equal((await part(planned)).body.planned, true);
    assert.equal((await part(unplanned)).body.planned, false, "a workpiece not planned yet");
    const tasks = await service.api.request<{ items: unknown[] }>("GET", `/tasks/by-project/${imported}`, {
      key: service.user.key,
    });
    assert.deepEqual(tasks.body.items, [], "no planning task");
    const scene = await session.request<{ setups: unknown[] }>("GET", `${APP_ROUTES_PATH}/projects/${imported}/viewer`);
    assert.equal(scene.status, 200, scene.text);
    assert.equal(scene.body.setups.length, summary.setups.length);
    const toolpaths = await session.request("GET", `${APP_ROUTES_PATH}/projects/${imported}/setups/0/toolpaths`);
    assert.equal(toolpaths.status, 200, toolpaths.text);
    assert.ok(toolpaths.bytes.byteLength > 0);
  });
});

describe("the viewer's routes refuse", () => {
  const paths = (project: string) => [stockPath(project, 0), `${APP_ROUTES_PATH}/projects/${project}/features`];

  it("401 without a session", async () => {
    for (const path of paths(planned)) {
      const res = await service.api.request<ErrorAnswer>("GET", path);
      assert.equal(res.status, 401, res.text);
    }
  });

  it("404 for another user's project and an unknown one", async () => {
    for (const project of [bobs, "00000000-0000-4000-8000-000000000000"]) {
      for (const path of paths(project)) {
        const res = await session.request<ErrorAnswer>("GET", path);
        assert.equal(res.status, 404, res.text);
        assert.equal(res.body.detail.code, "not_found");
      }
    }
  });

  it("409 no_toolpaths for a project not planned", async () => {
    for (const path of paths(unplanned)) {
      const res = await session.request<ErrorAnswer>("GET", path);
      assert.equal(res.status, 409, res.text);
      assert.equal(res.body.detail.code, "no_toolpaths");
    }
  });
});
