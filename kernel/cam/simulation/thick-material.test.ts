import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { setupFrame } from "../frames.ts";
import { facingOut } from "../planner/read-part.ts";
import type { Box3 } from "../types.ts";
import { stockHeightField } from "./height-field.ts";
import { boxesSoup, near } from "./test-support.ts";
import { nearSurface, surfaceCovered, surfaceProximity, thickMaterialLeft } from "./thick-material.ts";
import { removeBySetup, stockLeft, voxelStock } from "./voxel-stock.ts";

// a 20 x 10 x 10 stock around a block 5 mm high whose walls are off the grids (x 4.93 and 15.05):
// the voxels are 0.2 mm, the simulation's cells 0.1 mm
const stock: Box3 = { min: [0, 0, 0], max: [20, 10, 10] };
const WALL_X = 4.93;
const PLUS_X = 15.05;
const part = facingOut(boxesSoup([{ min: [WALL_X, 0, 0], max: [PLUS_X, 10, 5] }]));
const SURFACE = 2 * ((PLUS_X - WALL_X) * 10 + (PLUS_X - WALL_X) * 5 + 10 * 5);
const TOLERANCE = 0.1;

/** What a +Z setup leaves that cut down to the part's top over the part and through the stock elsewhere, material `layer` mm thick left on the +X wall. */
function fromTop(layer: number) {
  const voxels = voxelStock(stock, part);
  const frame = setupFrame([0, 0, 1], stock);
  const field = stockHeightField({ min: [0, 0, -10], max: [20, 10, 0] }, 0.1);
  for (let j = 0; j < field.ny; j += 1) {
    for (let i = 0; i < field.nx; i += 1) {
      const x = field.x0 + (i + 0.5) * field.dx;
      // a cell is held at the part's top when its centre is on the part: as the simulation's part heights are
      field.heights[j * field.nx + i] = x >= WALL_X && x <= PLUS_X + layer ? -5 : -10;
    }
  }
  removeBySetup(voxels, frame, field);
  return voxels;
}

describe("material left thicker than the finishing tolerance", () => {
  it("does not count the band of voxels along a wall that a cell centre on the part holds up, which the voxel count does", () => {
    const voxels = fromTop(0);
    // the column of voxels at x 4.9 is outside the part, under a cell whose centre (4.95) is on it
    const old = stockLeft(voxels);
    near(old.left_mm3, 0.2 * 10 * 5, 1e-6, "the old measure: one 0.2 mm column of voxels along the 10 x 5 mm wall");
    const thick = thickMaterialLeft(voxels, nearSurface(voxels, surfaceProximity(part, stock, TOLERANCE)));
    assert.equal(thick.left_mm3, 0, "nothing thicker than the tolerance is left");
    near(thick.removable_mm3, old.removable_mm3, 1e-9, "the same volume to remove");
    const covered = surfaceCovered(voxels, thick.thick, { soup: part, tolerance_mm: TOLERANCE, exclude: [] });
    assert.equal(covered.covered_pct, 0);
    near(covered.surface_mm2, SURFACE, 1e-3, "the part's surface");
  });

  it("counts a millimetre left on a wall, less the tolerance, and the wall's share of the surface", () => {
    const voxels = fromTop(1);
    const thick = thickMaterialLeft(voxels, nearSurface(voxels, surfaceProximity(part, stock, TOLERANCE)));
    // voxel centres at 15.3, 15.5, 15.7 and 15.9 are farther than 0.1 mm from the wall; 15.1 is not
    near(thick.left_mm3, 4 * 0.2 * 10 * 5, 1e-6, "0.8 mm of the 1 mm layer, sampled at the voxels' centres");
    const covered = surfaceCovered(voxels, thick.thick, { soup: part, tolerance_mm: TOLERANCE, exclude: [] });
    near(covered.covered_mm2, 10 * 5, 1e-3, "the +X wall, whole");
    near(covered.covered_pct, (100 * 50) / SURFACE, 1e-3, "as a share of the surface");
    // a zone along the wall's middle (as a sharp corner's fillet would be) is not counted
    const zoned = surfaceCovered(voxels, thick.thick, {
      soup: part,
      tolerance_mm: TOLERANCE,
      exclude: [{ a: [PLUS_X, 5, 0], b: [PLUS_X, 5, 5], radius: 1 }],
    });
    near(zoned.covered_mm2, 10 * 5 - 2 * 5, 0.3, "2 mm of its 10 mm width excluded");
  });
});
