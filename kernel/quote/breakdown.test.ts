import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { computeBreakdown, type AdditionalCostGroup, type BreakdownInput } from "./breakdown.ts";
import { INCOMPLETE } from "../../test/support/completeness.ts";
import { mergeSetupCosts, type SetupCostEntry } from "./layers.ts";
import { allocateCents, dec, sum, type Decimal } from "./money.ts";
import { seededRandom } from "../seeded-random.ts";

const SETUPS = [
  { id: "a1b2", name: "Setup 1 (+Z)", index: 0, machining_time_s: 900 },
  { id: "c3d4", name: "Setup 2 (-Z)", index: 1, machining_time_s: 540 },
];

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
};

const s = (d: Decimal) => d.toFixed(2);

describe("the cost breakdown", () => {
  it("prices the worked example of docs/quote.md to the cent", () => {
    const b = computeBreakdown(EXAMPLE);
    assert.deepEqual(
      b.lines.map((l) => [l.kind, l.label, s(l.amount)]),
      [
        ["machining", "Setup 1 (+Z)", "150.00"],
        ["setup_cost", "Vice setup", "45.00"],
        ["machining", "Setup 2 (-Z)", "90.00"],
        ["setup_cost", "Re-clamping", "60.00"],
        ["material", "material", "17.23"],
        ["additional_cost", "Anodising", "25.00"],
        ["additional_cost", "Packaging", "12.30"],
      ],
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
      ["399.53", "59.92", "459.45", "45.95", "505.40", "25.27", "480.13", "91.22", "571.35", "48.01"],
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
    assert.equal(s(b.direct_cost), "37.30");
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
    assert.equal(s(b.total_price), "571.35", "the warning changes no amount");
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
    assert.equal(s(b.total_price), "571.35", "the warning changes no amount");
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
  return {
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
      assert.equal(exactLines, 2 * (input.setups?.length ?? 0) + 1 + Object.keys(input.additional_costs).length, at);
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
  let total = dec(0);
  (input.setups ?? []).forEach((setup, i) => {
    const h = dec(setup.machining_time_s).dividedBy(3600);
    total = total.plus(h.times(mhr).times(q));
    const entry = input.setup_costs[i]?.entry;
    if (entry)
      total = total.plus(entry.is_fixed_price === "true" ? dec(entry.fix_price) : dec(entry.value).times(h).times(q));
  });
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
