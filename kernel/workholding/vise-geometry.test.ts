import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { defaultWorkholding } from "./defaults.ts";
import type { Box3 } from "../math/box3.ts";
import { PARALLEL_THICKNESS_MM, viseLayout } from "./vise-geometry.ts";

const vmcVise = defaultWorkholding("vmc-850-fanuc");
assert.ok(vmcVise?.kind === "vise");
// 100 x 80 x 50 mm, centred on x and y, its bottom at z = 0
const stock: Box3 = { min: [-50, -40, 0], max: [50, 40, 50] };

const near = (a: number, b: number, what: string) => assert.ok(Math.abs(a - b) <= 1e-9, `${what}: ${a} vs ${b}`);

describe("viseLayout", () => {
  it("holds a 100 x 80 x 50 stock in the default VMC vise: jaws at y = ±40, 5 mm grip, 45 mm stick-out", () => {
    const layout = viseLayout(vmcVise, stock, 5);
    const { fixed, moving } = layout.jaws;
    near(fixed.min[1], 40, "fixed jaw face");
    near(moving.max[1], -40, "moving jaw face");
    near(fixed.max[1], 60, "fixed jaw back");
    near(moving.min[1], -60, "moving jaw back");
    for (const jaw of [fixed, moving]) {
      near(jaw.min[0], -75, "jaw start");
      near(jaw.max[0], 75, "jaw end");
      near(jaw.max[2], 5, "jaw top");
      near(jaw.min[2], -40, "vise ways");
    }
    assert.equal(layout.grip_mm, 5);
    assert.equal(layout.parallel_height_mm, 40);
    assert.equal(layout.opening_mm, 80);
    assert.equal(layout.stick_out_mm, 45);
  });

  it("puts two parallels along x under the stock, inside the jaw faces, from the ways to the stock", () => {
    const { supports } = viseLayout(vmcVise, stock, 5);
    assert.deepEqual(supports, [
      { min: [-75, -40, -40], max: [75, -40 + PARALLEL_THICKNESS_MM, 0] },
      { min: [-75, 40 - PARALLEL_THICKNESS_MM, -40], max: [75, 40, 0] },
    ]);
  });

  it("centres the jaws on a stock off the origin and stands it on the ways for a full-depth grip", () => {
    const layout = viseLayout(vmcVise, { min: [10, 5, -20], max: [40, 35, 30] }, 45);
    assert.deepEqual(layout.jaws.moving, { min: [-50, -15, -20], max: [100, 5, 25] });
    assert.deepEqual(layout.supports, []);
    assert.equal(layout.parallel_height_mm, 0);
    assert.equal(layout.stick_out_mm, 5);
  });

  it("lets the parallels meet, not cross, under a stock narrower than two of them", () => {
    const { supports } = viseLayout(vmcVise, { min: [0, 0, 0], max: [20, 6, 10] }, 5);
    assert.deepEqual(
      supports.map((s) => [s.min[1], s.max[1]]),
      [
        [0, 3],
        [3, 6],
      ],
    );
  });

  it("refuses an empty stock and a grip outside the jaws", () => {
    assert.throws(() => viseLayout(vmcVise, { min: [0, 0, 0], max: [10, 0, 10] }, 5), RangeError);
    assert.throws(() => viseLayout(vmcVise, stock, 0), RangeError);
    assert.throws(() => viseLayout(vmcVise, stock, 46), RangeError);
  });
});
