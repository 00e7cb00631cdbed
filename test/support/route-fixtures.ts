/**
 * What the route-table suites need to call every route of the table as a real owner would: a
 * valid body per operationId, a valid upload, and for one user a resource behind every path
 * parameter (with the query strings some routes need), made through the API where it can.
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import type { RouteSpec } from "../../api/route.ts";
import { presignWorkpiece, saveWorkpiece } from "../../db/queries/workpieces.ts";
import { API_BASE_PATH } from "../../http/base-path.ts";
import { generateStandardRange } from "../../kernel/tools/catalogue/standard-range.ts";
import { colletChuck } from "../../kernel/tools/testdata/fixtures.ts";
import { asUser } from "./as-user.ts";
import type { TestApi } from "./api.ts";
import type { TestDatabase } from "./database.ts";
import { partC } from "./fixture-workpiece.ts";
import { insertOwnMachine } from "./machines.ts";
import { fileUpload } from "./multipart.ts";
import { insertTaskRecord } from "./task-records.ts";
import type { TestUser } from "./users.ts";

export const STANDARD_ENTRY = generateStandardRange()[0]!;
export const STANDARD_ASSEMBLY = STANDARD_ENTRY.assembly;
export const STANDARD_TOOL = (STANDARD_ASSEMBLY.components.at(-1) as { parametric_cutting_tool: unknown })
  .parametric_cutting_tool;

export const MHR_INPUTS = {
  acquisition_costs: 250_000,
  interest_rate: 0.06,
  required_floor_space: 20,
  maintenance_cost: 5000,
  average_power_consumption: 15,
  operating_hours: 3000,
  years: 10,
};

/** a body the route's schema accepts, so only the property under test can fail */
export const validBodies: Record<string, unknown> = {
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
export const validUploads: Record<string, { body: Buffer; contentType: string }> = {
  uploadJob: fileUpload(Buffer.from("not a job file")),
  uploadWorkpiece: fileUpload(Buffer.from("solid empty\nendsolid empty\n"), "part.stl"),
  importFusionToolLibrary: fileUpload(Buffer.from('{"data": [], "version": 15}'), "tools.json"),
};

/**
 * Path parameters that are no user's ids: the catalogue's keys, text and the same for every
 * user. The id rules (400 for a non-UUID, 404 for another user's) do not apply to them.
 */
export const SHARED_KEYS = new Set(["manufacturer", "article_number"]);

/** The owner's resources, by path parameter, and a query string each route's schema accepts. */
export interface RouteFixtures {
  ids: Record<string, string>;
  queries: Record<string, string>;
}

/** The body to send a route: its valid upload, or its valid JSON body (undefined without one). */
export function requestOptions(route: RouteSpec): { raw: { body: Buffer; contentType: string } } | { body: unknown } {
  const raw = validUploads[route.operationId];
  return raw ? { raw } : { body: validBodies[route.operationId] };
}

/** The route's path with the given ids in place of its parameters, and its valid query string. */
export function pathFor(route: RouteSpec, ids: Record<string, string>, queries: Record<string, string> = {}): string {
  return (
    route.path.replace(/\{([a-z_]+)\}/g, (_, name: string) => {
      const id = ids[name];
      if (!id) throw new Error(`no test id for {${name}} of ${route.operationId}`);
      return id;
    }) + (queries[route.operationId] ?? "")
  );
}

/**
 * Makes `owner` a resource for every path parameter of the table: a project (with a workpiece,
 * a task, and a presigned mesh URL), a webhook with a delivery, an equipment library with the
 * standard range's first assembly, a holder, a tool, and a machine only this owner is assigned
 * (`machine`, its product_id, unique in the database) with one setup cost.
 */
export async function createRouteFixtures(
  db: TestDatabase,
  api: TestApi,
  owner: TestUser,
  machine: string,
): Promise<RouteFixtures> {
  const ids: Record<string, string> = {};
  const queries: Record<string, string> = {};
  const project = await api.request<{ id: string }>("POST", "/projects", {
    key: owner.key,
    body: { name: "A", customer: "A" },
  });
  ids.project_id = project.body.id;
  ids.task_id = await insertTaskRecord(db.owner, {
    userId: owner.id,
    projectId: project.body.id,
    workerTask: "test_idle",
  });
  const webhook = await api.request<{ id: string }>("POST", "/webhooks", {
    key: owner.key,
    body: { url: "http://127.0.0.1:9/hooks" },
  });
  ids.webhook_id = webhook.body.id;
  // a task event makes the owner a delivery
  const hooked = await insertTaskRecord(db.owner, {
    userId: owner.id,
    projectId: project.body.id,
    workerTask: "test_idle",
  });
  await db.owner.query("update app_public.tasks set status = 'cancelled' where id = $1", [hooked]);
  const delivery = await db.owner.query<{ id: string }>(
    "select id from app_public.webhook_deliveries where endpoint_id = $1",
    [webhook.body.id],
  );
  ids.delivery_id = delivery.rows[0]!.id;
  const library = await api.request<{ id: string }>("POST", "/libraries/equipment", {
    key: owner.key,
    body: { library: { name: "A", assemblies: [STANDARD_ASSEMBLY] } },
  });
  ids.library_id = library.body.id;
  ids.assembly_id = STANDARD_ASSEMBLY.uuid;
  ids.holder_id = (
    await api.request<{ uuid: string }>("POST", "/libraries/holders", { key: owner.key, body: colletChuck })
  ).body.uuid;
  ids.tool_id = (
    await api.request<{ uuid: string }>("POST", "/libraries/tools", { key: owner.key, body: STANDARD_TOOL })
  ).body.uuid;
  ids.manufacturer = encodeURIComponent(STANDARD_ENTRY.manufacturer);
  ids.article_number = encodeURIComponent(STANDARD_ENTRY.article_number);
  queries.searchCatalogue = "?q=drill";
  queries.exportQuote = "?format=csv&language=de";
  await insertOwnMachine(db.owner, owner.id, machine, "Owner only");
  ids.product_id = machine;
  const cost = await api.request("POST", `/libraries/machines/${machine}/quote/setup-costs`, {
    key: owner.key,
    body: { name: "Vice", value: 45, unit: "EUR" },
  });
  assert.equal(cost.status, 201);
  ids.cost_index = "0";
  const part = await partC();
  const urls = await asUser(api.pool, owner, async (client) => {
    const saved = await saveWorkpiece(client, project.body.id, part.ingested, part.original, part.glb, part.png);
    return presignWorkpiece(client, saved!.workpiece, { apiBasePath: API_BASE_PATH });
  });
  const mesh = new URL(urls.mesh_url, api.origin);
  ids.blob_id = mesh.pathname.split("/").at(-1)!;
  queries.getPresignedFile = mesh.search;
  queries.postprocessSetup = "?setup_index=0";
  return { ids, queries };
}
