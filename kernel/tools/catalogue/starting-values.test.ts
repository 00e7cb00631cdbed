import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { cuttingPresetViolations } from "../cutting-data.ts";
import { drillFeedPerRevolution, endMillFeedPerTooth, SPINDLE_MAX_RPM, startingPreset } from "./starting-values.ts";

describe("startingPreset", () => {
  it("derives rpm from the cutting speed and keeps every number consistent", () => {
    const preset = startingPreset({
      workpiece: "steel",
      cuttingSpeed: 120,
      diameter: 10,
      coolant: "flood",
      feed: { perTooth: 0.06, flutes: 3 },
    });
    assert.equal(preset.spindle_speed_rpm, 3820);
    assert.equal(preset.feed_rate_mm_min, Math.round(0.06 * 3 * 3820 * 10) / 10);
    assert.deepEqual(cuttingPresetViolations(preset, "p", 10, 3), []);
  });

  it("caps the spindle and gives the speed it really reaches", () => {
    const preset = startingPreset({
      workpiece: "aluminium",
      cuttingSpeed: 400,
      diameter: 1,
      coolant: "mist",
      feed: { perRevolution: 0.01 },
    });
    assert.equal(preset.spindle_speed_rpm, SPINDLE_MAX_RPM);
    assert.equal(preset.cutting_speed_m_min, 37.7);
    assert.equal(preset.workpiece_material, "N");
    assert.deepEqual(cuttingPresetViolations(preset, "p", 1, undefined), []);
  });

  it("feeds scale with the diameter within bounds", () => {
    assert.equal(endMillFeedPerTooth(0.2, "steel"), 0.004);
    assert.equal(endMillFeedPerTooth(10, "steel"), 0.06);
    assert.equal(endMillFeedPerTooth(40, "aluminium"), 0.15);
    assert.equal(drillFeedPerRevolution(10, true), 0.2);
    assert.equal(drillFeedPerRevolution(40, false), 0.4);
  });
});
