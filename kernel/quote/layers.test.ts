import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { isHourlyUnit, mergeSetupCosts, resolveMhr, type SetupCostEntry } from "./layers.ts";

describe("layered MHR", () => {
  it("takes the quote job's override, else the machine's, else the settings', else the catalogue's", () => {
    assert.deepEqual(resolveMhr({ quoteJob: 70, machine: 60, settings: 50, catalogue: 40 }), {
      value: 70,
      source: "quote_job",
    });
    assert.deepEqual(resolveMhr({ quoteJob: null, machine: 60, settings: 50, catalogue: 40 }), {
      value: 60,
      source: "machine",
    });
    assert.deepEqual(resolveMhr({ quoteJob: null, machine: null, settings: 50, catalogue: 40 }), {
      value: 50,
      source: "settings",
    });
    assert.deepEqual(resolveMhr({ quoteJob: null, machine: null, settings: null, catalogue: 40 }), {
      value: 40,
      source: "catalogue",
    });
    assert.deepEqual(
      resolveMhr({ quoteJob: 0, machine: 60, settings: 50, catalogue: 40 }),
      { value: 0, source: "quote_job" },
      "0 is an override, not a null",
    );
  });
});

describe("setup costs merged by setup id", () => {
  const own: SetupCostEntry = { is_fixed_price: "true", name: "Vice", value: "0", unit: "EUR", fix_price: "35" };
  const setups = [
    { id: "s0", index: 0 },
    { id: "s1", index: 1 },
    { id: "s2", index: 2 },
  ];
  const template = [
    { name: "First clamping", value: 60, unit: "EUR" },
    { name: "Re-clamping", value: 40, unit: "EUR/h" },
  ];

  it("gives one entry per setup: the quote job's, else the machine's by index, else its last", () => {
    const merged = mergeSetupCosts(setups, { s1: own }, template);
    assert.deepEqual(
      merged.map((m) => [m.setup_id, m.source, m.entry?.name]),
      [
        ["s0", "machine", "First clamping"],
        ["s1", "quote_job", "Vice"],
        ["s2", "machine", "Re-clamping"],
      ],
    );
    assert.deepEqual(merged[0]!.entry, {
      is_fixed_price: "true",
      name: "First clamping",
      value: "0",
      unit: "EUR",
      fix_price: "60",
    });
    assert.deepEqual(merged[2]!.entry, {
      is_fixed_price: "false",
      name: "Re-clamping",
      value: "40",
      unit: "EUR/h",
      fix_price: "0",
    });
  });

  it("leaves a setup without an entry when neither layer has one, and ignores entries of other setups", () => {
    const merged = mergeSetupCosts(setups.slice(0, 1), { stale: own }, []);
    assert.deepEqual(merged, [{ setup_id: "s0", entry: null, source: "none" }]);
  });

  it("reads per-hour units", () => {
    for (const unit of ["EUR/h", "€/h", "/h", "h", "per hour", "EUR/hour"])
      assert.equal(isHourlyUnit(unit), true, unit);
    for (const unit of ["EUR", "€", "piece", "hrs of fun"]) assert.equal(isHourlyUnit(unit), false, unit);
  });
});
