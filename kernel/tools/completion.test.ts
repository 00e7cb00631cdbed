import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { validateAssembly, type Assembly } from "./assembly.ts";
import { HOLDER_FLANGE, HOLDER_GAUGE_LENGTH_MM } from "./assumed-geometry.ts";
import { generateStandardRange } from "./catalogue/standard-range.ts";
import { completeAssembly, completeStandaloneHolder, completeTool, type Assumption } from "./completion.ts";
import type { Holder } from "./holder.ts";
import { colletChuck } from "./testdata/fixtures.ts";
import { TOOL_TYPES, type ToolType } from "./tool-types.ts";
import { validateTool, type Tool } from "./tool.ts";

const ASSEMBLY = "0c6e0b0e-6d0a-4c38-9a5f-1d1e2f3a4b5c";
const HOLDER = "1c6e0b0e-6d0a-4c38-9a5f-1d1e2f3a4b5c";
const TOOL = "2c6e0b0e-6d0a-4c38-9a5f-1d1e2f3a4b5c";

const tool = (tool_type: ToolType, tool_parameters: Tool["tool_parameters"], more: Partial<Tool> = {}): Tool => ({
  name: "T",
  tool_type,
  tool_parameters,
  ...more,
});
const specHolder = (more: Partial<Holder> = {}): Holder => ({
  uuid: HOLDER,
  name: "Chuck",
  stacking_group: "Holder",
  manufacturer: "Acme",
  ...more,
});
const fieldsOf = (assumed: readonly Assumption[]) => assumed.map((a) => a.field);
const valueAt = (assumed: readonly Assumption[], field: string) => assumed.find((a) => a.field === field)?.value;

function assemblyOf(...components: Assembly["components"]): Assembly {
  return { uuid: ASSEMBLY, name: "A", components };
}
const holderComponent = (holder: Holder): Assembly["components"][number] => ({
  component_type: "adaptive_item",
  adaptive_item: { ...holder, uuid: holder.uuid ?? HOLDER },
});
const toolComponent = (t: Tool): Assembly["components"][number] => ({
  component_type: "parametric_cutting_tool",
  parametric_cutting_tool: { ...t, uuid: TOOL },
});

describe("completeTool", () => {
  it("makes a valid tool of every type from its diameter alone, or names what cannot be assumed", () => {
    const unassumable: Partial<Record<ToolType, string[]>> = {
      ChamferMill: ["tool_parameters.ChamferAngle"],
      SlotMill: ["tool_parameters.FluteLength", "tool_parameters.NeckDiameter"],
    };
    for (const type of TOOL_TYPES) {
      for (const d of [0.5, 3, 6, 6.8, 12, 25, 40]) {
        const diameter = type === "FaceMill" ? d + 16 : d;
        const { tool: completed, warnings } = completeTool(tool(type, { CuttingDiameter: diameter }));
        const valid = validateTool(completed);
        assert.deepEqual(valid.ok ? [] : valid.violations, [], `${type} ${diameter}`);
        const expected =
          unassumable[type] ?? (type === "Tap" && ![3, 6, 12].includes(d) ? ["tool_parameters.ThreadPitch"] : []);
        assert.deepEqual(
          warnings.map((w) => w.field),
          expected,
          `${type} ${diameter}`,
        );
        assert.ok(
          warnings.every((w) => w.code === "not_planned" && /the planner does not use this tool/.test(w.message)),
        );
      }
    }
  });

  it("assumes a drill's 140° point, a 3xD drill's flutes and 0.7 of them usable, a DIN 6535 shank, 2 flutes of HSS", () => {
    const { tool: t, assumed } = completeTool(tool("Drill", { CuttingDiameter: 6.8 }));
    assert.deepEqual(t.tool_parameters, {
      CuttingDiameter: 6.8,
      PointAngle: 140,
      FluteLength: 27.2,
      DepthOfCutMaximum: 19.04,
      ShankDiameter: 8,
    });
    assert.deepEqual([t.flute_count, t.tool_material], [2, "hss"]);
    assert.deepEqual(fieldsOf(assumed), [
      "tool_parameters.PointAngle",
      "tool_parameters.FluteLength",
      "tool_parameters.DepthOfCutMaximum",
      "tool_parameters.ShankDiameter",
      "flute_count",
      "tool_material",
    ]);
    assert.ok(assumed.every((a) => a.reason.length > 20));
    // a 12 mm drill: the DIN 6537 K row's 47 mm, below 4 D
    assert.equal(completeTool(tool("Drill", { CuttingDiameter: 12 })).tool.tool_parameters.FluteLength, 47);
  });

  it("takes the spec's DepthOfCutMaximum as the flutes and keeps within the OverallLength and neck given", () => {
    const endMill = completeTool(
      tool(
        "CentreCuttingEndMill",
        { CuttingDiameter: 10, DepthOfCutMaximum: 22, OverallLength: 72 },
        { flute_count: 3 },
      ),
    ).tool;
    assert.deepEqual(endMill.tool_parameters, {
      CuttingDiameter: 10,
      DepthOfCutMaximum: 22,
      OverallLength: 72,
      FluteLength: 22,
      ShankDiameter: 10,
    });
    assert.equal(endMill.flute_count, 3);
    // DIN 6527 K for 10 mm is 14 mm of flutes; the neck given ends at 12
    const necked = completeTool(
      tool("CentreCuttingEndMill", { CuttingDiameter: 10, NeckDiameter: 9.5, NeckLength: 12 }),
    ).tool;
    assert.equal(necked.tool_parameters.FluteLength, 12);
    assert.equal(
      completeTool(tool("CentreCuttingEndMill", { CuttingDiameter: 2 })).tool.tool_parameters.FluteLength,
      3,
    );
  });

  it("assumes the shapes on the side that cuts no more: bull radius, spot and centre drill points, chamfer tip, tap pitch", () => {
    const p = (type: ToolType, d: number) => completeTool(tool(type, { CuttingDiameter: d })).tool.tool_parameters;
    assert.equal(p("BullNoseEndMill", 10).CornerRadius, 0.5);
    assert.equal(p("BullNoseEndMill", 3).CornerRadius, 0.3);
    assert.equal(p("SpotDrill", 10).PointAngle, 142);
    assert.deepEqual(
      [p("CentreDrill", 6.3).PointAngle, p("CentreDrill", 6.3).TipDiameter, p("CentreDrill", 6.3).TipLength],
      [90, 2.52, 3.024],
    );
    assert.equal(p("ChamferMill", 10).TipDiameter, 1);
    assert.deepEqual([p("Tap", 8).ThreadPitch, p("Tap", 8).FluteLength, p("Tap", 8).ShankDiameter], [1.25, 22, 8]);
    assert.deepEqual([p("Tap", 3).ShankDiameter, p("Tap", 12).ShankDiameter], [3.5, 12]);
    assert.deepEqual(
      [p("FaceMill", 63).DepthOfCutMaximum, p("FaceMill", 63).OverallLength, p("FaceMill", 63).ShankDiameter],
      [4, 40, undefined],
    );
  });

  it("assumes nothing a tool gives, nor anything of a thread mill (never planned)", () => {
    for (const entry of generateStandardRange().filter((_, i) => i % 7 === 0)) {
      const last = entry.assembly.components.at(-1);
      assert.ok(last?.component_type === "parametric_cutting_tool");
      const given = last.parametric_cutting_tool;
      const { tool: completed, assumed } = completeTool(given);
      for (const [name, value] of Object.entries(given.tool_parameters))
        assert.equal(
          completed.tool_parameters[name as keyof Tool["tool_parameters"]],
          value,
          `${entry.article_number} ${name}`,
        );
      assert.ok(assumed.every((a) => a.field !== "tool_parameters.CuttingDiameter"));
    }
    assert.deepEqual(completeTool(tool("ThreadMill", { CuttingDiameter: 6 })).assumed, []);
  });
});

describe("completeStandaloneHolder", () => {
  it("shapes a holder of the spec's fields for shanks up to 20 mm: the SK40 flange, then 52 mm, 100 mm long", () => {
    const { holder, assumed } = completeStandaloneHolder(specHolder());
    assert.equal(holder.gauge_length_mm, HOLDER_GAUGE_LENGTH_MM);
    assert.deepEqual(holder.segments, [
      { length_mm: HOLDER_FLANGE.length_mm, upper_diameter_mm: 63, lower_diameter_mm: 63 },
      { length_mm: 84.1, upper_diameter_mm: 52, lower_diameter_mm: 52 },
    ]);
    assert.deepEqual(fieldsOf(assumed), ["segments", "gauge_length_mm"]);
    assert.match(assumed[0]!.reason, /in an assembly the tool's shank decides/);
  });

  it("keeps a given profile, derives a missing gauge length from it, and fits an assumed profile to a given gauge length", () => {
    assert.deepEqual(completeStandaloneHolder(colletChuck as Holder).assumed, []);
    const { gauge_length_mm: _gauge, ...noGauge } = colletChuck;
    const derived = completeStandaloneHolder(noGauge as Holder);
    assert.deepEqual([derived.holder.gauge_length_mm, fieldsOf(derived.assumed)], [70, ["gauge_length_mm"]]);
    const short = completeStandaloneHolder(specHolder({ gauge_length_mm: 63, clamping_range_mm: { min: 2, max: 12 } }));
    assert.deepEqual(
      [
        fieldsOf(short.assumed),
        short.holder.segments.map((s) => s.length_mm),
        short.holder.segments[1]!.lower_diameter_mm,
      ],
      [["segments"], [15.9, 47.1], 50],
    );
    const extension = completeStandaloneHolder(specHolder({ stacking_group: "Extension" }));
    assert.deepEqual(extension.holder.segments, [{ length_mm: 22, upper_diameter_mm: 52, lower_diameter_mm: 52 }]);
  });
});

describe("completeAssembly", () => {
  it("shapes the holder for the tool's shank, adds the stick-out, and names each field under its component", () => {
    const completion = completeAssembly(
      assemblyOf(holderComponent(specHolder()), toolComponent(tool("CentreCuttingEndMill", { CuttingDiameter: 20 }))),
    );
    assert.equal(completion.holders[0]!.segments[1]!.lower_diameter_mm, 52);
    assert.equal(completion.tool?.tool_parameters.LengthBelowHolder, 28);
    assert.deepEqual(
      valueAt(completion.assumed, "components.1.parametric_cutting_tool.tool_parameters.FluteLength"),
      26,
    );
    assert.ok(fieldsOf(completion.assumed).includes("components.0.adaptive_item.segments"));
    const valid = validateAssembly(completion.assembly);
    assert.deepEqual(valid.ok ? [] : valid.violations, []);
  });

  it("puts an assumed Holder above a tool alone, and an assumed shank within the holder's clamping range", () => {
    const alone = completeAssembly(assemblyOf(toolComponent(tool("Drill", { CuttingDiameter: 5 }))));
    assert.equal(alone.assembly.components.length, 2);
    assert.equal(alone.assembly.components[0]?.component_type, "adaptive_item");
    assert.deepEqual(
      alone.holders.map((h) => h.gauge_length_mm),
      [100],
    );
    assert.ok(fieldsOf(alone.assumed).includes("components"));
    assert.ok(
      fieldsOf(alone.assumed).includes("components.0.parametric_cutting_tool.tool_parameters.LengthBelowHolder"),
    );
    const valid = validateAssembly(alone.assembly);
    assert.deepEqual(valid.ok ? [] : valid.violations, []);
    const ranged = completeAssembly(
      assemblyOf(
        holderComponent(specHolder({ clamping_range_mm: { min: 1, max: 4 } })),
        toolComponent(tool("CentreCuttingEndMill", { CuttingDiameter: 3 })),
      ),
    );
    assert.equal(ranged.tool?.tool_parameters.ShankDiameter, 4);
    assert.match(String(ranged.assumed.find((a) => a.field.endsWith("ShankDiameter"))?.reason), /clamping range/);
    assert.equal(validateAssembly(ranged.assembly).ok, true);
  });

  it("is never less strict than the standard range's own holders and tools: wider, as long, reaching no further", () => {
    let compared = 0;
    for (const entry of generateStandardRange()) {
      const [holderPart, toolPart] = [entry.assembly.components[0], entry.assembly.components.at(-1)];
      if (
        holderPart?.component_type !== "adaptive_item" ||
        toolPart?.component_type !== "parametric_cutting_tool" ||
        entry.tool_type === "ThreadMill"
      )
        continue;
      const real = completeAssembly(entry.assembly);
      const given = toolPart.parametric_cutting_tool;
      const { uuid, name, stacking_group, manufacturer } = holderPart.adaptive_item;
      const spec = {
        name: given.name,
        tool_type: given.tool_type,
        tool_parameters: { CuttingDiameter: given.tool_parameters.CuttingDiameter },
      };
      const minimal = completeAssembly(
        assemblyOf(holderComponent({ uuid, name, stacking_group, manufacturer }), toolComponent(spec)),
      );
      if (minimal.warnings.length > 0) continue;
      const label = entry.article_number;
      const [r, m] = [real.tool!.tool_parameters, minimal.tool!.tool_parameters];
      const widest = (h: (typeof real.holders)[number]) =>
        Math.max(...h.segments.map((s) => Math.max(s.upper_diameter_mm, s.lower_diameter_mm)));
      const nose = (h: (typeof real.holders)[number]) => h.segments.at(-1)!.upper_diameter_mm;
      assert.ok(
        m.LengthBelowHolder! <= r.LengthBelowHolder! + 1e-9,
        `${label}: stick-out ${m.LengthBelowHolder} > ${r.LengthBelowHolder}`,
      );
      if (r.FluteLength !== undefined && m.FluteLength !== undefined)
        assert.ok(m.FluteLength <= r.FluteLength + 1e-9, `${label}: flutes ${m.FluteLength} > ${r.FluteLength}`);
      if (r.ShankDiameter !== undefined && m.ShankDiameter !== undefined)
        assert.ok(m.ShankDiameter >= r.ShankDiameter, `${label}: shank ${m.ShankDiameter} < ${r.ShankDiameter}`);
      assert.ok(
        nose(minimal.holders[0]!) >= nose(real.holders[0]!),
        `${label}: nose ${nose(minimal.holders[0]!)} < ${nose(real.holders[0]!)}`,
      );
      assert.ok(widest(minimal.holders[0]!) >= widest(real.holders[0]!), label);
      assert.ok(
        minimal.holders[0]!.gauge_length_mm >= real.holders[0]!.gauge_length_mm,
        `${label}: gauge ${minimal.holders[0]!.gauge_length_mm} < ${real.holders[0]!.gauge_length_mm}`,
      );
      compared += 1;
    }
    assert.ok(compared > 2000, `${compared} entries compared`);
  });
});
