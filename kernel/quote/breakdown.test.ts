import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { computeBreakdown, type AdditionalCostGroup, type BreakdownInput } from "./breakdown.ts";
import { INCOMPLETE } from "../../test/support/completeness.ts";
import { mergeSetupCosts, type SetupCostEntry } from "./layers.ts";
import { allocateCents, dec, sum, type Decimal } from "./money.ts";
import { seededRandom } from "../seeded-random.ts";
import { resolveCostModel, WEAR_FAMILIES, wearFamily, type CostModelLayer } from "./cost-model.ts";

const SETUPS = [
  {
    id: "a1b2",
    name: "Setup 1 (+Z)",
    index: 0,
    machining_time_s: 900,
    operations: [
      { tool_type: "CentreCuttingEndMill", machining_time_s: 600 },
      { tool_type: "Drill", machining_time_s: 300 },
    ],
  },
  {
    id: "c3d4",
    name: "Setup 2 (-Z)",
    index: 1,
    machining_time_s: 540,
    operations: [{ tool_type: "BullNoseEndMill", machining_time_s: 540 }],
  },
];

/** the worked example's cost model, one layer each (docs/quote.md) */
export const EXAMPLE_COST_MODEL = resolveCostModel({
  settings: { setup_rate: 50, programming_rate: 60, tool_wear: { end_mill: 0.12 } },
  machine: { operator_rate: 40, tool_wear: { drill: 0.05 } },
  quoteJob: { loading_min: 1.5, deburring_min: 2 },
});

/** docs/quote.md, "Worked example: a breakdown" */
export const EXAMPLE: BreakdownInput = {
  quantity: 10,
  mhr: { value: 60, source: "machine" },
  setups: SETUPS,
  completeness: null,
  plan_warnings: [],
  setup_costs_dropped: [],
  setup_costs: mergeSetupCosts(
    SETUPS,
    { c3d4: { is_fixed_price: "false", name: "Re-clamping", value: "40", unit: "EUR/h", fix_price: "0" } },
    [{ name: "Vice setup", value: 45, unit: "EUR" }],
  ),
  material: {
    kind: "stock",
    stock_size_mm: [100, 50, 20],
    material: { id: "AlMgSi1", density_kg_m3: "2700", price_per_kg: "5.8" },
    surcharge_percentage: 10,
  },
  additional_costs: {
    anodise: { Title: "Anodising", per_unit: true, Costs: [{ label: "Type II", cost: 2.5 }] },
    pack: { Title: "Packaging", per_unit: false, Costs: [{ label: "Box", cost: 12.3 }] },
  },
  overhead_percentage: 15,
  profit: 10,
  discount: 5,
  tax: 19,
  cost_model: EXAMPLE_COST_MODEL,
};

const s = (d: Decimal) => d.toFixed(2);

describe("the cost breakdown", () => {
  it("prices the worked example of docs/quote.md to the cent", () => {
    const b = computeBreakdown(EXAMPLE);
    assert.deepEqual(
      b.lines.map((l) => [
        l.kind,
        l.ref,
        l.quantity.toDecimalPlaces(4).toString(),
        l.unit,
        l.rate.toString(),
        s(l.amount),
      ]),
      [
        ["machining", "a1b2", "2.5", "h", "60", "150.00"],
        ["setup_cost", "a1b2", "1", "order", "45", "45.00"],
        ["machining", "c3d4", "1.5", "h", "60", "90.00"],
        ["setup_cost", "c3d4", "0.5", "h", "40", "20.00"],
        ["loading", null, "0.5", "h", "40", "20.00"],
        ["operator_attendance", null, "1", "h", "40", "40.00"],
        ["programming", null, "0.25", "h", "60", "15.00"],
        ["tool_wear", "end_mill", "190", "min", "0.12", "22.80"],
        ["tool_wear", "drill", "50", "min", "0.05", "2.50"],
        ["deburring", null, "0.3333", "h", "40", "13.33"],
        ["inspection", null, "0.1667", "h", "40", "6.67"],
        ["material", null, "2.7", "kg", "6.38", "17.23"],
        ["additional_cost", "anodise", "10", "part", "2.5", "25.00"],
        ["additional_cost", "pack", "1", "order", "12.3", "12.30"],
      ],
    );
    assert.deepEqual(
      b.lines.slice(0, 4).map((l) => l.label),
      ["Setup 1 (+Z)", "Vice setup", "Setup 2 (-Z)", "Re-clamping"],
    );
    assert.equal(b.material.weight_kg!.toString(), "0.27");
    assert.equal(b.material.unit_cost.toString(), "1.7226");
    assert.deepEqual(
      [
        b.direct_cost,
        b.overhead,
        b.manufacturing_cost,
        b.profit,
        b.price_before_discount,
        b.discount,
        b.net_price,
        b.tax,
        b.total_price,
        b.unit_price,
      ].map(s),
      ["479.83", "71.97", "551.80", "55.18", "606.98", "30.35", "576.63", "109.56", "686.19", "57.66"],
    );
    assert.equal(b.machining_time_s, 1440);
    assert.deepEqual(
      b.setups.map((x) => [x.setup_id, x.setup_cost.source, x.setup_cost.is_fixed_price]),
      [
        ["a1b2", "machine", true],
        ["c3d4", "quote_job", false],
      ],
    );
    assert.deepEqual(b.warnings, []);
  });

  it("uses material_fixed_price per part instead of the stock's weight", () => {
    const b = computeBreakdown({ ...EXAMPLE, material: { kind: "fixed", price: "3.10" } });
    assert.equal(s(b.material.amount), "31.00");
    assert.equal(b.material.weight_kg, null);
  });

  it("prices nothing for machining and warns when the job has no plan, no stock or no material", () => {
    const b = computeBreakdown({
      ...EXAMPLE,
      setups: null,
      setup_costs: [],
      material: { kind: "stock", stock_size_mm: null, material: null, surcharge_percentage: 0 },
    });
    assert.deepEqual(
      b.warnings.map((w) => w.code),
      ["no_plan", "material_missing", "stock_missing"],
    );
    assert.equal(b.machining_time_s, 0);
    assert.deepEqual(b.setups, []);
    // anodising 25 + packaging 12.30 + programming 15 + deburring 13.33 + inspection 6.67: no plan, no clamping
    assert.equal(s(b.direct_cost), "72.30");
  });

  it("warns plan_incomplete first, with the reasons in figures, and prices the plan as it is", () => {
    const b = computeBreakdown({ ...EXAMPLE, completeness: INCOMPLETE });
    assert.deepEqual(b.warnings, [
      {
        code: "plan_incomplete",
        message:
          "the plan is incomplete: 2 holes not made, 3.1 % of the part's surface under material left (limit 0.5 %; 1,235 mm³, 2.3 % of the removable volume)",
      },
    ]);
    assert.equal(s(b.total_price), "686.19", "the warning changes no amount");
    assert.deepEqual(
      computeBreakdown({ ...EXAMPLE, completeness: { ...INCOMPLETE, status: "complete", reasons: [] } }).warnings,
      [],
    );
  });

  it("repeats the plan's stock_allowance_needed warnings, millimetres and all, and no other plan warning", () => {
    const needed =
      "setup Setup 1 (+Z): the stock needs 3.5 mm more along -Z: 3 mm below the part, 6.5 mm needed to grip 5 mm and keep 1.5 mm clear of the part";
    const b = computeBreakdown({
      ...EXAMPLE,
      completeness: INCOMPLETE,
      plan_warnings: [
        { code: "clamped_band", message: "setup Setup 1 (+Z): the band the jaws cover is left for setup -Z" },
        { code: "stock_allowance_needed", message: needed },
      ],
    });
    assert.deepEqual(
      b.warnings.map((w) => w.code),
      ["plan_incomplete", "stock_allowance_needed"],
    );
    assert.equal(b.warnings[1]!.message, `material is priced on too little stock: ${needed}`);
    assert.match(b.warnings[1]!.message, /3\.5 mm more along -Z/);
    assert.equal(s(b.total_price), "686.19", "the warning changes no amount");
  });

  it("warns setup_cost_override_dropped for each override the planning dropped, naming its setup and direction", () => {
    const entry: SetupCostEntry = {
      is_fixed_price: "true",
      name: "Tilted vice",
      value: "0",
      unit: "EUR",
      fix_price: "80",
    };
    const b = computeBreakdown({
      ...EXAMPLE,
      setup_costs_dropped: [{ setup_id: "e5f6", name: "Setup 3 (-Y)", direction: [0, -1, 0], entry }],
    });
    assert.deepEqual(b.warnings, [
      {
        code: "setup_cost_override_dropped",
        message:
          'the setup cost override "Tilted vice" (80 EUR fixed) of setup Setup 3 (-Y) (direction 0, -1, 0) was dropped: ' +
          "the new plan has no setup from that direction; set the new setups' costs again if they need one",
      },
    ]);
  });
});

describe("the setup cost of a clamping", () => {
  it("prices an hourly entry by the setup time per clamping, once per order, not by the machining hours", () => {
    const longer = computeBreakdown({
      ...EXAMPLE,
      quantity: 50,
      setups: SETUPS.map((x) => ({ ...x, machining_time_s: x.machining_time_s * 3 })),
    });
    const line = longer.lines.find((l) => l.kind === "setup_cost" && l.ref === "c3d4")!;
    assert.deepEqual(
      [line.quantity.toString(), line.unit, line.rate.toString(), s(line.amount)],
      ["0.5", "h", "40", "20.00"],
    );
    assert.equal(longer.setups[1]!.setup_cost.hours.toString(), "0.5");
  });

  it("prices a setup without an entry at the cost model's setup rate, and warns only when that rate is zero", () => {
    const bare = { ...EXAMPLE, setup_costs: mergeSetupCosts(SETUPS, {}, []) };
    const b = computeBreakdown(bare);
    assert.deepEqual(
      b.setups.map((x) => [x.setup_cost.source, x.setup_cost.rate.toString(), s(x.setup_cost.amount)]),
      [
        ["setup_rate", "50", "25.00"],
        ["setup_rate", "50", "25.00"],
      ],
    );
    assert.deepEqual(b.warnings, []);
    const zero = computeBreakdown({
      ...bare,
      cost_model: resolveCostModel({ settings: {}, machine: {}, quoteJob: { setup_rate: 0 } }),
    });
    assert.deepEqual(
      zero.warnings.map((w) => w.code),
      ["setup_cost_missing", "setup_cost_missing"],
    );
    assert.equal(s(zero.setups[0]!.setup_cost.amount), "0.00");
  });
});

describe("the cost model's layers", () => {
  it("takes each value from the quote job, else the machine, else the settings, else the default; null falls through", () => {
    const r = resolveCostModel({
      settings: { operator_rate: 30, setup_time_h: 1, tool_wear: { tap: 0.4, drill: 0.1 } },
      machine: { operator_rate: 35, setup_time_h: null, tool_wear: { tap: 0.5 } },
      quoteJob: { operator_rate: null, loading_min: 0, tool_wear: { tap: null } },
    });
    assert.deepEqual(
      [r.values.operator_rate, r.sources.operator_rate, r.values.setup_time_h, r.sources.setup_time_h],
      [35, "machine", 1, "settings"],
    );
    assert.deepEqual([r.values.loading_min, r.sources.loading_min], [0, "quote_job"]);
    assert.deepEqual([r.values.deburring_min, r.sources.deburring_min], [1, "default"]);
    assert.deepEqual(
      [r.values.tool_wear.tap, r.sources.tool_wear.tap, r.values.tool_wear.drill, r.sources.tool_wear.drill],
      [0.5, "machine", 0.1, "settings"],
    );
  });
});

/** a seeded generator, so a failure names a seed that reproduces it */
function generator(seed: number) {
  const next = seededRandom(seed);
  const int = (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1));
  /** a decimal with up to `places` decimals */
  const decimal = (max: number, places: number) => Number((next() * max).toFixed(int(0, places)));
  return { next, int, decimal };
}

function randomInput(seed: number): BreakdownInput {
  const g = generator(seed);
  const setups = Array.from({ length: g.int(0, 5) }, (_, i) => ({
    id: `s${i}`,
    name: `Setup ${i + 1}`,
    index: i,
    machining_time_s: g.decimal(20_000, 3),
    operations: Array.from({ length: g.int(0, 4) }, () => ({
      tool_type: ["CentreCuttingEndMill", "BallEndMill", "Drill", "Tap", "FaceMill", "Unknown"][g.int(0, 5)]!,
      machining_time_s: g.decimal(5_000, 3),
    })),
  }));
  const own: Record<string, SetupCostEntry> = {};
  for (const setup of setups) {
    if (g.next() < 0.5) {
      const fixed = g.next() < 0.5;
      own[setup.id] = {
        is_fixed_price: fixed ? "true" : "false",
        name: "x",
        value: String(g.decimal(300, 2)),
        unit: "EUR/h",
        fix_price: String(g.decimal(500, 2)),
      };
    }
  }
  const template = Array.from({ length: g.int(0, 3) }, () => ({
    name: "t",
    value: g.decimal(200, 2),
    unit: g.next() < 0.5 ? "EUR" : "EUR/h",
  }));
  const groups: Record<string, AdditionalCostGroup> = {};
  for (let i = g.int(0, 4); i > 0; i -= 1) {
    groups[`g${i}`] = {
      Title: `G${i}`,
      per_unit: g.next() < 0.5,
      Costs: Array.from({ length: g.int(0, 4) }, () => ({ label: "c", cost: g.decimal(1000, 4) })),
    };
  }
  const material: BreakdownInput["material"] =
    g.next() < 0.2
      ? { kind: "fixed", price: g.decimal(500, 2) }
      : {
          kind: "stock",
          stock_size_mm: g.next() < 0.9 ? [g.decimal(800, 3), g.decimal(500, 3), g.decimal(300, 3)] : null,
          material:
            g.next() < 0.9 ? { id: "m", density_kg_m3: g.decimal(20_000, 1), price_per_kg: g.decimal(100, 3) } : null,
          surcharge_percentage: g.decimal(100, 2),
        };
  const layer = (): CostModelLayer => {
    const l: CostModelLayer = {};
    if (g.next() < 0.5) l.setup_rate = g.decimal(200, 2);
    if (g.next() < 0.5) l.setup_time_h = g.decimal(5, 3);
    if (g.next() < 0.5) l.operator_rate = g.decimal(120, 2);
    if (g.next() < 0.5) l.loading_min = g.decimal(30, 2);
    if (g.next() < 0.5) l.operator_attendance_percentage = g.decimal(100, 1);
    if (g.next() < 0.5) l.programming_rate = g.decimal(150, 2);
    if (g.next() < 0.5) l.programming_time_h = g.decimal(20, 2);
    if (g.next() < 0.5) l.deburring_min = g.decimal(60, 2);
    if (g.next() < 0.5) l.inspection_min = g.decimal(60, 2);
    if (g.next() < 0.5)
      l.tool_wear = Object.fromEntries(WEAR_FAMILIES.filter(() => g.next() < 0.5).map((f) => [f, g.decimal(2, 4)]));
    return l;
  };
  return {
    cost_model: resolveCostModel({ settings: layer(), machine: layer(), quoteJob: layer() }),
    quantity: g.next() < 0.3 ? 1 : g.int(1, 10_000),
    mhr: { value: g.decimal(400, 2), source: "machine" },
    setups: g.next() < 0.05 ? null : setups,
    completeness: null,
    plan_warnings: [],
    setup_costs_dropped: [],
    setup_costs: mergeSetupCosts(setups, own, template),
    material,
    additional_costs: groups,
    overhead_percentage: g.decimal(100, 2),
    profit: g.decimal(100, 2),
    discount: g.decimal(100, 2),
    tax: g.decimal(100, 2),
  };
}

const isCents = (d: Decimal) => d.decimalPlaces() <= 2;

describe("the breakdown over 5,000 random inputs (seeded)", () => {
  it("adds its lines up to its totals exactly, every amount in cents and within a cent of its exact value", () => {
    for (let seed = 1; seed <= 5000; seed += 1) {
      const input = randomInput(seed);
      const b = computeBreakdown(input);
      const at = `seed ${seed}`;
      for (const line of b.lines) assert.ok(isCents(line.amount), at);
      assert.equal(
        sum(b.lines.map((l) => l.amount)).toString(),
        b.direct_cost.toString(),
        `${at}: lines = direct cost`,
      );
      assert.equal(b.direct_cost.plus(b.overhead).toString(), b.manufacturing_cost.toString(), `${at}: manufacturing`);
      assert.equal(
        b.manufacturing_cost.plus(b.profit).toString(),
        b.price_before_discount.toString(),
        `${at}: before discount`,
      );
      assert.equal(b.price_before_discount.minus(b.discount).toString(), b.net_price.toString(), `${at}: net`);
      assert.equal(b.net_price.plus(b.tax).toString(), b.total_price.toString(), `${at}: total`);
      for (const v of [b.overhead, b.profit, b.discount, b.tax, b.total_price, b.unit_price]) assert.ok(isCents(v), at);
      // independent exact figures
      const q = dec(input.quantity);
      const exactLines = b.lines.length;
      const families = new Set(
        (input.setups ?? []).flatMap((x) =>
          (x.operations ?? [])
            .filter((o) => o.machining_time_s > 0)
            .map((o) =>
              o.tool_type === "Unknown" || o.tool_type === "CentreCuttingEndMill" ? "end_mill" : o.tool_type,
            ),
        ),
      );
      assert.equal(
        exactLines,
        2 * (input.setups?.length ?? 0) + 6 + families.size + Object.keys(input.additional_costs).length,
        at,
      );
      for (const line of b.lines) assert.ok(line.quantity.gte(0) && line.rate.gte(0), at);
      const exactDirect = recomputeDirect(input);
      assert.ok(
        b.direct_cost.minus(exactDirect).abs().lte("0.005"),
        `${at}: direct ${b.direct_cost} vs ${exactDirect}`,
      );
      const exactOverhead = exactDirect.times(input.overhead_percentage).dividedBy(100);
      assert.ok(b.overhead.minus(exactOverhead).abs().lte("0.01"), `${at}: overhead`);
      assert.ok(b.tax.minus(b.net_price.times(input.tax).dividedBy(100)).abs().lte("0.005"), `${at}: tax`);
      assert.ok(b.unit_price.times(q).minus(b.net_price).abs().lte(q.times("0.005")), `${at}: unit price`);
      assert.ok(b.total_price.gte(0) && b.discount.gte(0) && b.overhead.gte(0), at);
    }
  });

  it("allocates cents so the parts add up to a total, each within a cent", () => {
    const g = generator(42);
    for (let run = 0; run < 2000; run += 1) {
      const parts = Array.from({ length: g.int(1, 12) }, () => dec(g.decimal(10_000, 6)));
      const total = sum(parts).toDecimalPlaces(2);
      const allocated = allocateCents(parts, total);
      assert.equal(sum(allocated).toString(), total.toString());
      for (const [i, a] of allocated.entries()) assert.ok(a.minus(parts[i]!).abs().lt("0.01"));
    }
  });
});

/** the direct cost recomputed from the input, the plain way */
function recomputeDirect(input: BreakdownInput): Decimal {
  const q = dec(input.quantity);
  const mhr = dec(input.mhr.value);
  const m0 = input.cost_model.values;
  const setups = input.setups ?? [];
  let total = dec(0);
  let machiningH = dec(0);
  setups.forEach((setup, i) => {
    const h = dec(setup.machining_time_s).dividedBy(3600);
    machiningH = machiningH.plus(h);
    total = total.plus(h.times(mhr).times(q));
    const entry = input.setup_costs[i]?.entry;
    const hourly = entry ? dec(entry.value) : dec(m0.setup_rate);
    total = total.plus(entry?.is_fixed_price === "true" ? dec(entry.fix_price) : hourly.times(m0.setup_time_h));
    for (const op of setup.operations ?? []) {
      const family = op.tool_type === "Unknown" ? "end_mill" : wearFamily(op.tool_type);
      total = total.plus(dec(op.machining_time_s).dividedBy(60).times(q).times(m0.tool_wear[family]));
    }
  });
  const perHour = (min: number) => dec(min).dividedBy(60);
  total = total.plus(perHour(m0.loading_min).times(setups.length).times(q).times(m0.operator_rate));
  total = total.plus(
    machiningH.times(m0.operator_attendance_percentage).dividedBy(100).times(q).times(m0.operator_rate),
  );
  total = total.plus(dec(m0.programming_time_h).times(m0.programming_rate));
  total = total.plus(
    perHour(m0.deburring_min + m0.inspection_min)
      .times(q)
      .times(m0.operator_rate),
  );
  const m = input.material;
  if (m.kind === "fixed") total = total.plus(dec(m.price).times(q));
  else if (m.material && m.stock_size_mm) {
    const kg = dec(m.stock_size_mm[0])
      .times(m.stock_size_mm[1])
      .times(m.stock_size_mm[2])
      .times(m.material.density_kg_m3)
      .dividedBy(1e9);
    total = total.plus(
      kg.times(m.material.price_per_kg).times(dec(100).plus(m.surcharge_percentage)).dividedBy(100).times(q),
    );
  }
  for (const g of Object.values(input.additional_costs)) {
    const groupSum = sum(g.Costs.map((c) => dec(c.cost)));
    total = total.plus(g.per_unit ? groupSum.times(q) : groupSum);
  }
  return total;
}
