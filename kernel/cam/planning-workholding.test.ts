import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { TEST_PLATE, TEST_VISE } from "../workholding/test-support.ts";
import { workholdingProblems } from "./planning-workholding.ts";

const fields = (problems: { field: string; code: string }[]) => problems.map((p) => `${p.field} ${p.code}`);

describe("workholdingProblems", () => {
  it("holds a stock whose narrower horizontal side fits the opening, whichever of X and Y it is", () => {
    assert.deepEqual(workholdingProblems(TEST_VISE, { stockSize: [300, 100, 40], travelZ: 500 }), []);
    assert.deepEqual(workholdingProblems(TEST_VISE, { stockSize: [100, 300, 40], travelZ: 500 }), []);
  });

  it("names the opening when both horizontal sides are wider than it", () => {
    const problems = workholdingProblems(
      { ...TEST_VISE, max_opening_mm: 90 },
      { stockSize: [120, 100, 40], travelZ: 500 },
    );
    assert.deepEqual(fields(problems), ["workholding.max_opening_mm opening_too_small"]);
    assert.match(problems[0]!.message, /100 mm across the jaws/);
  });

  it("names the jaw height when the jaws and the stock on them stand taller than the Z travel", () => {
    const problems = workholdingProblems(
      { ...TEST_VISE, jaw_height_mm: 400, parallel_heights_mm: [395] },
      {
        stockSize: [100, 50, 40],
        travelZ: 300,
      },
    );
    assert.deepEqual(fields(problems), ["workholding.jaw_height_mm taller_than_z_travel"]);
  });

  it("names the parallels when none leaves the grip the planner holds with", () => {
    const problems = workholdingProblems(
      { ...TEST_VISE, parallel_heights_mm: [10, 20] },
      {
        stockSize: [100, 50, 40],
        travelZ: 500,
      },
    );
    assert.deepEqual(fields(problems), ["workholding.parallel_heights_mm no_grip_on_parallels"]);
  });

  it("holds a plate's footprint turned either way and names the plate when neither fits", () => {
    assert.deepEqual(workholdingProblems(TEST_PLATE, { stockSize: [350, 250, 30], travelZ: 100 }), []);
    assert.deepEqual(workholdingProblems(TEST_PLATE, { stockSize: [250, 350, 30], travelZ: 100 }), []);
    const problems = workholdingProblems(TEST_PLATE, { stockSize: [350, 350, 30], travelZ: 100 });
    assert.deepEqual(fields(problems), ["workholding.plate_width_mm stock_larger_than_plate"]);
  });

  it("names the clamps' height when they are too low to grip or stand taller than the Z travel", () => {
    const low = workholdingProblems({ ...TEST_PLATE, clamp_height_mm: 2 }, { stockSize: [100, 50, 30], travelZ: 100 });
    assert.deepEqual(fields(low), ["workholding.clamp_height_mm grip_too_shallow"]);
    const tall = workholdingProblems(
      { ...TEST_PLATE, clamp_height_mm: 90 },
      { stockSize: [100, 50, 30], travelZ: 100 },
    );
    assert.deepEqual(fields(tall), ["workholding.clamp_height_mm taller_than_z_travel"]);
  });
});
