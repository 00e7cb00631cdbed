import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Assembly } from "../../tools/assembly.ts";
import { cutterFromAssembly, cuttersFromLibrary, readCutter } from "./cutter.ts";
import { centreDrillPilotLength, holderReach, pointLength, spotDepth, wallReach } from "../cutter-shape.ts";
import { assemblyOf, cutterOf, entry } from "./test-library.ts";

const near = (actual: number, expected: number, tolerance = 1e-9) =>
  assert.ok(Math.abs(actual - expected) <= tolerance, `${actual} != ${expected}`);

/** The assembly with its tool's parameters, fields or holders changed. */
function edited(
  article: string,
  change: (tool: Record<string, unknown>, params: Record<string, number | undefined>) => void,
  holders = true,
): Assembly {
  const assembly = structuredClone(assemblyOf(article));
  const last = assembly.components.at(-1);
  if (last?.component_type !== "parametric_cutting_tool") throw new Error("no tool");
  change(
    last.parametric_cutting_tool as unknown as Record<string, unknown>,
    last.parametric_cutting_tool.tool_parameters as Record<string, number | undefined>,
  );
  if (!holders) assembly.components = [last];
  return assembly;
}

describe("cutters from standard-range assemblies", () => {
  it("gives a 10 mm DIN 6527 K end mill its catalogue dimensions and the ER25 chuck's profile nose first", () => {
    const c = cutterOf("SSR-EM3-1000-K-UC");
    const e = entry("SSR-EM3-1000-K-UC");
    assert.equal(c.kind, "flat");
    assert.equal(c.assembly_uuid, e.assembly.uuid);
    assert.equal(c.tool_type, "CentreCuttingEndMill");
    assert.equal(c.diameter, e.diameter_mm);
    assert.equal(c.flute_length, e.flute_length_mm);
    assert.equal(c.max_stepdown, 14);
    assert.equal(c.shank_diameter, e.shank_diameter_mm);
    assert.equal(c.stick_out, 42);
    assert.equal(c.flutes, 3);
    assert.equal(c.corner_radius, 0);
    assert.equal(c.centre_cutting, true);
    assert.equal(c.tool_material, "carbide");
    assert.deepEqual([c.neck_diameter, c.neck_length], [0, 0]);
    assert.deepEqual(c.holder, [
      { length: 3, lower_diameter: 36, upper_diameter: 42 },
      { length: 17, lower_diameter: 42, upper_diameter: 42 },
      { length: 34.1, lower_diameter: 42, upper_diameter: 44 },
      { length: 15.9, lower_diameter: 63, upper_diameter: 63 },
    ]);
    near(
      c.holder.reduce((sum, s) => sum + s.length, 0),
      70,
    );
  });

  it("keeps a micro end mill's neck as NeckLength from the tip, so a 1 mm tool reaches 6 mm into its own 1 mm slot", () => {
    const c = cutterOf("SSR-EM2-0100-L-TA");
    assert.deepEqual([c.flute_length, c.neck_diameter, c.neck_length, c.shank_diameter], [3, 0.95, 6, 6]);
    assert.equal(wallReach(c), 6);
    // the 6 mm shank must stay above a 1 mm slot's walls; the holder 2 mm above the material
    assert.equal(holderReach(c), 37);
  });

  it("reads ball and bull nose corner radii and a carbide drill's 140° point and usable length", () => {
    const ball = cutterOf("SSR-BM2-0600-K-TA");
    assert.deepEqual([ball.kind, ball.corner_radius], ["ball", 3]);
    const bull = cutterOf("SSR-BN4-1000-R100-K-TA");
    assert.deepEqual([bull.kind, bull.corner_radius, bull.flutes], ["bull", 1, 4]);
    const drill = cutterOf("SSR-DR6537L-0680-IC");
    assert.deepEqual(
      [drill.kind, drill.tip_angle_deg, drill.max_stepdown, drill.flute_length, drill.shank_diameter, drill.stick_out],
      ["drill", 140, 43, 53, 8, 73],
    );
    near(pointLength(drill), 3.4 / Math.tan((70 * Math.PI) / 180));
  });

  it("reads a tap's pitch, a chamfer mill's cone and flat tip, a centre drill's pilot, a face mill's body", () => {
    const tap = cutterOf("SSR-TP-M8X125-SF-HSSE");
    assert.deepEqual(
      [tap.kind, tap.diameter, tap.pitch_mm, tap.flute_length, tap.tool_material],
      ["tap", 8, 1.25, 22, "hss_cobalt"],
    );
    const chamfer = cutterOf("SSR-CH045-1000-Z4-TA");
    assert.deepEqual(
      [chamfer.kind, chamfer.chamfer_angle_deg, chamfer.tip_diameter, chamfer.flute_length, chamfer.centre_cutting],
      ["chamfer", 45, 0.5, 4.75, false],
    );
    const centre = cutterOf("SSR-CD333A-0250-HSS");
    assert.deepEqual(
      [centre.kind, centre.tip_angle_deg, centre.tip_diameter, centre.diameter],
      ["drill", 60, 2.5, 6.3],
    );
    // pilot 3.1 + the 60° countersink from 2.5 to 6.3 mm
    near(centre.flute_length, 3.1 + 1.9 / Math.tan(Math.PI / 6));
    near(centreDrillPilotLength(centre), 3.1);
    near(spotDepth(centre, 5), 3.1 + 1.25 / Math.tan(Math.PI / 6));
    const face = cutterOf("SSR-FM45-063-Z05");
    assert.deepEqual(
      [
        face.kind,
        face.diameter,
        face.shank_diameter,
        face.flutes,
        face.centre_cutting,
        face.stick_out,
        face.corner_radius,
      ],
      ["flat", 63, 63, 5, false, 40, 0],
    );
  });

  it("refuses thread mills, left-hand tools and assemblies without a cutting tool, saying why", () => {
    const threadMill = readCutter(assemblyOf("SSR-TM-M8X125-EX"));
    assert.equal(threadMill.cutter, null);
    assert.equal(threadMill.refusal?.code, "not_machined_type");
    const left = readCutter(edited("SSR-TP-M8X125-SF-HSSE", (tool) => (tool.hand = "left")));
    assert.equal(left.refusal?.code, "left_hand_tool");
    const holderOnly = structuredClone(assemblyOf("SSR-EM3-1000-K-UC"));
    holderOnly.components = holderOnly.components.slice(0, 1);
    assert.equal(cutterFromAssembly(holderOnly), null);
    assert.match(readCutter(holderOnly).refusal?.message ?? "", /holds no cutting tool/);
    const { cutters, skipped } = cuttersFromLibrary([
      assemblyOf("SSR-EM3-1000-K-UC"),
      holderOnly,
      assemblyOf("SSR-TM-M8X125-EX"),
    ]);
    assert.equal(cutters.length, 1);
    assert.deepEqual(
      skipped.map((s) => s.code),
      ["no_cutting_tool", "not_machined_type"],
    );
  });

  it("falls back to DepthOfCutMaximum for flutes, flutes for max stepdown, the shortest stick-out and 2 flutes of HSS", () => {
    const bare = cutterFromAssembly(
      edited("SSR-EM3-1000-K-UC", (tool, p) => {
        delete p.FluteLength;
        delete p.LengthBelowHolder;
        delete p.NumberOfFlutes;
        delete tool.flute_count;
        delete tool.tool_material;
      }),
    );
    assert.ok(bare);
    assert.deepEqual(
      [bare.flute_length, bare.max_stepdown, bare.stick_out, bare.flutes, bare.tool_material],
      [14, 14, 16, 2, "hss"],
    );
    const drill = cutterFromAssembly(
      edited(
        "SSR-DR338-0680-HSS",
        (_tool, p) => {
          delete p.FluteLength;
          delete p.DepthOfCutMaximum;
          delete p.LengthBelowHolder;
        },
        false,
      ),
    );
    assert.ok(drill);
    // a 3xD drill's 4 D of flutes, 0.7 of them usable; no holder: one is assumed, the drill 2 mm out of it
    near(drill.flute_length, 27.2);
    near(drill.max_stepdown, 0.7 * 27.2);
    near(drill.stick_out, 29.2);
    assert.deepEqual(
      drill.holder.map((s) => s.lower_diameter),
      [50, 63],
    );
  });
});

/** An assembly of the spec's fields only: a holder (uuid, name, stacking_group, manufacturer) and a tool. */
function minimalAssembly(tool: Record<string, unknown>, holder: Record<string, unknown> = {}): Assembly {
  return {
    uuid: "0c6e0b0e-6d0a-4c38-9a5f-1d1e2f3a4b5c",
    name: "Minimal",
    components: [
      {
        component_type: "adaptive_item",
        adaptive_item: {
          uuid: "1c6e0b0e-6d0a-4c38-9a5f-1d1e2f3a4b5c",
          name: "Chuck",
          stacking_group: "Holder",
          manufacturer: "Acme",
          ...holder,
        },
      },
      {
        component_type: "parametric_cutting_tool",
        parametric_cutting_tool: {
          uuid: "2c6e0b0e-6d0a-4c38-9a5f-1d1e2f3a4b5c",
          name: "Tool",
          manufacturer: "Acme",
          ...tool,
        },
      },
    ],
  } as Assembly;
}

describe("cutters from assemblies of the spec's fields only", () => {
  it("gives a holder without a profile the assumed one for the tool's shank: SK40 flange, then the ER32 nut's 50 mm, 100 mm long", () => {
    const reading = readCutter(
      minimalAssembly({
        tool_type: "CentreCuttingEndMill",
        flute_count: 3,
        tool_parameters: { CuttingDiameter: 10, DepthOfCutMaximum: 22, OverallLength: 72 },
      }),
    );
    assert.ok(reading.cutter);
    const c = reading.cutter;
    // nose first, as the collision checks read it
    assert.deepEqual(c.holder, [
      { length: 84.1, lower_diameter: 50, upper_diameter: 50 },
      { length: 15.9, lower_diameter: 63, upper_diameter: 63 },
    ]);
    // the tool's own figures where it gives them, the short series' where not
    assert.deepEqual(
      [c.flute_length, c.max_stepdown, c.shank_diameter, c.stick_out, c.flutes, c.tool_material],
      [22, 22, 10, 24, 3, "hss"],
    );
    assert.equal(holderReach(c), 22);
    const fields = reading.assumed.map((a) => a.field);
    assert.deepEqual(fields, [
      "components.1.parametric_cutting_tool.tool_parameters.FluteLength",
      "components.1.parametric_cutting_tool.tool_parameters.ShankDiameter",
      "components.1.parametric_cutting_tool.tool_material",
      "components.1.parametric_cutting_tool.tool_parameters.LengthBelowHolder",
      "components.0.adaptive_item.segments",
      "components.0.adaptive_item.gauge_length_mm",
    ]);
  });

  it("is stricter than the real holder and tool it stands for: fatter than the standard range's ER chuck, reaching less far", () => {
    const real = cutterOf("SSR-EM3-1000-K-UC");
    const e = entry("SSR-EM3-1000-K-UC");
    const tool = e.assembly.components.at(-1);
    assert.ok(tool?.component_type === "parametric_cutting_tool");
    const { tool_parameters: p } = tool.parametric_cutting_tool;
    const minimal = cutterFromAssembly(
      minimalAssembly({
        tool_type: "CentreCuttingEndMill",
        tool_parameters: { CuttingDiameter: p.CuttingDiameter, OverallLength: p.OverallLength },
      }),
    );
    assert.ok(minimal);
    const widest = (c: typeof real) => Math.max(...c.holder.map((s) => Math.max(s.lower_diameter, s.upper_diameter)));
    assert.ok(minimal.holder[0]!.lower_diameter >= real.holder[0]!.lower_diameter, "the nose");
    assert.ok(widest(minimal) >= widest(real));
    assert.ok(
      minimal.holder.reduce((sum, s) => sum + s.length, 0) >= real.holder.reduce((sum, s) => sum + s.length, 0),
      "the gauge length",
    );
    assert.ok(
      minimal.stick_out <= real.stick_out &&
        minimal.flute_length <= real.flute_length &&
        wallReach(minimal) <= wallReach(real),
    );
  });

  it("plans drills with a 140° point, taps of a metric size with the coarse pitch, and a holder's own gauge length", () => {
    const drill = cutterFromAssembly(
      minimalAssembly({ tool_type: "Drill", tool_parameters: { CuttingDiameter: 6.8 } }, { gauge_length_mm: 80 }),
    );
    assert.ok(drill);
    assert.deepEqual([drill.tip_angle_deg, drill.shank_diameter], [140, 8]);
    near(
      drill.holder.reduce((sum, s) => sum + s.length, 0),
      80,
    );
    const tap = cutterFromAssembly(minimalAssembly({ tool_type: "Tap", tool_parameters: { CuttingDiameter: 8 } }));
    assert.ok(tap);
    assert.deepEqual(
      [tap.pitch_mm, tap.flute_length, tap.shank_diameter, tap.holder.reduce((sum, s) => sum + s.length, 0)],
      [1.25, 22, 8, 110],
    );
  });

  it("does not plan a tool whose shape cannot be assumed, saying which field to give", () => {
    const chamfer = readCutter(minimalAssembly({ tool_type: "ChamferMill", tool_parameters: { CuttingDiameter: 10 } }));
    assert.equal(chamfer.refusal?.code, "invalid_tool");
    assert.match(chamfer.refusal?.message ?? "", /no ChamferAngle/);
    const tap = readCutter(minimalAssembly({ tool_type: "Tap", tool_parameters: { CuttingDiameter: 7.5 } }));
    assert.match(tap.refusal?.message ?? "", /no ThreadPitch/);
    const { cutters, skipped, assumed } = cuttersFromLibrary([
      minimalAssembly({ tool_type: "ChamferMill", tool_parameters: { CuttingDiameter: 10 } }),
      minimalAssembly({ tool_type: "SpotDrill", tool_parameters: { CuttingDiameter: 10 } }),
    ]);
    assert.deepEqual([cutters.length, skipped.length, assumed.length], [1, 1, 1]);
    assert.equal(cutters[0]?.tip_angle_deg, 142);
    assert.ok(assumed[0]!.assumed.some((a) => a.field.endsWith("PointAngle") && a.value === 142));
  });
});
