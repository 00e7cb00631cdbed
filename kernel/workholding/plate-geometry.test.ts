import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Box3 } from "../math/box3.ts";
import { defaultWorkholding } from "./defaults.ts";
import { plateLayout } from "./plate-geometry.ts";
import { TEST_PLATE } from "./test-support.ts";

const routerPlate = defaultWorkholding("router-450-grbl");
assert.ok(routerPlate?.kind === "fixture_plate");
// 100 x 80 x 50 mm, centred on x and y, its bottom at z = 0
const stock: Box3 = { min: [-50, -40, 0], max: [50, 40, 50] };

describe("plateLayout", () => {
  it("holds a 100 x 80 x 50 stock on the router's plate: two clamps on each y face, 20 mm grip, 30 mm stick-out", () => {
    const layout = plateLayout(routerPlate, stock, 1);
    assert.deepEqual(layout.plate, { min: [-200, -200, -12], max: [200, 200, 0] });
    // the middle 80 mm of the 100 mm face in two shares of 40: clamps centred at -20 and 20
    assert.deepEqual(layout.clamps, [
      { min: [-30, 40, 0], max: [-10, 90, 20] },
      { min: [10, 40, 0], max: [30, 90, 20] },
      { min: [-30, -90, 0], max: [-10, -40, 20] },
      { min: [10, -90, 0], max: [30, -40, 20] },
    ]);
    assert.equal(layout.grip_mm, 20);
    assert.equal(layout.stick_out_mm, 30);
  });

  it("clamps the x faces across x, the odd clamp on the high face, and centres a long narrow plate on the stock", () => {
    const layout = plateLayout({ ...TEST_PLATE, clamp_count: 3 }, { min: [10, 5, -20], max: [40, 85, 30] }, 0);
    // TEST_PLATE is 400 along x, 300 along y, 12 thick
    assert.deepEqual(layout.plate, { min: [-175, -105, -32], max: [225, 195, -20] });
    // the middle 64 mm of the 80 mm face from y = 13: two shares of 32 on the high face, one of 64 on the low
    assert.deepEqual(
      layout.clamps.map((c) => [c.min[0], c.max[0], c.min[1], c.max[1]]),
      [
        [40, 90, 19, 39],
        [40, 90, 51, 71],
        [-40, 10, 35, 55],
      ],
    );
  });

  it("sets no more clamps on a face than fit side by side over its middle 80 %", () => {
    // 40 mm long faces: 32 mm take one 20 mm clamp; eight clamps asked for
    const layout = plateLayout({ ...routerPlate, clamp_count: 8 }, { min: [0, 0, 0], max: [40, 30, 10] }, 1);
    assert.deepEqual(
      layout.clamps.map((c) => [c.min[0], c.max[0], c.min[1]]),
      [
        [10, 30, 30],
        [10, 30, -50],
      ],
    );
  });

  it("refuses an empty stock", () => {
    assert.throws(() => plateLayout(routerPlate, { min: [0, 0, 0], max: [10, 0, 10] }, 1), RangeError);
  });
});
