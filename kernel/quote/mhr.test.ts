import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { calculateMhr, mhrParts, MhrInputsSchema, resolveMhrInputs, type MhrInputs } from "./mhr.ts";

/** docs/quote.md, "Worked example: machine hour rate" */
export const WORKED_EXAMPLE: MhrInputs = {
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

describe("the machine hour rate (VDI 3258)", () => {
  it("reproduces the worked example of docs/quote.md to the cent", () => {
    const parts = mhrParts(WORKED_EXAMPLE);
    assert.equal(parts.depreciation_per_year.toString(), "28000");
    assert.equal(parts.interest_per_year.toString(), "7500");
    assert.equal(parts.space_per_year.toString(), "2880");
    assert.equal(parts.maintenance_per_year.toString(), "5000");
    assert.equal(parts.fixed_per_hour.toString(), "14.46");
    assert.equal(parts.energy_per_hour.toString(), "3.75");
    assert.equal(parts.before_safety.toString(), "18.21");
    assert.equal(parts.exact.toString(), "20.031");
    assert.equal(calculateMhr(WORKED_EXAMPLE), 20.03);
  });

  it("depreciates the acquisition cost when no replacement value is given", () => {
    const parts = mhrParts({ ...WORKED_EXAMPLE, machine_selling_price: 0 });
    assert.equal(parts.depreciation_per_year.toString(), "25000");
    // (25000 + 7500 + 2880 + 5000) / 3000 = 13.46; + 3.75 = 17.21; * 1.1 = 18.931
    assert.equal(calculateMhr({ ...WORKED_EXAMPLE, machine_selling_price: 0 }), 18.93);
  });

  it("uses every input: changing any one changes the rate", () => {
    const base = calculateMhr(WORKED_EXAMPLE);
    for (const key of Object.keys(WORKED_EXAMPLE) as (keyof MhrInputs)[]) {
      const changed = calculateMhr({ ...WORKED_EXAMPLE, [key]: WORKED_EXAMPLE[key] * 2 });
      assert.notEqual(changed, base, key);
    }
  });

  it("takes cost per m² and energy cost from the settings when the request leaves them out, and a safety factor of 1", () => {
    const request = MhrInputsSchema.parse({
      acquisition_costs: 100_000,
      interest_rate: 0.05,
      required_floor_space: 10,
      maintenance_cost: 1000,
      average_power_consumption: 10,
      operating_hours: 2000,
      years: 5,
    });
    const inputs = resolveMhrInputs(request, { cost_per_square_meter: 10, energy_cost: 0.3 });
    assert.equal(inputs.cost_per_square_meter, 10);
    assert.equal(inputs.energy_cost, 0.3);
    assert.equal(inputs.safety_factor, 1);
    // (20000 + 2500 + 1200 + 1000) / 2000 = 12.35; + 3 = 15.35
    assert.equal(calculateMhr(inputs), 15.35);
  });

  it("refuses strings, negatives, an interest rate above 1, zero hours and unknown fields", () => {
    const good = { ...WORKED_EXAMPLE };
    assert.equal(MhrInputsSchema.safeParse(good).success, true);
    for (const bad of [
      { ...good, acquisition_costs: "250000" },
      { ...good, maintenance_cost: -1 },
      { ...good, interest_rate: 6 },
      { ...good, operating_hours: 0 },
      { ...good, safety_factor: 0.5 },
      { ...good, colour: "red" },
    ]) {
      assert.equal(MhrInputsSchema.safeParse(bad).success, false, JSON.stringify(bad));
    }
  });
});
