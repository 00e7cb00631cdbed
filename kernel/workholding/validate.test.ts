import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { TEST_PLATE, TEST_VISE } from "./test-support.ts";
import { checkWorkholding, type WorkholdingCheck } from "./validate.ts";

const vise = TEST_VISE;
const plate = TEST_PLATE;

const fine = { stockSize: [100, 80, 50] as [number, number, number], machineTravelZ: 550, gripMm: 5 };

/** [field, code] of each problem, in order */
function found(check: WorkholdingCheck): [string, string][] {
  return check.ok ? [] : check.problems.map((p) => [p.field, p.code]);
}

describe("checkWorkholding: a vise", () => {
  it("holds a 100 x 80 x 50 stock with a 5 mm grip on a 550 mm Z travel", () => {
    assert.deepEqual(checkWorkholding(vise, fine), { ok: true });
  });

  it("names max_opening_mm when the stock is wider across the jaws than the vise opens", () => {
    const check = checkWorkholding(vise, { ...fine, stockSize: [100, 230, 50] });
    assert.deepEqual(found(check), [["workholding.max_opening_mm", "opening_too_small"]]);
    assert.match(check.ok ? "" : check.problems[0]!.message, /opens to 225 mm, the stock is 230 mm/);
    // along the jaws the stock may overhang them
    assert.deepEqual(checkWorkholding(vise, { ...fine, stockSize: [300, 80, 50] }), { ok: true });
  });

  it("names jaw_height_mm when jaws and stock on its parallels stand taller than the Z travel", () => {
    // 45 mm jaws, the stock on 40 mm parallels: its top at 40 + 50 = 90 mm above the ways
    assert.deepEqual(checkWorkholding(vise, { ...fine, machineTravelZ: 90 }), { ok: true });
    const check = checkWorkholding(vise, { ...fine, machineTravelZ: 89 });
    assert.deepEqual(found(check), [["workholding.jaw_height_mm", "taller_than_z_travel"]]);
    assert.match(check.ok ? "" : check.problems[0]!.message, /stand 90 mm tall.*Z travel of 89 mm/);
    const tallJaws = checkWorkholding({ ...vise, jaw_height_mm: 600 }, { ...fine, gripMm: 600 });
    assert.deepEqual(found(tallJaws), [["workholding.jaw_height_mm", "taller_than_z_travel"]]);
  });

  it("names jaw_height_mm for a grip deeper than the jaws", () => {
    const check = checkWorkholding(vise, { ...fine, gripMm: 46 });
    assert.deepEqual(found(check), [["workholding.jaw_height_mm", "grip_deeper_than_jaws"]]);
  });

  it("names grip_mm for a grip under 3 mm", () => {
    assert.deepEqual(checkWorkholding(vise, { ...fine, gripMm: 3 }), { ok: true });
    const check = checkWorkholding(vise, { ...fine, gripMm: 2.5 });
    assert.deepEqual(found(check), [["grip_mm", "grip_too_shallow"]]);
  });

  it("lists every problem at once", () => {
    const check = checkWorkholding(vise, { stockSize: [100, 300, 50], machineTravelZ: 40, gripMm: 2 });
    assert.deepEqual(found(check), [
      ["grip_mm", "grip_too_shallow"],
      ["workholding.max_opening_mm", "opening_too_small"],
      ["workholding.jaw_height_mm", "taller_than_z_travel"],
    ]);
  });
});

describe("checkWorkholding: a fixture plate", () => {
  it("holds a stock that fits the plate", () => {
    assert.deepEqual(checkWorkholding(plate, { ...fine, machineTravelZ: 100 }), { ok: true });
  });

  it("names the plate's side the stock overhangs", () => {
    const check = checkWorkholding(plate, { ...fine, stockSize: [410, 310, 20] });
    assert.deepEqual(found(check), [
      ["workholding.plate_length_mm", "stock_larger_than_plate"],
      ["workholding.plate_width_mm", "stock_larger_than_plate"],
    ]);
  });

  it("names the plate or the clamps when they stand taller than the Z travel", () => {
    const stockTaller = checkWorkholding(plate, { ...fine, machineTravelZ: 61 });
    assert.deepEqual(found(stockTaller), [["workholding.plate_thickness_mm", "taller_than_z_travel"]]);
    const clampsTaller = checkWorkholding(plate, { ...fine, stockSize: [100, 80, 10], machineTravelZ: 31 });
    assert.deepEqual(found(clampsTaller), [["workholding.clamp_height_mm", "taller_than_z_travel"]]);
  });

  it("names clamp_height_mm for clamps under 3 mm tall: they grip over their height", () => {
    assert.deepEqual(found(checkWorkholding({ ...plate, clamp_height_mm: 2 }, fine)), [
      ["workholding.clamp_height_mm", "grip_too_shallow"],
    ]);
  });
});
