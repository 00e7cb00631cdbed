/**
 * Rules every route of the table obeys, checked route by route so that a new route is covered
 * the day it is added: a key without the route's scopes gets 403, an id that is not an id gets
 * 400, another user's id gets 404 (a public route: it answers without a key), and the health
 * check tells ready from not ready.
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { routes } from "../../api/routes/index.ts";
import { SCOPES } from "../../auth/scopes.ts";
import { presignWorkpiece, saveWorkpiece } from "../../db/queries/workpieces.ts";
import { generateStandardRange } from "../../kernel/tools/catalogue/standard-range.ts";
import { colletChuck } from "../../kernel/tools/testdata/fixtures.ts";
import { asUser } from "../support/as-user.ts";
import { startTestApi, type TestApi } from "../support/api.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { partC } from "../support/fixture-workpiece.ts";
import { fileUpload } from "../support/multipart.ts";
import { insertTaskRecord } from "../support/task-records.ts";
import { createTestUser, type TestUser } from "../support/users.ts";

interface ErrorBody {
  detail: { code: string; details: Record<string, unknown> };
}

let db: TestDatabase;
let api: TestApi;
let alice: TestUser;
let bob: TestUser;
/** alice's resources, by path parameter */
const aliceIds: Record<string, string> = {};

const STANDARD_ENTRY = generateStandardRange()[0]!;
const STANDARD_ASSEMBLY = STANDARD_ENTRY.assembly;
const STANDARD_TOOL = (STANDARD_ASSEMBLY.components.at(-1) as { parametric_cutting_tool: unknown }).parametric_cutting_tool;

const MHR_INPUTS = {
  acquisition_costs: 250_000, interest_rate: 0.06, required_floor_space: 20, maintenance_cost: 5000,
  average_power_consumption: 15, operating_hours: 3000, years: 10,
};
/** a machine assigned to alice only (bob's keys must not reach it) */
const ALICE_MACHINE = "alice-only-mill";
/**
 * A value of the parameter's format that no user has, for the 400 rule: an id that is not a
 * UUID by default; product_id and cost_index are text and an index, so theirs break their own format.
 */
const NOT_AN_ID: Record<string, string> = { product_id: "not!a-machine", cost_index: "first" };

/** a body the route's schema accepts, so only the property under test can fail */
const validBodies: Record<string, unknown> = {
  createEquipmentLibrary: { library: { name: "Route table" } },
  updateEquipmentLibrary: { description: "Rules" },
  createAssembly: { ...STANDARD_ASSEMBLY, uuid: randomUUID() },
  updateAssembly: { name: "Renamed" },
  createHolder: colletChuck,
  updateHolder: { name: "Renamed" },
  createTool: STANDARD_TOOL,
  validateTool: STANDARD_TOOL,
  updateTool: { name: "Renamed" },
  createProject: { name: "Route table", customer: "Rules" },
  updateProject: { name: "Renamed" },
  setStockBoundingBox: { minus_x: 1, plus_x: 1, minus_y: 1, plus_y: 1, minus_z: 0, plus_z: 2 },
  startCamPlanning: { include_face_milling: true, sort_by_height: false },
  updateQuoteJob: { quantity: 2 },
  updateQuoteSettings: { tax: 19 },
  calculateMhr: MHR_INPUTS,
  setMachineMhr: MHR_INPUTS,
  updateMachineQuote: { mhr_value: 50 },
  addMachineSetupCost: { name: "Vice", value: 45, unit: "EUR" },
  createWebhook: { url: "http://127.0.0.1:9/hooks", event_types: [] },
  updateWebhook: { enabled: true },
};
/** a multipart body for the upload routes */
const validUploads: Record<string, { body: Buffer; contentType: string }> = {
  uploadJob: fileUpload(Buffer.from("not a job file")),
  uploadWorkpiece: fileUpload(Buffer.from("solid empty\nendsolid empty\n"), "part.stl"),
};
/**
 * Path parameters that are no user's ids: the catalogue's keys, text and the same for every
 * user. The id rules (400 for a non-UUID, 404 for another user's) do not apply to them.
 */
const SHARED_KEYS = new Set(["manufacturer", "article_number"]);
/** a query string the route's schema accepts (filled in before()) */
const validQueries: Record<string, string> = {};

function requestOptions(route: (typeof routes)[number]) {
  const raw = validUploads[route.operationId];
  return raw ? { raw } : { body: validBodies[route.operationId] };
}

function pathFor(route: (typeof routes)[number], ids: Record<string, string>): string {
  return route.path.replace(/\{([a-z_]+)\}/g, (_, name: string) => {
    const id = ids[name];
    if (!id) throw new Error(`no test id for {${name}} of ${route.operationId}`);
    return id;
  }) + (validQueries[route.operationId] ?? "");
}

before(async () => {
  db = await createTestDatabase();
  api = await startTestApi(db);
  alice = await createTestUser(db.owner, "alice");
  bob = await createTestUser(db.owner, "bob");
  const project = await api.request<{ id: string }>("POST", "/projects", { key: alice.key, body: { name: "A", customer: "A" } });
  aliceIds.project_id = project.body.id;
  aliceIds.task_id = await insertTaskRecord(db.owner, { userId: alice.id, projectId: project.body.id, workerTask: "test_idle" });
  const webhook = await api.request<{ id: string }>("POST", "/webhooks", { key: alice.key, body: { url: "http://127.0.0.1:9/hooks" } });
  aliceIds.webhook_id = webhook.body.id;
  // a task event makes alice a delivery
  const hooked = await insertTaskRecord(db.owner, { userId: alice.id, projectId: project.body.id, workerTask: "test_idle" });
  await db.owner.query("update app_public.tasks set status = 'cancelled' where id = $1", [hooked]);
  const delivery = await db.owner.query<{ id: string }>("select id from app_public.webhook_deliveries where endpoint_id = $1", [webhook.body.id]);
  aliceIds.delivery_id = delivery.rows[0]!.id;
  const library = await api.request<{ id: string }>("POST", "/libraries/equipment", {
    key: alice.key,
    body: { library: { name: "A", assemblies: [STANDARD_ASSEMBLY] } },
  });
  aliceIds.library_id = library.body.id;
  aliceIds.assembly_id = STANDARD_ASSEMBLY.uuid;
  aliceIds.holder_id = (await api.request<{ uuid: string }>("POST", "/libraries/holders", { key: alice.key, body: colletChuck })).body.uuid;
  aliceIds.tool_id = (await api.request<{ uuid: string }>("POST", "/libraries/tools", { key: alice.key, body: STANDARD_TOOL })).body.uuid;
  aliceIds.manufacturer = encodeURIComponent(STANDARD_ENTRY.manufacturer);
  aliceIds.article_number = encodeURIComponent(STANDARD_ENTRY.article_number);
  validQueries.searchCatalogue = "?q=drill";
  validQueries.exportQuote = "?format=csv&language=de";
  await db.owner.query(
    `insert into app_public.machines (product_id, name, control, travel_x_mm, travel_y_mm, travel_z_mm, max_spindle_rpm, max_feed_mm_min, tool_slots, default_mhr)
     values ($1, 'Alice only', 'linuxcnc', 500, 400, 300, 10000, 5000, 10, 40)`,
    [ALICE_MACHINE],
  );
  await db.owner.query("insert into app_public.user_machines (user_id, product_id, position) values ($1, $2, 100)", [alice.id, ALICE_MACHINE]);
  aliceIds.product_id = ALICE_MACHINE;
  const cost = await api.request("POST", `/libraries/machines/${ALICE_MACHINE}/quote/setup-costs`, { key: alice.key, body: { name: "Vice", value: 45, unit: "EUR" } });
  assert.equal(cost.status, 201);
  aliceIds.cost_index = "0";
  const part = await partC();
  const urls = await asUser(api.pool, alice, async (client) => {
    const saved = await saveWorkpiece(client, project.body.id, part.ingested, part.original, part.glb, part.png);
    return presignWorkpiece(client, saved!.workpiece);
  });
  const mesh = new URL(urls.mesh_url, api.origin);
  aliceIds.blob_id = mesh.pathname.split("/").at(-1)!;
  validQueries.getPresignedFile = mesh.search;
  validQueries.postprocessSetup = "?setup_index=0";
});
after(async () => {
  await api.close();
  await db.drop();
});

describe("every route of the table", () => {
  for (const route of routes) {
    const label = `${route.method.toUpperCase()} ${route.path}`;

    it(`${label} refuses a key without ${route.scopes.join(" and ")} with 403 and changes nothing`, async () => {
      for (const missing of route.scopes) {
        const key = await alice.keyWith(SCOPES.filter((scope) => scope !== missing));
        const before = await db.owner.query("select count(*)::int as n, max(updated_at) as t from app_public.projects");
        const res = await api.request<ErrorBody>(route.method.toUpperCase(), pathFor(route, aliceIds), { key, ...requestOptions(route) });
        assert.equal(res.status, 403, `${label} without ${missing}`);
        assert.equal(res.body.detail.code, "insufficient_scope");
        assert.deepEqual(res.body.detail.details.missing_scopes, [missing]);
        const afterwards = await db.owner.query("select count(*)::int as n, max(updated_at) as t from app_public.projects");
        assert.deepEqual(afterwards.rows, before.rows, "nothing changed");
      }
    });

    if (route.public) {
      it(`${label} is public: it declares no scope and answers without a key`, async () => {
        assert.deepEqual(route.scopes, []);
        const res = await api.request(route.method.toUpperCase(), pathFor(route, aliceIds), { key: null, ...requestOptions(route) });
        assert.equal(res.status, 200, label);
      });
    }

    const allParams = [...route.path.matchAll(/\{([a-z_]+)\}/g)].map((m) => m[1]!);
    const params = allParams.filter((param) => !SHARED_KEYS.has(param));
    if (params.length === 0) continue;

    it(`${label} answers 400 naming the parameter for an id that is not an id`, async () => {
      for (const param of params) {
        const res = await api.request<ErrorBody>(route.method.toUpperCase(), pathFor(route, { ...aliceIds, [param]: NOT_AN_ID[param] ?? "12345" }), {
          key: alice.key,
          ...requestOptions(route),
        });
        assert.equal(res.status, 400);
        assert.equal(res.body.detail.code, "invalid_parameter");
        assert.deepEqual(
          (res.body.detail.details.fields as { field: string }[]).map((f) => f.field),
          [`path.${param}`],
        );
      }
    });

    if (route.public) continue; // a presigned URL is for whoever holds it

    it(`${label} answers 404 to another user for the owner's ids, and the owner's data is untouched`, async () => {
      const before = await db.owner.query("select * from app_public.projects where id = $1", [aliceIds.project_id]);
      const res = await api.request<ErrorBody>(route.method.toUpperCase(), pathFor(route, aliceIds), { key: bob.key, ...requestOptions(route) });
      assert.equal(res.status, 404, label);
      assert.equal(res.body.detail.code, "not_found");
      const afterwards = await db.owner.query("select * from app_public.projects where id = $1", [aliceIds.project_id]);
      assert.deepEqual(afterwards.rows, before.rows);
    });
  }
});

describe("GET /healthz", () => {
  it("answers 503 naming the check that is not ready, and 200 once all are", async () => {
    let workers: "ok" | "starting" = "starting";
    const starting = await startTestApi(db, { health: () => ({ migrations: "ok", workers }) });
    try {
      const early = await starting.request<{ status: string; checks: Record<string, string> }>("GET", "/healthz");
      assert.equal(early.status, 503);
      assert.deepEqual(early.body.checks, { migrations: "ok", workers: "starting", database: "ok" });
      workers = "ok";
      const ready = await starting.request<{ status: string }>("GET", "/healthz");
      assert.equal(ready.status, 200);
      assert.equal(ready.body.status, "ok");
    } finally {
      await starting.close();
    }
  });
});
