/**
 * How complete a plan is, as every answer after a real planning says it: partC.step planned
 * through the API on the service's own geometry thread and worker, its webhooks delivered to a
 * real receiver on loopback, then the task, task.succeeded and quote.ready, the breakdown and
 * both exports in both languages. And the per-setup cost overrides across re-plans (docs/quote.md,
 * "Re-planning"). A planning costs seconds, so each is made once and read by several tests, in
 * the order the describes run: the overrides reuse the tiny library's project.
 */
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { designFeedbackText } from "../../kernel/quote/design-feedback-text.ts";
import ExcelJS from "exceljs";
import { QuoteReadyEvent, WebhookEvent } from "../../api/openapi/webhooks.ts";
import { SCOPES } from "../../auth/scopes.ts";
import { repoRoot } from "../../config/env.ts";
import type { Completeness } from "../../kernel/cam/plan-types.ts";
import type { DesignFeedbackItem } from "../../kernel/dfm/types.ts";
import type { SetupSummary } from "../../kernel/job/plan.ts";
import { incompletePlanBanner, planIncompleteMessage } from "../../kernel/quote/completeness-text.ts";
import type { SetupCostEntry } from "../../kernel/quote/layers.ts";
import { sameDirection } from "../../kernel/quote/setup-cost-carry.ts";
import type { Assembly } from "../../kernel/tools/assembly.ts";
import { starterLibrary } from "../../kernel/tools/catalogue/starter-library.ts";
import { deliverWebhookTask } from "../../tasks/deliver_webhook.ts";
import type { PlanCamResult } from "../../tasks/automated_cam_planning.ts";
import { verifySignature } from "../../webhooks/signature.ts";
import { createGeometryPool, type GeometryPool } from "../../geometry-pool/pool.ts";
import { startWorkerRunner, type WorkerRunner } from "../../workers/runner.ts";
import { startTestApi, type TestApi } from "../support/api.ts";
import { parseCsv } from "../support/csv.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { fileUpload } from "../support/multipart.ts";
import {
  catalogueAssembly,
  PLAN_OPTIONS,
  planningProject,
  STOCK_OFFSETS,
  type PlanningStarted,
} from "../support/planning.ts";
import { waitFor, waitForTask } from "../support/task-records.ts";
import { createTestUser, type TestUser } from "../support/users.ts";
import { startReceiver, type ReceivedWebhook, type TestReceiver } from "../support/webhook-receiver.ts";

/** a planning takes 5 to 40 s on this machine; the suite runs files two at a time */
const WAIT = { timeoutMs: 600_000, intervalMs: 200 };
const TERMINAL = new Set(["success", "failed", "cancelled"]);
const PART = fs.readFileSync(path.resolve(repoRoot, "../shared/fixtures/parts/partC.step"));

type Result = PlanCamResult & { completeness: Completeness; design_feedback: DesignFeedbackItem[] };
interface Warning {
  code: string;
  message: string;
}
interface Breakdown {
  total_price: number;
  direct_cost: number;
  lines: { kind: string; ref: string | null; quantity: number; unit: string; rate: number; amount: number }[];
  machining_time_s: number;
  setups: { setup_id: string; setup_cost: { name: string; source: string; amount: number } }[];
  warnings: Warning[];
  design_feedback: DesignFeedbackItem[];
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
    extraTasks: {
      deliver_webhook: deliverWebhookTask({ allowed: ["loopback"], requireHttps: false, timeoutMs: 5000 }),
    },
    services: { geometry },
    concurrency: 2,
    heartbeatSeconds: 1,
    leaseStaleSeconds: 60,
    pollIntervalMs: 100,
  });
  receiver = await startReceiver();
  alice = await createTestUser(db.owner, "alice");
  const endpoint = await api.request<{ secret: string }>("POST", "/webhooks", {
    key: alice.key,
    body: { url: receiver.url, event_types: ["task.succeeded", "quote.ready"] },
  });
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
  const res = await api.request<{ id: string }>("POST", "/libraries/equipment", {
    key: alice.key,
    body: { library: { name, assemblies } },
  });
  assert.equal(res.status, 201, res.text);
  return res.body.id;
}

/** a project of alice's with partC.step uploaded (read by OCCT) and stock around it */
async function partCProject(library: Assembly[]): Promise<string> {
  const projectId = await planningProject(api, alice, { library, workpiece: false });
  const upload = await api.request("POST", `/projects/${projectId}/workpiece`, {
    key: alice.key,
    raw: fileUpload(PART, "partC.step"),
  });
  assert.equal(upload.status, 201, upload.text);
  const stock = await api.request("POST", `/projects/${projectId}/stock/bounding-box`, {
    key: alice.key,
    body: STOCK_OFFSETS,
  });
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
async function plan(projectId: string, options: Record<string, unknown> = PLAN_OPTIONS): Promise<Planned> {
  const res = await api.request<PlanningStarted>("POST", `/projects/${projectId}/automation/cam-planning`, {
    key: alice.key,
    body: options,
  });
  assert.equal(res.status, 202, res.text);
  const taskId = res.body.task_id;
  const task = await waitForTask(db.owner, taskId, "finished", (t) => TERMINAL.has(t.status), WAIT);
  assert.equal(task.status, "success", JSON.stringify(task.error));
  const delivered = (type: string) =>
    receiver.received.find((r) => r.body.type === type && r.body.data.task_id === taskId);
  const quoteReady = await waitFor("quote.ready", async () => delivered("quote.ready"), {
    timeoutMs: 30_000,
    intervalMs: 100,
  });
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

async function exported(projectId: string, format: "csv" | "excel", language: "en" | "de") {
  const res = await api.request("POST", `/projects/${projectId}/quote/export?format=${format}&language=${language}`, {
    key: alice.key,
  });
  assert.equal(res.status, 200, res.text);
  return res;
}

async function csvRows(projectId: string, language: "en" | "de"): Promise<string[][]> {
  return parseCsv((await exported(projectId, "csv", language)).text, language === "de" ? ";" : ",");
}

async function sheetOf(projectId: string, language: "en" | "de"): Promise<ExcelJS.Worksheet> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load((await exported(projectId, "excel", language)).bytes as unknown as ArrayBuffer);
  return workbook.worksheets[0]!;
}

/** the setup of `plan` from the direction of `setup`: there is at most one per direction on partC */
function sameSide(setup: { direction: readonly number[] }, plan: readonly SetupSummary[]): SetupSummary | undefined {
  return plan.find((s) =>
    sameDirection(s.direction as [number, number, number], setup.direction as [number, number, number]),
  );
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

describe("a plan a tiny library cannot finish (one 10 mm end mill)", () => {
  let projectId: string;
  let planned: Planned;
  let completeness: Completeness;
  before(async () => {
    ({ projectId, planned } = await tinyLibraryPlanning());
    completeness = planned.result.completeness;
  });

  it("succeeds as a task (it ran) with its completeness incomplete, the reasons in figures", () => {
    assert.equal(completeness.status, "incomplete", JSON.stringify(completeness));
    assert.ok(completeness.reasons.length > 0);
    for (const reason of completeness.reasons) assert.match(reason.message, /\d/, `${reason.code}: a figure`);
    if (completeness.reasons.some((r) => r.code === "hole_not_made")) assert.ok(completeness.holes_not_made.length > 0);
    if (completeness.reasons.some((r) => r.code === "material_left")) {
      assert.ok(completeness.material_left.surface_pct > completeness.material_left.surface_limit_pct);
    }
  });

  it("says so in the signed task.succeeded and quote.ready bodies: the result's completeness, and quote.ready's quote not sendable", () => {
    for (const event of [planned.succeeded, planned.quoteReady]) {
      assert.equal(verifySignature(String(event.headers["x-service-signature"]), event.raw, secret).ok, true);
      assert.deepEqual((event.body.data.result as Result).completeness, completeness, event.body.type);
      assert.equal(event.body.data.status, "success");
    }
    assert.ok(
      WebhookEvent.safeParse(planned.succeeded.body).success,
      "task.succeeded as the OpenAPI document describes it",
    );
    const parsed = QuoteReadyEvent.safeParse(planned.quoteReady.body);
    assert.ok(parsed.success, parsed.error?.message);
    assert.deepEqual(quoteOf(planned), {
      job_id: planned.result.job_id,
      sendable: false,
      completeness: { status: "incomplete", reasons: completeness.reasons },
      setup_costs_dropped: [],
    });
    assert.equal(planned.succeeded.body.data.quote, undefined, "only quote.ready carries the quote");
  });

  it("warns plan_incomplete first in the breakdown, in figures, and still prices the plan", async () => {
    const b = await breakdown(projectId);
    assert.equal(b.warnings[0]?.code, "plan_incomplete", JSON.stringify(b.warnings));
    const message = b.warnings[0]!.message;
    assert.equal(message, planIncompleteMessage(completeness));
    assert.match(message, /^the plan is incomplete: /);
    const holes = completeness.holes_not_made.length;
    if (completeness.reasons.some((r) => r.code === "hole_not_made"))
      assert.ok(message.includes(`${holes} hole${holes === 1 ? "" : "s"} not made`), message);
    if (completeness.reasons.some((r) => r.code === "material_left"))
      assert.match(message, /% of the part's surface under material left \(limit [\d.]+ %/);
    assert.ok(b.machining_time_s > 0 && b.total_price > 0, "the plan is priced as it is");
  });

  for (const language of ["en", "de"] as const) {
    const lead = {
      en: "INCOMPLETE PLAN: this quote prices a plan that does not finish the part: ",
      de: "UNVOLLSTÄNDIGER PLAN: dieses Angebot kalkuliert einen Plan, der das Teil nicht fertigstellt: ",
    }[language];
    const title = { en: "Quote", de: "Angebot" }[language];

    it(`puts the incomplete plan in the first line of the ${language} CSV, above the quote`, async () => {
      const rows = await csvRows(projectId, language);
      assert.equal(rows[0]!.length, 1, "one cell");
      assert.ok(rows[0]![0]!.startsWith(lead), rows[0]![0]);
      assert.equal(rows[0]![0], incompletePlanBanner(completeness, language));
      assert.deepEqual(rows[1], [""]);
      assert.equal(rows[2]![0], title);
      assert.ok(
        rows.some((r) => r[0] === "plan_incomplete"),
        "and among the warnings at the end",
      );
    });

    it(`puts it in the first row of the ${language} workbook, bold, across the columns`, async () => {
      const sheet = await sheetOf(projectId, language);
      const first = sheet.getRow(1).getCell(1);
      assert.equal(first.value, incompletePlanBanner(completeness, language));
      assert.ok(String(first.value).startsWith(lead));
      assert.equal(first.font?.bold, true);
      assert.ok(first.isMerged, "merged across the sheet's columns");
      assert.match(String(sheet.getRow(3).getCell(1).value), new RegExp(`^${title}: `));
    });
  }

  it("answers another user's project with 404 and a key without the scope with 403", async () => {
    const bob = await createTestUser(db.owner, "bob");
    for (const [method, route] of [
      ["GET", "quote"],
      ["GET", "quote/job"],
      ["POST", "quote/export?format=csv&language=de"],
    ] as const) {
      const res = await api.request<{ detail: { code: string } }>(method, `/projects/${projectId}/${route}`, {
        key: bob.key,
      });
      assert.equal(res.status, 404, route);
      assert.equal(res.body.detail.code, "not_found");
    }
    const noRead = await alice.keyWith(SCOPES.filter((s) => s !== "quote:read"));
    assert.equal((await api.request("GET", `/projects/${projectId}/quote`, { key: noRead })).status, 403);
    const noExport = await alice.keyWith(SCOPES.filter((s) => s !== "quote:export"));
    assert.equal(
      (await api.request("POST", `/projects/${projectId}/quote/export?format=excel&language=en`, { key: noExport }))
        .status,
      403,
    );
  });
});

describe("per-setup cost overrides across re-plans (the tiny library's project)", () => {
  let projectId: string;
  let first: SetupSummary[];
  let second: SetupSummary[];
  const entryFor = (setup: SetupSummary, i: number): SetupCostEntry => ({
    is_fixed_price: "true",
    name: `Clamp ${setup.name}`,
    value: "0",
    unit: "EUR",
    fix_price: String(20 + i),
  });

  before(async () => {
    const tiny = await tinyLibraryPlanning();
    projectId = tiny.projectId;
    first = tiny.planned.result.setups;
    const overrides = Object.fromEntries(first.map((s, i) => [s.id, entryFor(s, i)]));
    const res = await api.request("PATCH", `/projects/${projectId}/quote/job`, {
      key: alice.key,
      body: { setup_costs: overrides },
    });
    assert.equal(res.status, 200, res.text);
  });

  it("keeps every override on the new setup of the same direction when the re-plan has them all", async () => {
    const again = await plan(projectId);
    const next = again.result.setups;
    second = next;
    assert.equal(next.length, first.length);
    const job = (await api.request<QuoteJob>("GET", `/projects/${projectId}/quote/job`, { key: alice.key })).body;
    const expected = Object.fromEntries(
      next.map((s) => [s.id, entryFor(sameSide(s, first)!, first.indexOf(sameSide(s, first)!))]),
    );
    assert.deepEqual(job.setup_costs, expected, "keyed by the new setups");
    assert.ok(
      next.every((s) => !first.some((f) => f.id === s.id)),
      "a plan's setups have ids of their own",
    );
    assert.deepEqual(job.setup_costs_dropped, []);
    const b = await breakdown(projectId);
    assert.deepEqual(
      b.setups.map((s) => [s.setup_cost.source, s.setup_cost.name]),
      next.map((s) => ["quote_job", `Clamp ${sameSide(s, first)!.name}`]),
    );
    // the breakdown is the new plan's: its setups' lines and times
    assert.deepEqual(
      b.setups.map((s) => s.setup_id),
      next.map((s) => s.id),
    );
    assert.equal(
      b.machining_time_s,
      next.reduce((t, s) => t + s.machining_time_s, 0),
    );
    assert.deepEqual(
      b.lines.filter((l) => l.kind === "machining").map((l) => l.ref),
      next.map((s) => s.id),
    );
    assert.ok(!b.warnings.some((w) => w.code === "setup_cost_override_dropped"), JSON.stringify(b.warnings));
    assert.deepEqual(quoteOf(again).setup_costs_dropped, []);
  });

  it("drops and warns about an override whose direction a re-plan with other stock and tools no longer has", async () => {
    const overrides = (await api.request<QuoteJob>("GET", `/projects/${projectId}/quote/job`, { key: alice.key })).body
      .setup_costs;
    const current = second;
    // on the desktop router (100 mm of Z travel) a stock 110.6 mm along Y is too deep from -Y,
    // so that setup goes; and the stock changes last, so the job before the re-plan has no
    // plan of its own
    const library = await newLibrary("Large tools", [catalogueAssembly("CentreCuttingEndMill", 20)]);
    assert.equal(
      (
        await api.request("PATCH", `/projects/${projectId}`, {
          key: alice.key,
          body: { library_id: library, product_id: "router-450-grbl" },
        })
      ).status,
      200,
    );
    const stock = await api.request("POST", `/projects/${projectId}/stock/bounding-box`, {
      key: alice.key,
      body: { ...STOCK_OFFSETS, plus_y: 62, plus_z: 6 },
    });
    assert.equal(stock.status, 200, stock.text);
    const replanned = await plan(projectId);
    const next = replanned.result.setups;
    const lost = current.filter((s) => !sameSide(s, next));
    assert.ok(lost.length > 0, `the re-plan keeps every side: ${next.map((s) => s.name).join(", ")}`);

    const job = (await api.request<QuoteJob>("GET", `/projects/${projectId}/quote/job`, { key: alice.key })).body;
    assert.deepEqual(
      job.setup_costs,
      Object.fromEntries(
        next.filter((s) => sameSide(s, current)).map((s) => [s.id, overrides[sameSide(s, current)!.id]!]),
      ),
    );
    assert.deepEqual(
      job.setup_costs_dropped,
      lost.map((s) => ({
        job_id: replanned.result.job_id,
        setup_id: s.id,
        name: s.name,
        direction: s.direction,
        entry: overrides[s.id]!,
      })),
    );
    const warnings = (await breakdown(projectId)).warnings.filter((w) => w.code === "setup_cost_override_dropped");
    assert.equal(warnings.length, lost.length);
    for (const s of lost) {
      assert.ok(
        warnings.some(
          (w) =>
            w.message.includes(`"${overrides[s.id]!.name}"`) && w.message.includes(`of setup ${s.name} (direction `),
        ),
        JSON.stringify(warnings),
      );
    }
    const quote = quoteOf(replanned);
    assert.deepEqual(
      quote.setup_costs_dropped,
      // in the quote job's order (sql 000011: quote_ready_summary)
      lost.map((s) => ({ setup_id: s.id, name: s.name, direction: s.direction })),
    );
    assert.equal(quote.sendable, false);
  });

  it("refuses an override keyed by a setup of an earlier plan", async () => {
    const res = await api.request<{ detail: { code: string; details: { fields: { code: string }[] } } }>(
      "PATCH",
      `/projects/${projectId}/quote/job`,
      {
        key: alice.key,
        body: { setup_costs: { [first[0]!.id]: entryFor(first[0]!, 0) } },
      },
    );
    assert.equal(res.status, 400);
    assert.equal(res.body.detail.details.fields[0]?.code, "unknown_reference");
  });
});

describe("a plan the starter library finishes", () => {
  let projectId: string;
  let planned: Planned;
  before(async () => {
    projectId = await partCProject(starterLibrary());
    // a setup cost for every setup, so nothing but the plan could make the quote warn
    const project = await api.request<{ product_id: string }>("GET", `/projects/${projectId}`, { key: alice.key });
    const cost = await api.request("POST", `/libraries/machines/${project.body.product_id}/quote/setup-costs`, {
      key: alice.key,
      body: { name: "Vice", value: 35, unit: "EUR" },
    });
    assert.equal(cost.status, 201, cost.text);
    // at the default limit: material thicker than 0.1 mm on at most 0.5 % of partC's surface
    planned = await plan(projectId, PLAN_OPTIONS);
  });

  it("is complete, and its quote has no warning, is sendable, and its exports start with the quote", async () => {
    const completeness = planned.result.completeness;
    assert.equal(completeness.status, "complete", JSON.stringify(completeness.reasons));
    assert.deepEqual(completeness.reasons, []);
    assert.equal(completeness.material_left.surface_limit_pct, 0.5);
    assert.ok(completeness.material_left.surface_pct <= 0.5, JSON.stringify(completeness.material_left));
    assert.deepEqual((await breakdown(projectId)).warnings, []);
    assert.deepEqual(quoteOf(planned), {
      job_id: planned.result.job_id,
      sendable: true,
      completeness: { status: "complete", reasons: [] },
      setup_costs_dropped: [],
    });
    assert.equal((await csvRows(projectId, "de"))[0]![0], "Angebot");
    assert.match(String((await sheetOf(projectId, "en")).getRow(1).getCell(1).value), /^Quote: /);
  });

  it("lists every cost line of the real plan with quantity, unit and rate, adding up to the direct cost to the cent", async () => {
    const wear = {
      end_mill: 0.11,
      ball_end_mill: 0.2,
      face_mill: 0.07,
      drill: 0.05,
      reamer: 0.09,
      tap: 0.3,
      thread_mill: 0.25,
    };
    const settings = await api.request("PATCH", "/quote/settings", {
      key: alice.key,
      body: { cost_model: { setup_rate: 55, operator_rate: 38.5, programming_rate: 65, tool_wear: wear } },
    });
    assert.equal(settings.status, 200, settings.text);
    const job = await api.request("PATCH", `/projects/${projectId}/quote/job`, {
      key: alice.key,
      body: { quantity: 7 },
    });
    assert.equal(job.status, 200, job.text);
    const b = await breakdown(projectId);
    const setups = planned.result.setups;
    const kinds = b.lines.map((l) => l.kind);
    for (const kind of [
      "machining",
      "setup_cost",
      "loading",
      "operator_attendance",
      "programming",
      "tool_wear",
      "deburring",
      "inspection",
      "material",
    ])
      assert.ok(kinds.includes(kind), `${kind} in ${kinds.join(", ")}`);
    assert.equal(kinds.filter((k) => k === "machining").length, setups.length);
    assert.equal(
      b.lines.reduce((cents, l) => cents + Math.round(l.amount * 100), 0),
      Math.round(b.direct_cost * 100),
    );
    for (const l of b.lines) {
      // quantity and rate are shown to 4 places: their product is the amount within a cent and that rounding
      const slack = 0.01 + 0.00005 * (l.rate + l.quantity);
      assert.ok(Math.abs(l.quantity * l.rate - l.amount) <= slack, JSON.stringify(l));
    }
    // tool wear: the plan's operations' minutes, by the family of their tool, for 7 parts
    const minutes = b.lines.filter((l) => l.kind === "tool_wear").reduce((t, l) => t + l.quantity, 0);
    const planned_minutes = (setups.flatMap((s) => s.operations).reduce((t, o) => t + o.machining_time_s, 0) / 60) * 7;
    assert.ok(Math.abs(minutes - planned_minutes) < 0.001 * b.lines.length, `${minutes} vs ${planned_minutes}`);
    const loading = b.lines.find((l) => l.kind === "loading")!;
    assert.equal(loading.quantity, Number(((1 / 60) * setups.length * 7).toFixed(4)), "a minute per part per clamping");
  });

  it("keeps the part's design feedback with the plan: the task result and the quote give the same items", async () => {
    const items = planned.result.design_feedback;
    assert.ok(Array.isArray(items), "the planning measured it");
    const faces = new Set(planned.result.setups.length > 0 ? items.flatMap((i) => i.faces) : []);
    assert.ok(
      [...faces].every((f) => Number.isInteger(f) && f >= 0 && f < 94),
      "partC's face ids",
    );
    const worded = items.map((item) => ({ ...item, message: designFeedbackText(item, "en") }));
    assert.deepEqual((await breakdown(projectId)).design_feedback, worded, "each in its English sentence");
  });
});
