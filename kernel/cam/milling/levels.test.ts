import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { reach, wideBodies, zLevels } from "./levels.ts";
import { endMill } from "./test-support.ts";

describe("Z levels", () => {
  it("land exactly on every floor plus the allowance and are never more than the stepdown apart", () => {
    const floors = [-2, -7.3, -7.9, -16];
    const levels = zLevels({ top: 0, bottom: -30, floors, stepdown: 3, allowance_z: 0.2 });
    for (const floor of floors) assert.ok(levels.includes(floor + 0.2), `${floor} + 0.2 in ${levels}`);
    assert.equal(levels[levels.length - 1], -30);
    let previous = 0;
    for (const z of levels) {
      assert.ok(previous - z > 0 && previous - z <= 3 + 1e-9, `step ${previous} -> ${z}`);
      previous = z;
    }
  });

  it("splits a gap between floors evenly rather than leaving a thin last step", () => {
    const levels = zLevels({ top: 0, bottom: -10, floors: [], stepdown: 4 });
    assert.deepEqual(
      levels.map((z) => Number(z.toFixed(9))),
      [-3.333333333, -6.666666667, -10],
    );
  });

  it("gives no level when the bottom is not below the top, and refuses a stepdown of zero", () => {
    assert.deepEqual(zLevels({ top: -5, bottom: -5, floors: [], stepdown: 1 }), []);
    assert.throws(() => zLevels({ top: 0, bottom: -5, floors: [], stepdown: 0 }), RangeError);
  });
});

describe("reach", () => {
  it("starts at the flutes' end when the shank is wider than the cut", () => {
    const tool = endMill(6, { shank_diameter: 8, flute_length: 15, stick_out: 40 });
    assert.deepEqual(wideBodies(tool)[0], { name: "shank", from: 15, radius: 4 });
    assert.equal(reach(tool), 15);
  });

  it("lets a neck narrower than the cut through the slot and starts at the shank or the holder", () => {
    const necked = endMill(6, {
      neck_diameter: 5.6,
      neck_length: 30,
      shank_diameter: 8,
      flute_length: 12,
      stick_out: 45,
    });
    assert.equal(reach(necked), 30);
    const relieved = endMill(10, { shank_diameter: 9.98, stick_out: 50 });
    assert.equal(reach(relieved), 50, "a shank 0.02 mm under the cut: the holder's nose");
    assert.equal(reach(endMill(10, { shank_diameter: 9.98, holder: [] })), Infinity);
  });

  it("stops a shank as wide as the cut at the flutes' end: it would rub the wall the flutes made", () => {
    const straight = endMill(10, { shank_diameter: 10, flute_length: 22, stick_out: 50 });
    assert.deepEqual(wideBodies(straight)[0], { name: "shank", from: 22, radius: 5 });
    assert.equal(reach(straight), 22);
  });
});
