import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { ToolParameterName } from "./tool-parameters.ts";
import { toolRuleViolations } from "./tool-rules.ts";
import type { ToolType } from "./tool-types.ts";

function check(
  type: ToolType | undefined,
  params: Partial<Record<ToolParameterName, number>>,
  fluteCount?: number,
): string[] {
  return toolRuleViolations({ toolType: type, present: new Set(Object.keys(params)), params, fluteCount }).map(
    (v) => `${v.field.replace("tool_parameters.", "")} ${v.rule}`,
  );
}

const endMill = { CuttingDiameter: 10, DepthOfCutMaximum: 22, OverallLength: 72, FluteLength: 22 };
const drill = { CuttingDiameter: 8.5, OverallLength: 117, FluteLength: 75, PointAngle: 118 };
const tap = { CuttingDiameter: 8, OverallLength: 90, ThreadPitch: 1.25, TapDrillDiameter: 6.8 };

describe("toolRuleViolations", () => {
  it("passes valid tools of every family", () => {
    assert.deepEqual(check("CentreCuttingEndMill", { ...endMill, CornerRadius: 0, NumberOfFlutes: 3 }, 3), []);
    assert.deepEqual(check("BallEndMill", { ...endMill, CornerRadius: 5 }), []);
    assert.deepEqual(check("BullNoseEndMill", { ...endMill, CornerRadius: 1 }), []);
    assert.deepEqual(check("Drill", drill), []);
    assert.deepEqual(check("SpotDrill", { CuttingDiameter: 10, OverallLength: 89, PointAngle: 142 }), []);
    assert.deepEqual(
      check("CentreDrill", {
        CuttingDiameter: 6.3,
        OverallLength: 45,
        PointAngle: 60,
        TipDiameter: 2.5,
        TipLength: 3.1,
      }),
      [],
    );
    assert.deepEqual(
      check("ChamferMill", { CuttingDiameter: 10, OverallLength: 60, ChamferAngle: 45, TipDiameter: 0.5 }),
      [],
    );
    assert.deepEqual(
      check("FaceMill", {
        CuttingDiameter: 63,
        OverallLength: 40,
        DepthOfCutMaximum: 10,
        LeadAngle: 90,
        CornerRadius: 0.8,
        NumberOfFlutes: 5,
      }),
      [],
    );
    assert.deepEqual(
      check("SlotMill", {
        CuttingDiameter: 20,
        FluteLength: 3,
        OverallLength: 80,
        NeckDiameter: 12,
        NeckLength: 40,
        CornerRadius: 0.2,
      }),
      [],
    );
    assert.deepEqual(
      check("Reamer", { CuttingDiameter: 8, OverallLength: 91, FluteLength: 18, NumberOfFlutes: 6 }),
      [],
    );
    assert.deepEqual(check("Tap", { ...tap, FluteLength: 22, ThreadProfileAngle: 60 }), []);
    assert.deepEqual(
      check("ThreadMill", { CuttingDiameter: 4.8, OverallLength: 57, ThreadPitch: 1, FluteLength: 14 }),
      [],
    );
  });

  it("requires the diameter only (the rest is assumed where used) and refuses the parameters a type has no use for", () => {
    assert.deepEqual(check("BullNoseEndMill", { CuttingDiameter: 6, OverallLength: 57 }), []);
    assert.deepEqual(check("Tap", { CuttingDiameter: 6 }), []);
    assert.deepEqual(check("Drill", { OverallLength: 80 }), ["CuttingDiameter required"]);
    assert.deepEqual(check("Drill", { ...drill, CornerRadius: 0.2, ChamferAngle: 45 }), [
      "CornerRadius not_allowed_for_type",
      "ChamferAngle not_allowed_for_type",
    ]);
  });

  it("wants sizes positive and plausible, angles in range", () => {
    assert.deepEqual(check(undefined, { CuttingDiameter: 0, OverallLength: -1, CornerRadius: -0.1, ThreadPitch: 0 }), [
      "CuttingDiameter positive",
      "OverallLength positive",
      "CornerRadius positive",
      "ThreadPitch positive",
    ]);
    assert.deepEqual(
      check(undefined, {
        CuttingDiameter: 600,
        OverallLength: 1200,
        HelixAngle: 70,
        ChamferAngle: 90,
        LeadAngle: 5,
        ThreadProfileAngle: 120,
        TaperAngle: -1,
      }).sort(),
      [
        "ChamferAngle range",
        "CuttingDiameter range",
        "HelixAngle range",
        "LeadAngle range",
        "OverallLength range",
        "TaperAngle range",
        "ThreadProfileAngle range",
      ],
    );
  });

  it("counts flutes in whole numbers within the type's bounds, agreeing with flute_count", () => {
    assert.deepEqual(check("Drill", { ...drill, NumberOfFlutes: 2.5 }), ["NumberOfFlutes integer"]);
    assert.deepEqual(check("Drill", { ...drill, NumberOfFlutes: 6 }), ["NumberOfFlutes range"]);
    assert.deepEqual(check("Drill", drill, 0), ["flute_count range"]);
    assert.deepEqual(check("Drill", { ...drill, NumberOfFlutes: 2 }, 3), ["NumberOfFlutes matches_flute_count"]);
  });

  it("keeps lengths along the axis inside the tool and the cut inside the flutes", () => {
    assert.deepEqual(
      check("CentreCuttingEndMill", { ...endMill, FluteLength: 80, DepthOfCutMaximum: 75, LengthBelowHolder: 73 }),
      [
        "FluteLength within_overall_length",
        "DepthOfCutMaximum within_overall_length",
        "LengthBelowHolder within_overall_length",
      ],
    );
    assert.deepEqual(check("CentreCuttingEndMill", { ...endMill, DepthOfCutMaximum: 30 }), [
      "DepthOfCutMaximum at_most_flute_length",
    ]);
    // a tap cuts deeper than its thread length: the rule does not apply
    assert.deepEqual(check("Tap", { ...tap, FluteLength: 20, DepthOfCutMaximum: 30 }), []);
  });

  it("wants a neck behind the flutes, no wider than the cut, outside the holder", () => {
    assert.deepEqual(
      check("CentreCuttingEndMill", { ...endMill, NeckDiameter: 9.5, NeckLength: 40, LengthBelowHolder: 45 }),
      [],
    );
    assert.deepEqual(
      check("CentreCuttingEndMill", { ...endMill, NeckDiameter: 10.5, NeckLength: 15, LengthBelowHolder: 12 }),
      ["NeckLength at_least_flute_length", "NeckDiameter at_most_cutting_diameter", "NeckLength neck_outside_holder"],
    );
    assert.deepEqual(check("CentreCuttingEndMill", { ...endMill, NeckLength: 30 }), ["NeckLength requires"]);
    assert.deepEqual(check("SlotMill", { CuttingDiameter: 20, FluteLength: 3, OverallLength: 80, NeckDiameter: 20 }), [
      "NeckDiameter below_cutting_diameter",
    ]);
  });

  it("holds each kind of end mill to its corner", () => {
    assert.deepEqual(check("CentreCuttingEndMill", { ...endMill, CornerRadius: 0.5 }), [
      "CornerRadius zero_for_flat_end_mill",
    ]);
    assert.deepEqual(check("NonCentreCuttingEndMill", { ...endMill, CornerRadius: 0.5 }), [
      "CornerRadius zero_for_flat_end_mill",
    ]);
    assert.deepEqual(check("BallEndMill", { ...endMill, CornerRadius: 4.9 }), ["CornerRadius equals_half_diameter"]);
    assert.deepEqual(check("BallEndMill", { ...endMill, CornerRadius: 5.004 }), [], "within tolerance");
    assert.deepEqual(check("BullNoseEndMill", { ...endMill, CornerRadius: 5 }), ["CornerRadius below_half_diameter"]);
    assert.deepEqual(check("BullNoseEndMill", { ...endMill, CornerRadius: 0 }), ["CornerRadius positive"]);
    assert.deepEqual(
      check("FaceMill", { CuttingDiameter: 50, OverallLength: 40, DepthOfCutMaximum: 6, CornerRadius: 26 }),
      ["CornerRadius at_most_half_diameter"],
    );
    assert.deepEqual(
      check("SlotMill", { CuttingDiameter: 20, FluteLength: 3, OverallLength: 80, NeckDiameter: 12, CornerRadius: 2 }),
      ["CornerRadius at_most_half_width"],
    );
  });

  it("keeps point angles realistic for each drill", () => {
    assert.deepEqual(check("Drill", { ...drill, PointAngle: 50 }), ["PointAngle range"]);
    assert.deepEqual(check("Drill", { ...drill, PointAngle: 180 }), [], "flat bottom drills exist");
    assert.deepEqual(check("SpotDrill", { CuttingDiameter: 10, OverallLength: 89, PointAngle: 150 }), [
      "PointAngle range",
    ]);
    assert.deepEqual(
      check("CentreDrill", { CuttingDiameter: 6.3, OverallLength: 45, PointAngle: 118, TipDiameter: 2.5 }),
      ["PointAngle one_of"],
    );
    assert.deepEqual(
      check("CentreDrill", { CuttingDiameter: 6.3, OverallLength: 45, PointAngle: 90, TipDiameter: 2.5 }),
      [],
    );
  });

  it("keeps tips, tap drills and face mills in proportion", () => {
    assert.deepEqual(
      check("CentreDrill", { CuttingDiameter: 6.3, OverallLength: 45, PointAngle: 60, TipDiameter: 6.3 }),
      ["TipDiameter below_cutting_diameter"],
    );
    assert.deepEqual(
      check("ChamferMill", { CuttingDiameter: 10, OverallLength: 60, ChamferAngle: 45, TipDiameter: 12 }),
      ["TipDiameter below_cutting_diameter"],
    );
    assert.deepEqual(check("FaceMill", { CuttingDiameter: 12, OverallLength: 40, DepthOfCutMaximum: 6 }), [
      "CuttingDiameter range",
    ]);
  });

  it("checks a tap's pitch and tap drill against its size", () => {
    assert.deepEqual(check("Tap", { ...tap, ThreadPitch: 3 }), ["ThreadPitch at_most_third_diameter"]);
    assert.deepEqual(check("Tap", { ...tap, TapDrillDiameter: 8 }), ["TapDrillDiameter below_cutting_diameter"]);
    assert.deepEqual(check("Tap", { ...tap, TapDrillDiameter: 6.2 }), ["TapDrillDiameter at_least_thread_minor"]);
    // a forming tap's core hole is bigger than a cutting tap's
    assert.deepEqual(check("Tap", { ...tap, TapDrillDiameter: 7.4 }), []);
  });
});
