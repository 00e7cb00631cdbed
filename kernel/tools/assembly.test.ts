import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  assemblyCuttingTool,
  assemblyGaugeLength,
  assemblyHolderName,
  assemblyHolders,
  assemblyStickOut,
  assemblyViolations,
  validateAssembly,
} from "./assembly.ts";
import { colletChuck } from "./testdata/fixtures.ts";

const endMill = {
  uuid: "0b3e7a64-0f67-4c2b-9a8e-1f2d3c4b5a69",
  name: "10 mm end mill",
  tool_type: "CentreCuttingEndMill",
  tool_parameters: {
    CuttingDiameter: 10,
    DepthOfCutMaximum: 22,
    OverallLength: 72,
    FluteLength: 22,
    ShankDiameter: 10,
    LengthBelowHolder: 44,
  },
};
const extension = {
  uuid: "9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a",
  name: "ER32 extension 100",
  stacking_group: "Extension",
  clamping_range_mm: { min: 2, max: 20 },
  gauge_length_mm: 100,
  segments: [{ length_mm: 100, upper_diameter_mm: 32, lower_diameter_mm: 32 }],
};
const holder = (item: unknown) => ({ component_type: "adaptive_item", adaptive_item: item });
const tool = (item: unknown) => ({ component_type: "parametric_cutting_tool", parametric_cutting_tool: item });
const assembly = (components: unknown[]) => ({
  uuid: "1e2d3c4b-5a69-4788-9a6b-5c4d3e2f1a0b",
  name: "T1",
  manufacturer: "Acme",
  components,
});

const rules = (input: unknown) => assemblyViolations(input).map((v) => `${v.field} ${v.rule}`);

describe("validateAssembly", () => {
  it("accepts holder, extension and tool, and tells the stack's gauge length", () => {
    const result = validateAssembly(assembly([holder(colletChuck), holder(extension), tool(endMill)]));
    assert.deepEqual(result.ok ? [] : result.violations, []);
    if (!result.ok) return;
    assert.equal(assemblyCuttingTool(result.assembly)?.name, "10 mm end mill");
    assert.deepEqual(
      assemblyHolders(result.assembly).map((h) => h.stacking_group),
      ["Holder", "Extension"],
    );
    assert.equal(assemblyStickOut(result.assembly), 44);
    assert.equal(assemblyGaugeLength(result.assembly), 70 + 100 + 44);
  });

  it("accepts a holder without a tool and a tool without a holder", () => {
    const holderOnly = validateAssembly(assembly([holder(colletChuck)]));
    assert.equal(holderOnly.ok, true);
    if (holderOnly.ok) {
      assert.equal(assemblyCuttingTool(holderOnly.assembly), undefined);
      assert.equal(assemblyGaugeLength(holderOnly.assembly), 70);
    }
    const { LengthBelowHolder: _stickOut, ...params } = endMill.tool_parameters;
    const toolOnly = validateAssembly(assembly([tool({ ...endMill, tool_parameters: params })]));
    assert.equal(toolOnly.ok, true);
    if (toolOnly.ok) assert.equal(assemblyGaugeLength(toolOnly.assembly), undefined, "unknown stick-out: no guess");
  });

  it("wants uuids on the assembly and every component, unique", () => {
    const { uuid: _tool, ...anonymousTool } = endMill;
    assert.deepEqual(rules({ ...assembly([holder(colletChuck), tool(anonymousTool)]), uuid: "T1" }).sort(), [
      "components.1.parametric_cutting_tool.uuid required",
      "uuid format",
    ]);
    assert.deepEqual(
      rules(assembly([holder(colletChuck), holder({ ...extension, uuid: colletChuck.uuid }), tool(endMill)])),
      ["components.1.adaptive_item.uuid unique"],
    );
  });

  it("keeps one cutting tool, last, below one Holder that comes first", () => {
    assert.deepEqual(rules(assembly([])), ["components non_empty"]);
    assert.deepEqual(rules(assembly([tool(endMill), holder(colletChuck)])).sort(), [
      "components.0 cutting_tool_last",
      "components.1.adaptive_item.stacking_group holder_first",
    ]);
    assert.deepEqual(
      rules(
        assembly([
          holder(colletChuck),
          tool(endMill),
          tool({ ...endMill, uuid: "2a3b4c5d-6e7f-4a8b-9c0d-1e2f3a4b5c6d" }),
        ]),
      ).sort(),
      ["components.1 cutting_tool_last", "components.2 at_most_one_cutting_tool"],
    );
  });

  it("wants the tool's shank inside the clamping range of the component above it", () => {
    const shank25 = { ...endMill, tool_parameters: { ...endMill.tool_parameters, ShankDiameter: 25 } };
    assert.deepEqual(rules(assembly([holder(colletChuck), tool(shank25)])), [
      "components.1.parametric_cutting_tool.tool_parameters.ShankDiameter shank_fits_holder",
    ]);
  });

  it("names problems inside components by their full path, all at once", () => {
    assert.deepEqual(
      rules(
        assembly([
          holder({ ...colletChuck, gauge_length_mm: 60 }),
          { component_type: "parametric_cutting_tool", adaptive_item: colletChuck },
          tool({ ...endMill, tool_parameters: { ...endMill.tool_parameters, CornerRadius: 1 } }),
          { component_type: "spindle" },
          "drill",
        ]),
      ).sort(),
      [
        "components.0.adaptive_item.gauge_length_mm equals_segment_sum",
        "components.1 cutting_tool_last",
        "components.1.adaptive_item unknown_field",
        "components.1.parametric_cutting_tool required",
        "components.2 at_most_one_cutting_tool",
        "components.2 cutting_tool_last",
        "components.2.parametric_cutting_tool.tool_parameters.CornerRadius zero_for_flat_end_mill",
        "components.3.component_type one_of",
        "components.4 type",
      ],
    );
  });

  it("takes a pocket number 1..9999, a whole number, and says what is wrong with any other", () => {
    const numbered = (pocket_number: unknown) => ({ ...assembly([holder(colletChuck), tool(endMill)]), pocket_number });
    for (const good of [1, 12, 9999]) {
      const result = validateAssembly(numbered(good));
      assert.equal(result.ok && result.assembly.pocket_number, good);
    }
    const refusals = [0, -3, 2.5, "12", 10000, null, Number.NaN].map((bad) =>
      assemblyViolations(numbered(bad)).map((v) => `${v.field} ${v.rule}: ${v.message}`),
    );
    assert.deepEqual(refusals, [
      ["pocket_number range: must be within 1..9999, is 0"],
      ["pocket_number range: must be within 1..9999, is -3"],
      ["pocket_number integer: must be a whole number, is 2.5"],
      ["pocket_number type: must be a whole number 1..9999, the tool's T number in the magazine"],
      ["pocket_number range: must be within 1..9999, is 10000"],
      ["pocket_number type: must be a whole number 1..9999, the tool's T number in the magazine"],
      ["pocket_number type: must be a whole number 1..9999, the tool's T number in the magazine"],
    ]);
  });

  it("names the holder by its first adaptive item, or none", () => {
    const held = validateAssembly(assembly([holder(colletChuck), holder(extension), tool(endMill)]));
    const bare = validateAssembly(assembly([tool(endMill)]));
    assert.ok(held.ok && bare.ok);
    assert.deepEqual([assemblyHolderName(held.assembly), assemblyHolderName(bare.assembly)], [colletChuck.name, null]);
  });
});
