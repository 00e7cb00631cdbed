import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { toolFluteCount, toolViolations, validateTool } from "./tool.ts";

/** The spec's example: a centre cutting end mill with the three parameters it shows. */
const specTool = {
  uuid: "0b3e7a64-0f67-4c2b-9a8e-1f2d3c4b5a69",
  name: "6 mm end mill",
  tool_type: "CentreCuttingEndMill",
  manufacturer: "Acme",
  flute_count: 3,
  tool_parameters: { CuttingDiameter: 6, DepthOfCutMaximum: 13, OverallLength: 57 },
};

const fields = (input: unknown) => toolViolations(input).map((v) => `${v.field} ${v.rule}`);

describe("validateTool", () => {
  it("accepts the spec's example tool and returns it parsed", () => {
    const result = validateTool(specTool);
    assert.equal(result.ok, true);
    if (result.ok) assert.deepEqual(result.tool, specTool);
  });

  it("accepts a fully described tool with material, coolant, hand, cutting data and vendor data", () => {
    const result = validateTool({
      ...specTool,
      article_number: "EM-6-3",
      description: "3 flutes, 38 degree helix",
      tool_parameters: {
        ...specTool.tool_parameters,
        FluteLength: 13,
        ShankDiameter: 6,
        LengthBelowHolder: 30,
        NumberOfFlutes: 3,
        CornerRadius: 0,
        HelixAngle: 38,
      },
      tool_material: "carbide",
      coating: "TiAlN",
      coolant_supply: "through_tool",
      hand: "right",
      cutting_data: [
        {
          name: "Steel",
          spindle_speed_rpm: 6366,
          cutting_speed_m_min: 120,
          feed_per_tooth_mm: 0.04,
          feed_rate_mm_min: 763.9,
          coolant: "flood",
        },
      ],
      vendor_data: { "post-process": { number: 4 } },
    });
    assert.deepEqual(result.ok ? [] : result.violations, []);
  });

  it("reports every violation at once: schema and physical rules together", () => {
    const result = validateTool({
      name: "",
      tool_type: "BullNoseEndMill",
      flute_count: 2.5,
      colour: "red",
      tool_parameters: {
        CuttingDiameter: 6,
        DepthOfCutMaximum: 80,
        OverallLength: 57,
        FluteLength: 13,
        CornerRadius: 3,
        CornerRadus: 1,
        PointAngle: 118,
        ShankDiameter: -6,
      },
      cutting_data: [{ name: "x", spindle_speed_rpm: 1000, cutting_speed_m_min: 100 }],
    });
    assert.equal(result.ok, false);
    if (result.ok) return;
    assert.deepEqual(result.violations.map((v) => `${v.field} ${v.rule}`).sort(), [
      "colour unknown_field",
      "cutting_data.0.cutting_speed_m_min consistent_with_spindle_speed",
      "flute_count integer",
      "name non_empty",
      "tool_parameters.CornerRadius below_half_diameter",
      "tool_parameters.CornerRadus unknown_field",
      "tool_parameters.DepthOfCutMaximum at_most_flute_length",
      "tool_parameters.DepthOfCutMaximum within_overall_length",
      "tool_parameters.PointAngle not_allowed_for_type",
      "tool_parameters.ShankDiameter positive",
    ]);
    for (const v of result.violations) assert.ok(v.message.length > 0, v.field);
  });

  it("checks what it can of a tool whose type is unknown", () => {
    assert.deepEqual(
      fields({
        name: "x",
        tool_type: "CenterCuttingEndMill",
        tool_parameters: { CuttingDiameter: 0, OverallLength: 50 },
      }).sort(),
      ["tool_parameters.CuttingDiameter positive", "tool_type one_of"],
    );
  });

  it("refuses missing required fields, non-objects, infinite numbers and wrong types", () => {
    assert.deepEqual(fields({}).sort(), ["name required", "tool_parameters required", "tool_type required"]);
    assert.deepEqual(
      toolViolations(null).map((v) => [v.field, v.rule]),
      [["", "type"]],
    );
    assert.deepEqual(
      fields({ ...specTool, tool_parameters: { ...specTool.tool_parameters, OverallLength: Infinity } }),
      ["tool_parameters.OverallLength finite"],
    );
    assert.deepEqual(fields({ ...specTool, tool_parameters: { ...specTool.tool_parameters, OverallLength: "57" } }), [
      "tool_parameters.OverallLength type",
    ]);
    assert.deepEqual(fields({ ...specTool, uuid: "00000000-0000-0000-0000-000000000000" }), ["uuid format"]);
    assert.deepEqual(fields({ ...specTool, tool_material: "unobtainium", hand: "both" }).sort(), [
      "hand one_of",
      "tool_material one_of",
    ]);
  });

  it("prefixes field paths when the tool sits inside something else", () => {
    assert.deepEqual(
      toolViolations(
        { ...specTool, tool_parameters: { OverallLength: 57 } },
        "components.1.parametric_cutting_tool",
      ).map((v) => v.field),
      ["components.1.parametric_cutting_tool.tool_parameters.CuttingDiameter"],
    );
  });
});

describe("toolFluteCount", () => {
  it("takes flute_count, else NumberOfFlutes", () => {
    const tool = validateTool(specTool);
    assert.ok(tool.ok);
    if (!tool.ok) return;
    assert.equal(toolFluteCount(tool.tool), 3);
    assert.equal(
      toolFluteCount({
        ...tool.tool,
        flute_count: undefined,
        tool_parameters: { ...tool.tool.tool_parameters, NumberOfFlutes: 4 },
      }),
      4,
    );
  });
});
