import { describe, it } from "node:test";
import { setupFrame } from "../frames.ts";
import type { Box3 } from "../types.ts";
import { stockHeightField } from "./height-field.ts";
import { boxesSoup, near } from "./test-support.ts";
import { removeBySetup, stockLeft, voxelStock } from "./voxel-stock.ts";

// a 20 x 10 x 10 stock around a 10 x 10 x 5 part standing in its middle, on its bottom
const stock: Box3 = { min: [0, 0, 0], max: [20, 10, 10] };
const part = boxesSoup([{ min: [5, 0, 0], max: [15, 10, 5] }]);

describe("the stock across setups", () => {
  it("finds the part's voxels by crossing columns: 500 mm³ of 2,000, so 1,500 removable", () => {
    const voxels = voxelStock(stock, part);
    const left = stockLeft(voxels);
    near(left.removable_mm3, 1500, 1e-6, "removable");
    near(left.left_pct, 100, 1e-9, "nothing removed yet");
  });

  it("counts what each setup removed, from its own side, once", () => {
    const voxels = voxelStock(stock, part);
    // from +Z everything above the part's top (z 5) is cut: 20 x 10 x 5 = 1000 mm³
    const top = setupFrame([0, 0, 1], stock);
    const fromTop = stockHeightField({ min: [0, 0, -10], max: [20, 10, 0] }, 0.5);
    fromTop.heights.fill(-5);
    removeBySetup(voxels, top, fromTop);
    near(stockLeft(voxels).left_mm3, 500, 1e-6, "left after +Z");
    // from +X the tool comes down to x 15 (frame z -5): the 5 x 10 x 5 beside the part goes
    const side = setupFrame([1, 0, 0], stock);
    const fromSide = stockHeightField({ min: [0, 0, -20], max: [10, 10, 0] }, 0.5);
    fromSide.heights.fill(-5);
    removeBySetup(voxels, side, fromSide);
    const left = stockLeft(voxels);
    near(left.left_mm3, 250, 1e-6, "left after +X: the block on the -X side");
    near(left.left_pct, (100 * 250) / 1500, 1e-9, "as a share of the removable");
    // within a region: what is left of the material in it, against what there was
    const besidePart = stockLeft(voxels, { min: [0, 0, 0], max: [5, 10, 5] });
    near(besidePart.removable_mm3, 250, 1e-6, "the material of the -X side's region");
    near(besidePart.left_pct, 100, 1e-9, "all of it left");
    const aboveAndBeside = stockLeft(voxels, { min: [0, 0, 3], max: [20, 10, 10] });
    near(
      aboveAndBeside.removable_mm3,
      1000 + 2 * 100,
      1e-6,
      "the region's material: above the part, and beside it above z 3",
    );
    near(aboveAndBeside.left_mm3, 100, 1e-6, "the -X side above z 3");
  });
});
