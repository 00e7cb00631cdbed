import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { validateAssembly } from "../assembly.ts";
import { catalogueUuid, STANDARD_MANUFACTURER } from "./entry.ts";
import { rangeEntry, type RangeSpec } from "./range-entry.ts";
import { erColletChuck } from "./standard-holders.ts";
import { startingPreset } from "./starting-values.ts";

const spec: RangeSpec = {
  article: "TEST-DR-0600",
  name: "Test drill Ø6",
  type: "Drill",
  flutes: 2,
  material: "hss",
  coating: "uncoated",
  coolant: "external",
  params: { CuttingDiameter: 6, OverallLength: 93, FluteLength: 57, ShankDiameter: 6, PointAngle: 118 },
  mount: erColletChuck(6),
  reach: 57,
  standard: "DIN 338",
  preset: startingPreset({
    workpiece: "steel",
    cuttingSpeed: 25,
    diameter: 6,
    coolant: "flood",
    feed: { perRevolution: 0.1 },
  }),
};

describe("rangeEntry", () => {
  it("builds a valid holder + tool assembly with stable ids and the search fields", () => {
    const entry = rangeEntry(spec);
    assert.equal(validateAssembly(entry.assembly).ok, true);
    assert.equal(entry.manufacturer, STANDARD_MANUFACTURER);
    assert.deepEqual(
      [
        entry.tool_type,
        entry.family,
        entry.diameter_mm,
        entry.flute_length_mm,
        entry.overall_length_mm,
        entry.shank_diameter_mm,
        entry.standard,
      ],
      ["Drill", "drill", 6, 57, 93, 6, "DIN 338"],
    );
    assert.equal(entry.assembly.uuid, catalogueUuid("assembly", STANDARD_MANUFACTURER, "TEST-DR-0600"));
    assert.deepEqual(
      entry.assembly.components.map((c) => c.component_type),
      ["adaptive_item", "parametric_cutting_tool"],
    );
    const tool = entry.assembly.components[1];
    assert.ok(tool?.component_type === "parametric_cutting_tool");
    assert.equal(tool.parametric_cutting_tool.tool_parameters.LengthBelowHolder, 93 - 18);
    assert.equal(tool.parametric_cutting_tool.tool_parameters.NumberOfFlutes, 2);
    assert.equal(tool.parametric_cutting_tool.flute_count, 2);
  });

  it("takes another manufacturer when given one", () => {
    assert.equal(rangeEntry({ ...spec, manufacturer: "Kestrel Tooling" }).assembly.manufacturer, "Kestrel Tooling");
  });
});
