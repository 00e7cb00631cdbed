import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { findMachineArchetype, type MachineArchetype } from "../../machines/archetypes.ts";
import { cuttingData } from "../../materials/cutting-data.ts";
import { airFeed, cuttingParametersFor, PLUNGE_FEED_FRACTION, ROUGHING_ALLOWANCE } from "./feeds.ts";
import { cutterOf } from "./test-library.ts";

function machine(id: string): MachineArchetype {
  const m = findMachineArchetype(id);
  if (!m) throw new Error(id);
  return m;
}

const vmc = machine("vmc-850-fanuc");
const limits = {
  maxSpindleRpm: vmc.max_spindle_rpm,
  minSpindleRpm: vmc.min_spindle_rpm,
  maxFeedMmPerMin: vmc.max_feed_mm_min,
};
// 10 mm, 3 flutes, uncoated carbide for aluminium
const endMill = cutterOf("SSR-EM3-1000-K-UC");

describe("cutting parameters", () => {
  it("finishes with a 10 mm carbide end mill in aluminium-6061 at the VMC 850's 10,000 rpm, not the table's 11,459, keeping fz", () => {
    const { parameters, clamps, conditions } = cuttingParametersFor(endMill, "aluminium-6061", vmc, "wall_finishing");
    const direct = cuttingData(
      "aluminium-6061",
      { toolFamily: "end_mill_finishing", toolMaterial: "carbide", diameterMm: 10, flutes: 3 },
      limits,
    );
    assert.equal(direct.recommended.spindleRpm, 11459);
    assert.equal(parameters.spindle_rpm, 10_000);
    assert.equal(parameters.spindle_rpm, direct.spindleRpm);
    // fz 0.08 x 0.7 (finishing) at 10 mm, 3 flutes, at the clamped speed
    assert.equal(parameters.feed_mm_min, 1680);
    assert.equal(parameters.feed_mm_min, direct.feedMmPerMin);
    assert.deepEqual(conditions, direct);
    assert.deepEqual(
      clamps.map((c) => c.code),
      ["max_spindle_rpm"],
    );
    assert.match(clamps[0]?.message ?? "", /11459 rpm recommended, VMC 850 \(Fanuc 0i-MF\) turns at most 10000 rpm/);
    assert.equal(parameters.plunge_feed_mm_min, Math.round(1680 * PLUNGE_FEED_FRACTION * 10) / 10);
    // finishing takes the table's 5 % ae and leaves nothing
    assert.equal(parameters.stepover_mm, 0.5);
    assert.deepEqual([parameters.allowance_xy_mm, parameters.allowance_z_mm], [0, 0]);
  });

  it("roughs with the same tool at the table's 9549 rpm, which the machine reaches, ap 1 D and ae 0.4 D", () => {
    const { parameters, clamps } = cuttingParametersFor(endMill, "aluminium-6061", vmc, "roughing");
    const direct = cuttingData(
      "aluminium-6061",
      { toolFamily: "end_mill_roughing", toolMaterial: "carbide", diameterMm: 10, flutes: 3 },
      limits,
    );
    assert.deepEqual([parameters.spindle_rpm, parameters.feed_mm_min], [direct.spindleRpm, direct.feedMmPerMin]);
    assert.deepEqual([parameters.spindle_rpm, parameters.feed_mm_min], [9549, 2291.8]);
    assert.deepEqual(clamps, []);
    assert.deepEqual([parameters.stepdown_mm, parameters.stepover_mm], [10, 4]);
    assert.deepEqual(
      [parameters.allowance_xy_mm, parameters.allowance_z_mm],
      [ROUGHING_ALLOWANCE.xy, ROUGHING_ALLOWANCE.z],
    );
    assert.equal(parameters.coolant, "flood");
  });

  it("steps down no deeper than the tool's DepthOfCutMaximum, and says so", () => {
    const shallow = { ...endMill, max_stepdown: 4 };
    const { parameters, clamps } = cuttingParametersFor(shallow, "aluminium-6061", vmc, "roughing");
    assert.equal(parameters.stepdown_mm, 4);
    assert.deepEqual(
      clamps.map((c) => c.code),
      ["tool_max_stepdown"],
    );
  });

  it("taps an M8 in C45 at feed = rpm x 1.25 mm, and drills pecking one diameter at the drill's own feed", () => {
    const tap = cuttingParametersFor(cutterOf("SSR-TP-M8X125-SF-HSSE"), "steel-c45", vmc, "tapping").parameters;
    assert.equal(tap.spindle_rpm, 398);
    assert.equal(tap.feed_mm_min, 398 * 1.25);
    assert.equal(tap.plunge_feed_mm_min, tap.feed_mm_min);
    const drill = cuttingParametersFor(cutterOf("SSR-DR338-0500-HSS"), "steel-c45", vmc, "drilling").parameters;
    const direct = cuttingData(
      "steel-c45",
      { toolFamily: "drill", toolMaterial: "hss", diameterMm: 5, flutes: 2 },
      limits,
    );
    assert.deepEqual(
      [drill.spindle_rpm, drill.feed_mm_min, drill.plunge_feed_mm_min, drill.stepdown_mm],
      [direct.spindleRpm, direct.feedMmPerMin, direct.feedMmPerMin, 5],
    );
  });

  it("clamps a 63 mm face mill in aluminium up to a router's 8000 rpm minimum and its feed down to 5000 mm/min", () => {
    const router = machine("router-450-grbl");
    // the table: 420 m/min is 2122 rpm; 0.2 mm per insert x 5 at 8000 rpm would be 8000 mm/min
    const { parameters, clamps } = cuttingParametersFor(
      cutterOf("SSR-FM45-063-Z05"),
      "aluminium-6061",
      router,
      "face_milling",
    );
    assert.deepEqual(
      clamps.map((c) => c.code),
      ["min_spindle_rpm", "max_feed"],
    );
    assert.deepEqual([parameters.spindle_rpm, parameters.feed_mm_min], [8000, 5000]);
  });

  it("blows plastic chips clear with air and faces steel dry with carbide inserts", () => {
    assert.equal(cuttingParametersFor(endMill, "plastic-pom-c", vmc, "roughing").parameters.coolant, "air");
    const face = cuttingParametersFor(cutterOf("SSR-FM45-063-Z05"), "steel-c45", vmc, "face_milling").parameters;
    assert.equal(face.coolant, "air");
    // a 45° face mill's ap is 3 % of D, its ae 70 %
    assert.deepEqual([face.stepdown_mm, face.stepover_mm], [1.89, 44.1]);
  });

  it("feeds through cleared air at three times the cutting feed, within the machine's max feed", () => {
    assert.equal(airFeed(168, vmc), 504);
    assert.equal(airFeed(4000, vmc), vmc.max_feed_mm_min);
    // never slower than the cutting feed, even at the machine's limit
    assert.equal(airFeed(vmc.max_feed_mm_min, vmc), vmc.max_feed_mm_min);
  });
});
