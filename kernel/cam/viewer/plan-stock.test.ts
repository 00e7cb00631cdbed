import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { boxToFrame, setupFrame } from "../frames.ts";
import { boxesSoup, cutter, feed, operation, rapid, zigzag } from "../simulation/test-support.ts";
import type { Box3, Operation } from "../types.ts";
import { PlanStock } from "./plan-stock.ts";
import { STOCK_CLASS, type StockView } from "./stock-view.ts";
import { STOCK_VIEW_HEADER_BYTES, encodeStockView } from "./stock-view-bytes.ts";

// a 10 mm cube on the table, 2 mm of stock round it and 5 mm over it
const PART: Box3 = { min: [0, 0, 0], max: [10, 10, 10] };
const STOCK: Box3 = { min: [-2, -2, 0], max: [12, 12, 15] };
const top = setupFrame([0, 0, 1], STOCK);
const bottom = setupFrame([0, 0, -1], STOCK);
const side = setupFrame([1, 0, 0], STOCK);
const ys = (from: number, to: number, step: number) =>
  Array.from({ length: Math.floor((to - from) / step) + 1 }, (_, i) => from + i * step);

const mill = cutter("flat", 10);
const slot = cutter("flat", 1, { flute_length: 20, stick_out: 25, shank_diameter: 1 });
/** in the +Z frame the stock is x, y in [0, 14], z in [-15, 0]; the part's top is at -5, its sides at 2 and 12 */
const facing = operation(mill, [rapid(-6, 0, 5), ...zigzag(-6, 20, ys(0, 14, 4), -5), rapid(20, 14, 5)]);
/** the 1 mm strip beside the part at x in [0, 1], cut to the stock's bottom */
const besideSlot = operation(slot, [rapid(0.5, -1, 5), feed(0.5, -1, -15), feed(0.5, 15, -15), rapid(0.5, 15, 5)]);
/** half a millimetre into the part's top along y = 7 */
const intoPart = operation(slot, [rapid(5, -1, 5), feed(5, -1, -5.5), feed(5, 15, -5.5), rapid(5, 15, 5)]);

function replay(operations: Operation[], next = bottom): PlanStock {
  return new PlanStock({
    soup: boxesSoup([PART]),
    features: [],
    stock: STOCK,
    setups: [
      { wcs: top, stock: boxToFrame(top, STOCK), operations },
      { wcs: next, stock: boxToFrame(next, STOCK), operations: [] },
    ],
  });
}

function count(view: StockView, cls: number): number {
  return view.classes.filter((c) => c === cls).length;
}

describe("the plan's stock for the viewer", () => {
  it("before the first operation: the stock box's top everywhere, left over the part, no part beside it", () => {
    const view = replay([facing]).view(0, -1);
    assert.ok(view.heights.every((h) => h === 0));
    // 14 x 14 mm at 0.1 mm, the part 10 x 10 of it
    assert.equal(view.nx * view.ny, 140 * 140);
    assert.equal(count(view, STOCK_CLASS.left), 100 * 100);
    assert.equal(count(view, STOCK_CLASS.no_part), 140 * 140 - 100 * 100);
    // over the part down to its top; beside it down to its bottom (simulation/material-left.ts)
    assert.ok(
      Math.abs(view.material_left_mm3 - (10 * 10 * 5 + (14 * 14 - 10 * 10) * 15)) < 1e-6,
      `${view.material_left_mm3}`,
    );
  });

  it("after facing to the part's top: within the tolerance over the part, nothing left", () => {
    const view = replay([facing]).view(0, 0);
    assert.equal(count(view, STOCK_CLASS.within), 100 * 100);
    assert.equal(count(view, STOCK_CLASS.left) + count(view, STOCK_CLASS.cut_into), 0);
    // beside the part, the 10 mm below the facing is left for now
    assert.ok(Math.abs(view.material_left_mm3 - (14 * 14 - 10 * 10) * 10) < 1e-6, `${view.material_left_mm3}`);
    assert.equal(view.tolerance_mm, 0.1);
  });

  it("marks the cells a pass cut into the part, and only those", () => {
    const view = replay([facing, intoPart]).view(0, 1);
    const cut = count(view, STOCK_CLASS.cut_into);
    // the 1 mm tool's path across the part's 10 mm: 10 cells wide, 100 long
    assert.ok(cut >= 900 && cut <= 1100, `${cut} cells cut into`);
    for (let k = 0; k < view.classes.length; k += 1) {
      if (view.classes[k] !== STOCK_CLASS.cut_into) continue;
      const x = view.x0 + ((k % view.nx) + 0.5) * view.dx;
      assert.ok(Math.abs(x - 5) <= 0.5, `cell at x ${x} is on the pass`);
    }
  });

  it("starts a later setup from what the ones before left: the strip cut through is empty from below", () => {
    const stock = replay([facing, besideSlot]);
    const view = stock.view(1, -1);
    const empty = view.heights.filter((h) => h <= view.bottom + 1e-6).length;
    // 1 mm x 14 mm at 0.1 mm cells, settled onto what the first setup cut (settled-stock.ts)
    assert.ok(empty >= 1300 && empty <= 1400, `${empty} cells empty`);
    assert.ok(
      view.heights.some((h) => h === view.top),
      "the rest of the stock stands",
    );
  });

  it("shows a side setup the top the first one faced off, not the voxels' margin over it", () => {
    const view = replay([facing], side).view(1, -1);
    const frame = side;
    let over = 0;
    for (let k = 0; k < view.heights.length; k += 1) {
      const i = k % view.nx;
      const j = (k - i) / view.nx;
      // the cell's centre at the stock's top, in the part's coordinates: its z is what the side setup's y runs along
      const y = view.y0 + (j + 0.5) * view.dy;
      const x = view.x0 + (i + 0.5) * view.dx;
      const yAxis = [
        frame.z_axis[1] * frame.x_axis[2] - frame.z_axis[2] * frame.x_axis[1],
        frame.z_axis[2] * frame.x_axis[0] - frame.z_axis[0] * frame.x_axis[2],
        frame.z_axis[0] * frame.x_axis[1] - frame.z_axis[1] * frame.x_axis[0],
      ];
      const z = frame.origin[2] + x * frame.x_axis[2] + y * (yAxis[2] as number);
      if (z > 10.1 && (view.heights[k] as number) > view.bottom + 0.05) over += 1;
    }
    assert.equal(over, 0, "no material above the faced top");
    assert.equal(view.classes.filter((c) => c === STOCK_CLASS.cut_into).length, 0);
  });

  it("refuses a setup or an operation the plan does not have", () => {
    const stock = replay([facing]);
    assert.throws(() => stock.view(2, -1), RangeError);
    assert.throws(() => stock.view(0, 1), RangeError);
    assert.throws(() => stock.view(0, -2), RangeError);
  });

  it("lays the view out as the header says: heights float32, then a class byte per cell", () => {
    const view = replay([facing]).view(0, 0);
    const bytes = encodeStockView(view);
    const cells = view.nx * view.ny;
    assert.equal(bytes.byteLength, STOCK_VIEW_HEADER_BYTES + cells * 5);
    const data = new DataView(bytes.buffer);
    assert.equal(String.fromCharCode(...bytes.subarray(0, 4)), "SWSF");
    assert.equal(data.getUint32(8, true), view.nx);
    assert.equal(data.getFloat64(16 + 8 * 6, true), view.material_left_mm3);
    assert.deepEqual(
      [0, 1, 2].map((a) => data.getFloat64(16 + 8 * (9 + a), true)),
      top.origin,
    );
    const k = cells - 1;
    assert.equal(data.getFloat32(STOCK_VIEW_HEADER_BYTES + 4 * k, true), view.heights[k]);
    assert.equal(bytes[STOCK_VIEW_HEADER_BYTES + 4 * cells + k], view.classes[k]);
  });
});
