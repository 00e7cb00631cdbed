import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { CuttingPreset, cuttingPresetViolations } from "./cutting-data.ts";

const rules = (preset: unknown, diameter?: number, flutes?: number) =>
  cuttingPresetViolations(preset, "cutting_data.0", diameter, flutes).map((v) => `${v.field} ${v.rule}`);

describe("cuttingPresetViolations", () => {
  it("passes a preset whose speed and feeds agree (within 2 %)", () => {
    const preset = {
      name: "Steel",
      spindle_speed_rpm: 9550,
      cutting_speed_m_min: 300,
      feed_per_tooth_mm: 0.05,
      feed_rate_mm_min: 1432.5,
      stepover_mm: 1.5,
    };
    assert.equal(CuttingPreset.safeParse(preset).success, true);
    assert.deepEqual(rules(preset, 10, 3), []);
    assert.deepEqual(rules({ ...preset, cutting_speed_m_min: 305 }, 10, 3), []);
  });

  it("names the numbers that disagree, and those not above 0", () => {
    assert.deepEqual(
      rules(
        {
          name: "x",
          spindle_speed_rpm: 1000,
          cutting_speed_m_min: 100,
          feed_per_tooth_mm: 0.1,
          feed_rate_mm_min: 500,
          stepover_mm: 12,
        },
        10,
        3,
      ),
      [
        "cutting_data.0.cutting_speed_m_min consistent_with_spindle_speed",
        "cutting_data.0.feed_rate_mm_min consistent_with_feed_per_tooth",
        "cutting_data.0.stepover_mm at_most_cutting_diameter",
      ],
    );
    assert.deepEqual(
      rules({ name: "tap", spindle_speed_rpm: 400, feed_per_revolution_mm: 1.25, feed_rate_mm_min: 400 }, 8),
      ["cutting_data.0.feed_rate_mm_min consistent_with_feed_per_revolution"],
    );
    assert.deepEqual(rules({ name: "x", spindle_speed_rpm: 0, feed_rate_mm_min: -5 }), [
      "cutting_data.0.spindle_speed_rpm positive",
      "cutting_data.0.feed_rate_mm_min positive",
    ]);
  });

  it("skips what it cannot compare: no diameter, no flutes, not an object", () => {
    assert.deepEqual(
      rules({ name: "x", spindle_speed_rpm: 1000, cutting_speed_m_min: 1, feed_per_tooth_mm: 1, feed_rate_mm_min: 1 }),
      [],
    );
    assert.deepEqual(rules("fast"), []);
  });

  it("refuses unknown fields and coolant modes in the schema", () => {
    assert.equal(CuttingPreset.safeParse({ name: "x", rpm: 1000 }).success, false);
    assert.equal(CuttingPreset.safeParse({ name: "x", coolant: "lots" }).success, false);
  });
});
