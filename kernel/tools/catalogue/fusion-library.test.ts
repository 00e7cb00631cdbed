import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { validateAssembly } from "../assembly.ts";
import type { Tool } from "../tool.ts";
import { catalogueUuid, type CatalogueEntry } from "./entry.ts";
import { FUSION_TOOL_TYPES, FusionLibraryError, parseFusionLibrary } from "./fusion-library.ts";

const SAMPLE = readFileSync(new URL("./testdata/fusion-library-sample.json", import.meta.url), "utf8");
const imported = parseFusionLibrary(SAMPLE, { manufacturer: "Fixture Tools" });

function entry(article: string): {
  entry: CatalogueEntry;
  tool: Tool;
  holder: CatalogueEntry["assembly"]["components"][number] | undefined;
} {
  const found = imported.entries.find((e) => e.article_number === article);
  assert.ok(found, article);
  const last = found.assembly.components.at(-1);
  assert.ok(last?.component_type === "parametric_cutting_tool");
  return {
    entry: found,
    tool: last.parametric_cutting_tool,
    holder: found.assembly.components.length > 1 ? found.assembly.components[0] : undefined,
  };
}

describe("parseFusionLibrary", () => {
  it("imports the tools it models and says why it skipped the others", () => {
    assert.deepEqual(
      imported.entries.map((e) => [e.article_number, e.tool_type]),
      [
        ["FX-3F-1000", "CentreCuttingEndMill"],
        ["FX-2B-0600", "BallEndMill"],
        ["FX-DR-0850-5D", "Drill"],
        ["FX-TP-M8", "Tap"],
        ["FX-CH-500-90", "ChamferMill"],
        ["FX-FM-063", "FaceMill"],
        ["55555555-6666-4777-8888-999900001111", "Tap"],
        ["FX-CD-A25", "CentreDrill"],
      ],
    );
    assert.deepEqual(imported.skipped, [
      { index: 5, reason: 'unsupported tool type "radius mill"' },
      { index: 6, reason: "a holder on its own, not a tool (holders are imported with their tools)" },
      {
        index: 7,
        reason:
          "invalid: tool_parameters.CornerRadius below_half_diameter (3.5 mm is not below half the diameter (3 mm): that is a BallEndMill)",
      },
      { index: 11, reason: "duplicate article number FX-2B-0600 (first at index 1)" },
    ]);
    for (const e of imported.entries) assert.equal(validateAssembly(e.assembly).ok, true, e.article_number);
  });

  it("maps Fusion's geometry to our parameters, with the flute length as the depth of cut of an end mill", () => {
    const { entry: e, tool } = entry("FX-3F-1000");
    assert.deepEqual(tool.tool_parameters, {
      CuttingDiameter: 10,
      DepthOfCutMaximum: 22,
      OverallLength: 72,
      FluteLength: 22,
      ShankDiameter: 10,
      LengthBelowHolder: 40,
      NumberOfFlutes: 3,
    });
    assert.equal(tool.name, "10mm 3FL END MILL ALU");
    assert.equal(tool.manufacturer, "Fixture Tools");
    assert.equal(tool.tool_material, "carbide");
    assert.equal(tool.hand, "right");
    assert.equal(tool.flute_count, 3);
    assert.deepEqual(tool.vendor_data?.["post-process"], {
      "break-control": false,
      comment: "",
      "diameter-offset": 1,
      "length-offset": 1,
      live: true,
      "manual-tool-change": false,
      number: 1,
      turret: 0,
    });
    assert.deepEqual(
      [e.diameter_mm, e.flute_length_mm, e.overall_length_mm, e.shank_diameter_mm, e.family, e.standard],
      [10, 22, 72, 10, "mill", null],
    );
  });

  it("turns the holder's segments round: ours run from the gauge line down", () => {
    const { holder } = entry("FX-3F-1000");
    assert.ok(holder?.component_type === "adaptive_item");
    assert.equal(holder.adaptive_item.name, "BT40 ER32 collet chuck 70");
    assert.equal(holder.adaptive_item.manufacturer, "Fixture Holders Ltd");
    assert.equal(holder.adaptive_item.article_number, "FX-BT40-ER32-70");
    assert.equal(holder.adaptive_item.gauge_length_mm, 68);
    assert.deepEqual(holder.adaptive_item.segments?.[0], {
      length_mm: 16,
      upper_diameter_mm: 63,
      lower_diameter_mm: 63,
    });
    assert.deepEqual(holder.adaptive_item.segments?.at(-1), {
      length_mm: 3,
      upper_diameter_mm: 50,
      lower_diameter_mm: 44,
    });
  });

  it("keeps presets' speeds and feeds in mm, dropping derived values that disagree", () => {
    const { tool } = entry("FX-3F-1000");
    assert.deepEqual(tool.cutting_data, [
      {
        name: "Aluminium finishing",
        spindle_speed_rpm: 9550,
        cutting_speed_m_min: 300,
        feed_per_tooth_mm: 0.05,
        feed_rate_mm_min: 1432.5,
        plunge_feed_rate_mm_min: 400,
        ramp_feed_rate_mm_min: 900,
        stepdown_mm: 10,
        stepover_mm: 1.5,
        coolant: "flood",
      },
      // its v_c of 999 m/min does not match 8000 rpm on 10 mm: dropped
      {
        name: "Roughing",
        spindle_speed_rpm: 8000,
        feed_per_tooth_mm: 0.06,
        feed_rate_mm_min: 1440,
        plunge_feed_rate_mm_min: 300,
        coolant: "mist",
      },
    ]);
    assert.equal(entry("FX-DR-0850-5D").tool.cutting_data?.[0]?.coolant, "through_tool");
  });

  it("converts an inch tool, its inch holder and its presets to mm", () => {
    const { tool, holder } = entry("FX-CH-500-90");
    assert.deepEqual(tool.tool_parameters, {
      CuttingDiameter: 12.7,
      OverallLength: 63.5,
      FluteLength: 6.35,
      ShankDiameter: 12.7,
      LengthBelowHolder: 31.75,
      NumberOfFlutes: 4,
      TipDiameter: 0.762,
      ChamferAngle: 45,
    });
    assert.ok(holder?.component_type === "adaptive_item");
    assert.equal(holder.adaptive_item.gauge_length_mm, 63.5);
    assert.equal(
      holder.adaptive_item.manufacturer,
      "Fixture Tools",
      "an empty holder vendor falls back to the manufacturer",
    );
    const preset = tool.cutting_data?.[0];
    assert.equal(preset?.feed_rate_mm_min, 1016);
    assert.equal(preset?.feed_per_tooth_mm, 0.0508);
    assert.ok(
      preset?.cutting_speed_m_min !== undefined && Math.abs(preset.cutting_speed_m_min - 199.49) < 0.01,
      "654.5 ft/min",
    );
  });

  it("imports taps with their pitch and hand, an inch one in mm, and takes the guid without a product-id", () => {
    assert.deepEqual(
      [entry("FX-TP-M8").tool.tool_parameters.ThreadPitch, entry("FX-TP-M8").tool.hand],
      [1.25, "right"],
    );
    const { tool } = entry("55555555-6666-4777-8888-999900001111");
    assert.deepEqual(
      [
        tool.tool_parameters.CuttingDiameter,
        tool.tool_parameters.ThreadPitch,
        tool.tool_parameters.ThreadProfileAngle,
        tool.hand,
      ],
      [6.35, 1.27, 60, "left"],
    );
    assert.equal(tool.tool_material, "hss");
  });

  it("reads a centre drill's countersink from its taper angle, a face mill's lead from its taper angle", () => {
    const cd = entry("FX-CD-A25").tool.tool_parameters;
    assert.deepEqual([cd.PointAngle, cd.TipDiameter, cd.TipLength, cd.FluteLength], [60, 2.5, 3.1, undefined]);
    const fm = entry("FX-FM-063").tool.tool_parameters;
    assert.deepEqual([fm.LeadAngle, fm.CornerRadius, fm.DepthOfCutMaximum, fm.ShankDiameter], [90, 0.8, 10, 22]);
    assert.equal(entry("FX-2B-0600").tool.tool_parameters.CornerRadius, 3);
  });

  it("makes the post-process number the assembly's pocket number, where it is a T number", () => {
    assert.deepEqual(
      imported.entries.map((e) => [e.article_number, e.assembly.pocket_number]),
      [
        ["FX-3F-1000", 1],
        // Fusion's 0 is no number
        ["FX-2B-0600", undefined],
        ["FX-DR-0850-5D", undefined],
        ["FX-TP-M8", undefined],
        ["FX-CH-500-90", undefined],
        ["FX-FM-063", 12],
        ["55555555-6666-4777-8888-999900001111", undefined],
        ["FX-CD-A25", undefined],
      ],
    );
    // the number stays in vendor_data too, with the offsets Fusion keeps beside it
    const kept = entry("FX-FM-063").tool.vendor_data?.["post-process"] as Record<string, unknown> | undefined;
    assert.deepEqual([kept?.number, kept?.["length-offset"]], [12, 12]);
    const numbered = (number: unknown) =>
      parseFusionLibrary(
        {
          data: [
            {
              type: "drill",
              unit: "millimeters",
              "product-id": "D5",
              geometry: { DC: 5, OAL: 62, LCF: 26 },
              "post-process": { number },
            },
          ],
        },
        { manufacturer: "M" },
      ).entries[0]?.assembly.pocket_number;
    assert.deepEqual([7, 9999, 10000, 2.5, -3, "7", null].map(numbered), [7, 9999, ...Array(5).fill(undefined)]);
  });

  it("gives imported entries ids that come back on the next import", () => {
    const again = parseFusionLibrary(JSON.parse(SAMPLE), { manufacturer: "Fixture Tools" });
    assert.deepEqual(again, imported);
    assert.equal(entry("FX-TP-M8").entry.assembly.uuid, catalogueUuid("assembly", "Fixture Tools", "FX-TP-M8"));
  });

  it("makes a flat end mill with a corner radius a bull nose end mill", () => {
    const library = {
      data: [
        {
          type: "flat end mill",
          unit: "millimeters",
          "product-id": "R05",
          geometry: { DC: 8, LCF: 16, OAL: 63, SFDM: 8, NOF: 4, RE: 0.5 },
        },
      ],
    };
    const result = parseFusionLibrary(library, { manufacturer: "M" });
    assert.equal(result.entries[0]?.tool_type, "BullNoseEndMill");
  });

  it("skips tools without a unit, geometry or id, and refuses what is not a tool library", () => {
    const result = parseFusionLibrary(
      {
        data: [
          { type: "drill", unit: "furlongs", "product-id": "A", geometry: {} },
          { type: "drill", unit: "millimeters", "product-id": "B" },
          { type: "drill", unit: "millimeters", geometry: { DC: 5 } },
          7,
        ],
      },
      { manufacturer: "M" },
    );
    assert.deepEqual(
      result.skipped.map((s) => s.reason),
      [
        'unknown unit "furlongs" (expected millimeters or inches)',
        "no geometry",
        "neither product-id nor guid: no article number",
        "not an object",
      ],
    );
    assert.throws(() => parseFusionLibrary("{", { manufacturer: "M" }), FusionLibraryError);
    assert.throws(() => parseFusionLibrary({ tools: [] }, { manufacturer: "M" }), /expected \{"data"/);
    assert.throws(() => parseFusionLibrary(SAMPLE, { manufacturer: " " }), /manufacturer is required/);
  });

  it("maps every Fusion type it names to one of ours", () => {
    assert.equal(FUSION_TOOL_TYPES["tap left hand"], "Tap");
    assert.equal(FUSION_TOOL_TYPES["center drill"], "CentreDrill");
    assert.equal(FUSION_TOOL_TYPES["radius mill"], undefined);
  });
});
