/**
 * The per-setup cost overrides of a quote across real re-plans (docs/quote.md, "Re-planning"):
 * partC.step planned through the API on the service's own geometry thread and worker, its
 * webhooks delivered to a real receiver on loopback. A planning costs seconds, so each is made
 * once and read by several tests.
 */
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { repoRoot } from "../../config/env.ts";
import type { SetupSummary } from "../../kernel/job/plan.ts";
import type { SetupCostEntry } from "../../kernel/quote/layers.ts";
import { sameDirection } from "../../kernel/quote/setup-cost-carry.ts";
import type { Assembly } from "../../kernel/tools/assembly.ts";
import type { PlanCamResult } from "../../tasks/automated_cam_planning.ts";
import { deliverWebhookTask } from "../../tasks/deliver_webhook.ts";
import { createGeometryPool, type GeometryPool } from "../../workers/geometry/pool.ts";
import { startWorkerRunner, type WorkerRunner } from "../../workers/runner.ts";
import { startTestApi, type TestApi } from "../support/api.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { fileUpload } from "../support/multipart.ts";
import { catalogueAssembly, PLAN_OPTIONS, planningProject, STOCK_OFFSETS, type PlanningStarted } from "../support/planning.ts";
import { waitFor, waitForTask } from "../support/task-records.ts";
import { createTestUser, type TestUser } from "../support/users.ts";
import { startReceiver, type ReceivedWebhook, type TestReceiver } from "../support/webhook-receiver.ts";

/** a planning takes 5 to 40 s on this machine; the suite runs files two at a time */
const WAIT = { timeoutMs: 600_000, intervalMs: 200 };
const TERMINAL = new Set(["success", "failed", "cancelled"]);
const PART = fs.readFileSync(path.resolve(repoRoot, "../shared/fixtures/parts/partC.step"));

type Result = PlanCamResult;
interface Warning {
  code: string;
  message: string;
}
interface Breakdown {
  setups: { setup_id: string; setup_cost: { name: string; source: string; amount: number } }[];
  warnings: Warning[];
}
interface QuoteJob {
  setup_costs: Record<string, SetupCostEntry>;
  setup_costs_dropped: { job_id: string; setup_id: string; name: string; direction: number[]; entry: SetupCostEntry }[];
}
interface QuoteSummary {
  job_id: string;
  sendable: boolean;
  completeness: { status: string; reasons: Warning[] } | null;
  setup_costs_dropped: { setup_id: string; name: string; direction: number[] }[];
}

let db: TestDatabase;
let api: TestApi;
let geometry: GeometryPool;
let runner: WorkerRunner;
let receiver: TestReceiver;
let alice: TestUser;
let secret: string;

before(async () => {
  db = await createTestDatabase();
  // a loaded machine (the suite runs files two at a time) can take minutes to start OCCT
  geometry = createGeometryPool({ size: 1, timeoutMs: 600_000 });
  await geometry.ready();
  api = await startTestApi(db, { geometry, env: { RATE_LIMIT_PER_MINUTE: "100000" } });
  runner = await startWorkerRunner({
    ownerUrl: db.ownerUrl,
    taskNames: ["plan_cam", "deliver_webhook"],
    extraTasks: { deliver_webhook: deliverWebhookTask({ allowed: ["loopback"], requireHttps: false, timeoutMs: 5000 }) },
    services: { geometry },
    concurrency: 2,
    heartbeatSeconds: 1,
    leaseStaleSeconds: 60,
    pollIntervalMs: 100,
  });
  receiver = await startReceiver();
  alice = await createTestUser(db.owner, "alice");
  const endpoint = await api.request<{ secret: string }>("POST", "/webhooks", { key: alice.key, body: { url: receiver.url, event_types: ["task.succeeded", "quote.ready"] } });
  assert.equal(endpoint.status, 201, endpoint.text);
  secret = endpoint.body.secret;
});
after(async () => {
  await runner?.stop();
  await api?.close();
  await geometry?.close();
  await receiver?.close();
  await db?.drop();
});

async function newLibrary(name: string, assemblies: unknown[]): Promise<string> {
  const res = await api.request<{ id: string }>("POST", "/libraries/equipment", { key: alice.key, body: { library: { name, assemblies } } });
  assert.equal(res.status, 201, res.text);
  return res.body.id;
}

/** a project of alice's with partC.step uploaded (read by OCCT) and stock around it */
async function partCProject(library: Assembly[]): Promise<string> {
  const projectId = await planningProject(api, alice, { library, workpiece: false });
  const upload = await api.request("POST", `/projects/${projectId}/workpiece`, { key: alice.key, raw: fileUpload(PART, "partC.step") });
  assert.equal(upload.status, 201, upload.text);
  const stock = await api.request("POST", `/projects/${projectId}/stock/bounding-box`, { key: alice.key, body: STOCK_OFFSETS });
  assert.equal(stock.status, 200, stock.text);
  return projectId;
}

interface Planned {
  taskId: string;
  result: Result;
  succeeded: ReceivedWebhook;
  quoteReady: ReceivedWebhook;
}

/** plans the project and waits for its task and both webhooks */
async function plan(projectId: string): Promise<Planned> {
  const res = await api.request<PlanningStarted>("POST", `/projects/${projectId}/automation/cam-planning`, { key: alice.key, body: PLAN_OPTIONS });
  assert.equal(res.status, 202, res.text);
  const taskId = res.body.task_id;
  const task = await waitForTask(db.owner, taskId, "finished", (t) => TERMINAL.has(t.status), WAIT);
  assert.equal(task.status, "success", JSON.stringify(task.error));
  const delivered = (type: string) => receiver.received.find((r) => r.body.type === type && r.body.data.task_id === taskId);
  const quoteReady = await waitFor("quote.ready", async () => delivered("quote.ready"), { timeoutMs: 30_000, intervalMs: 100 });
  const got = await api.request<{ status: string; result: Result }>("GET", `/tasks/${taskId}`, { key: alice.key });
  assert.equal(got.status, 200, got.text);
  return { taskId, result: got.body.result, succeeded: delivered("task.succeeded")!, quoteReady };
}

const quoteOf = (planned: Planned) => planned.quoteReady.body.data.quote as QuoteSummary;

async function breakdown(projectId: string): Promise<Breakdown> {
  const res = await api.request<Breakdown>("GET", `/projects/${projectId}/quote`, { key: alice.key });
  assert.equal(res.status, 200, res.text);
  return res.body;
}

/** the setup of `plan` from the direction of `setup`: there is at most one per direction on partC */
function sameSide(setup: { direction: readonly number[] }, plan: readonly SetupSummary[]): SetupSummary | undefined {
  return plan.find((s) => sameDirection(s.direction as [number, number, number], setup.direction as [number, number, number]));
}

let tinyPlanning: Promise<{ projectId: string; planned: Planned }> | undefined;

/** partC planned once with one 10 mm end mill: the plan the describes below read (and re-plan last) */
function tinyLibraryPlanning(): Promise<{ projectId: string; planned: Planned }> {
  tinyPlanning ??= (async () => {
    const projectId = await partCProject([catalogueAssembly("CentreCuttingEndMill", 10)]);
    return { projectId, planned: await plan(projectId) };
  })();
  return tinyPlanning;
}

describe("per-setup cost overrides across re-plans (the tiny library's project)", () => {
  let projectId: string;
  let first: SetupSummary[];
  let second: SetupSummary[];
  const entryFor = (setup: SetupSummary, i: number): SetupCostEntry => ({ is_fixed_price: "true", name: `Clamp ${setup.name}`, value: "0", unit: "EUR", fix_price: String(20 + i) });

  before(async () => {
    const tiny = await tinyLibraryPlanning();
    projectId = tiny.projectId;
    first = tiny.planned.result.setups;
    const overrides = Object.fromEntries(first.map((s, i) => [s.id, entryFor(s, i)]));
    const res = await api.request("PATCH", `/projects/${projectId}/quote/job`, { key: alice.key, body: { setup_costs: overrides } });
    assert.equal(res.status, 200, res.text);
  });

  it("keeps every override on the new setup of the same direction when the re-plan has them all", async () => {
    const again = await plan(projectId);
    const next = again.result.setups;
    second = next;
    assert.equal(next.length, first.length);
    const job = (await api.request<QuoteJob>("GET", `/projects/${projectId}/quote/job`, { key: alice.key })).body;
    const expected = Object.fromEntries(next.map((s) => [s.id, entryFor(sameSide(s, first)!, first.indexOf(sameSide(s, first)!))]));
    assert.deepEqual(job.setup_costs, expected, "keyed by the new setups");
    assert.ok(next.every((s) => !first.some((f) => f.id === s.id)), "a plan's setups have ids of their own");
    assert.deepEqual(job.setup_costs_dropped, []);
    const b = await breakdown(projectId);
    assert.deepEqual(b.setups.map((s) => [s.setup_cost.source, s.setup_cost.name]), next.map((s) => ["quote_job", `Clamp ${sameSide(s, first)!.name}`]));
    assert.ok(!b.warnings.some((w) => w.code === "setup_cost_override_dropped"), JSON.stringify(b.warnings));
    assert.deepEqual(quoteOf(again).setup_costs_dropped, []);
  });

  it("drops and warns about an override whose direction a re-plan with other stock and tools no longer has", async () => {
    const overrides = (await api.request<QuoteJob>("GET", `/projects/${projectId}/quote/job`, { key: alice.key })).body.setup_costs;
    const current = second;
    // a 20 mm end mill reaches nothing from one of partC's sides, so that setup goes; and the
    // stock changes first, so the job before the re-plan has no plan of its own
    const library = await newLibrary("Large tools", [catalogueAssembly("CentreCuttingEndMill", 20)]);
    assert.equal((await api.request("PATCH", `/projects/${projectId}`, { key: alice.key, body: { library_id: library } })).status, 200);
    const stock = await api.request("POST", `/projects/${projectId}/stock/bounding-box`, { key: alice.key, body: { ...STOCK_OFFSETS, plus_z: 6 } });
    assert.equal(stock.status, 200, stock.text);
    const replanned = await plan(projectId);
    const next = replanned.result.setups;
    const lost = current.filter((s) => !sameSide(s, next));
    assert.ok(lost.length > 0, `the re-plan keeps every side: ${next.map((s) => s.name).join(", ")}`);

    const job = (await api.request<QuoteJob>("GET", `/projects/${projectId}/quote/job`, { key: alice.key })).body;
    assert.deepEqual(
      job.setup_costs,
      Object.fromEntries(next.filter((s) => sameSide(s, current)).map((s) => [s.id, overrides[sameSide(s, current)!.id]!])),
    );
    assert.deepEqual(
      job.setup_costs_dropped,
      lost.map((s) => ({ job_id: replanned.result.job_id, setup_id: s.id, name: s.name, direction: s.direction, entry: overrides[s.id]! })),
    );
    const warnings = (await breakdown(projectId)).warnings.filter((w) => w.code === "setup_cost_override_dropped");
    assert.equal(warnings.length, lost.length);
    for (const s of lost) {
      assert.ok(warnings.some((w) => w.message.includes(`"${overrides[s.id]!.name}"`) && w.message.includes(`of setup ${s.name} (direction `)), JSON.stringify(warnings));
    }
    const quote = quoteOf(replanned);
    assert.deepEqual(quote.setup_costs_dropped, lost.map((s) => ({ setup_id: s.id, name: s.name, direction: s.direction })).sort((a, b) => (a.name < b.name ? -1 : 1)));
    assert.equal(quote.sendable, false);
  });

  it("refuses an override keyed by a setup of an earlier plan", async () => {
    const res = await api.request<{ detail: { code: string; details: { fields: { code: string }[] } } }>("PATCH", `/projects/${projectId}/quote/job`, {
      key: alice.key,
      body: { setup_costs: { [first[0]!.id]: entryFor(first[0]!, 0) } },
    });
    assert.equal(res.status, 400);
    assert.equal(res.body.detail.details.fields[0]?.code, "unknown_reference");
  });
});
