import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { boxToFrame, frameYAxis, setupFrame, soupToFrame, toFrame } from "../frames.ts";
import { intersection, isEmpty, rectangle } from "../milling/polygons.ts";
import { carriedTops, columnTopAt } from "../simulation/carried-stock.ts";
import { heightAt, stockHeightField } from "../simulation/height-field.ts";
import { partHeights } from "../simulation/part-heights.ts";
import { boxesSoup } from "../simulation/test-support.ts";
import { removeBySetup, voxelStock } from "../simulation/voxel-stock.ts";
import type { Box3, Vec3 } from "../types.ts";
import { carriedField, carriedStock } from "./carried-stock.ts";

// a 20 x 10 x 10 stock around a 10 x 10 x 5 part standing in its middle, on its bottom; a +Z
// setup has cut everything above the part's top (z 5)
const stock: Box3 = { min: [0, 0, 0], max: [20, 10, 10] };
const partBox: Box3 = { min: [5, 0, 0], max: [15, 10, 5] };
const part = boxesSoup([partBox]);
// 0.5 mm voxels, and simulation cells that straddle their columns (0.17: a cell whose centre is
// just past the last full column overlaps it)
const VOXEL_BUDGET = 16_000;
const CELL_MM = 0.17;

function afterTopSetup() {
  const voxels = voxelStock(stock, part, VOXEL_BUDGET);
  const top = setupFrame([0, 0, 1], stock);
  const field = stockHeightField(boxToFrame(top, stock), 0.25);
  field.heights.fill(-5);
  removeBySetup(voxels, top, field);
  return voxels;
}

const SQRT1_2 = Math.SQRT1_2;
// the sides, and two tilted setups (a feature's own direction) read through balls, not columns
const SIDES: Vec3[] = [
  [1, 0, 0],
  [-1, 0, 0],
  [0, 1, 0],
  [0, -1, 0],
  [0, 0, -1],
  [SQRT1_2, 0, SQRT1_2],
  [0, -SQRT1_2, SQRT1_2],
];

/** What is truly left after the +Z cut: everything of the stock below z 5, part included. */
const LEFT: Box3 = { min: [0, 0, 0], max: [20, 10, 5] };

describe("the stock a setup starts from", () => {
  it("is the whole stock for the first setup's frame when nothing was removed", () => {
    const voxels = voxelStock(stock, part, VOXEL_BUDGET);
    const frame = setupFrame([1, 0, 0], stock);
    const columns = carriedTops(voxels, frame);
    assert.ok(
      columns.tops.every((t) => Math.abs(t) < 1e-9),
      "every column full to the stock's top (frame z 0)",
    );
  });

  it("sees from +X only the material below the cut +Z made, and a voxel and a half more at most", () => {
    const voxels = afterTopSetup();
    const frame = setupFrame([1, 0, 0], stock);
    const columns = carriedTops(voxels, frame);
    const inFrame = boxToFrame(frame, stock);
    const field = stockHeightField(inFrame, CELL_MM);
    const started = carriedField(columns, field, partHeights(field, soupToFrame(frame, part)));
    const dz = voxels.d[2];
    // workpiece z is one of the frame's in-plane axes: find the cells whose workpiece z is above 5 + 1.5 voxels
    let above = 0;
    let below = 0;
    for (let j = 0; j < field.ny; j += 1) {
      for (let i = 0; i < field.nx; i += 1) {
        const x = field.x0 + (i + 0.5) * field.dx;
        const y = field.y0 + (j + 0.5) * field.dy;
        const world = frame.origin.map(
          (o, a) => o + x * (frame.x_axis[a] as number) + y * frameYAxis(frame)[a]!,
        ) as Vec3;
        const h = heightAt(started, x, y);
        if (world[2] > 5 + 1.5 * dz + 1e-9) {
          above += 1;
          assert.equal(h, inFrame.min[2], `nothing left at workpiece z ${world[2]}`);
        } else if (world[2] < 5) {
          below += 1;
          assert.equal(h, inFrame.max[2], `the stock beside the part is still there at workpiece z ${world[2]}`);
        }
      }
    }
    assert.ok(above > 0 && below > 0);
  });

  for (const direction of SIDES) {
    it(`never reads less than is left, setup ${direction.map((v) => Math.round(v * 100) / 100).join(",")}`, () => {
      const voxels = afterTopSetup();
      const frame = setupFrame(direction, stock);
      const columns = carriedTops(voxels, frame);
      let checked = 0;
      // inside the solid by a hair: a point on the stock's faces lies on the columns' edge
      const e = 1e-3;
      for (let x = LEFT.min[0] + e; x < LEFT.max[0]; x += 0.37) {
        for (let y = LEFT.min[1] + e; y < LEFT.max[1]; y += 0.41) {
          for (let z = LEFT.min[2] + e; z < LEFT.max[2]; z += 0.43) {
            const [fx, fy, fz] = toFrame(frame, [x, y, z]);
            const top = columnTopAt(columns, fx, fy);
            assert.ok(top >= fz - 1e-9, `material at (${x}, ${y}, ${z}) is at frame z ${fz}, the column says ${top}`);
            checked += 1;
          }
        }
      }
      assert.ok(checked > 1000);
    });

    it(`gives the generators no less material than the simulation, setup ${direction.map((v) => Math.round(v * 100) / 100).join(",")}`, () => {
      const voxels = afterTopSetup();
      const frame = setupFrame(direction, stock);
      const columns = carriedTops(voxels, frame);
      const inFrame = boxToFrame(frame, stock);
      const field = stockHeightField(inFrame, CELL_MM);
      const started = carriedField(columns, field, partHeights(field, soupToFrame(frame, part)));
      const milling = carriedStock(inFrame, columns);
      for (let z = inFrame.min[2] + 0.1; z < inFrame.max[2]; z += 0.3) {
        const left = milling.remainingAbove(z);
        for (let j = 0; j < field.ny; j += 1) {
          for (let i = 0; i < field.nx; i += 1) {
            // the simulation reads a cell's material at its centre
            const x = field.x0 + (i + 0.5) * field.dx;
            const y = field.y0 + (j + 0.5) * field.dy;
            const cell = rectangle([x - 0.001, y - 0.001], [x + 0.001, y + 0.001]);
            const simulated = started.heights[j * field.nx + i] as number;
            if (simulated > z + 1e-6)
              assert.ok(
                !isEmpty(intersection(left, cell), 1e-9),
                `material above ${z} at cell (${i}, ${j}): the generators must see it`,
              );
          }
        }
      }
    });
  }
});
