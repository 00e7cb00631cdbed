import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { boxToFrame, setupFrame, soupToFrame, toFrame } from "../frames.ts";
import { readStl } from "../../geometry/stl.ts";
import { fixture } from "../../geometry/test-support.ts";
import { stockGrid } from "./height-field.ts";
import { partHeights } from "./part-heights.ts";
import { boxesSoup, near } from "./test-support.ts";

describe("partHeights", () => {
  it("raises the cells of a box to its top and no cell beyond its walls", () => {
    const grid = stockGrid({ min: [0, 0, -10], max: [20, 10, 0] }, 0.5);
    const part = partHeights(grid, boxesSoup([{ min: [5, 2, -10], max: [12, 8, -3] }]));
    let inside = 0;
    for (let j = 0; j < grid.ny; j++) {
      for (let i = 0; i < grid.nx; i++) {
        const x = grid.x0 + (i + 0.5) * grid.dx,
          y = grid.y0 + (j + 0.5) * grid.dy;
        const h = part.heights[j * grid.nx + i];
        if (x > 5 && x < 12 && y > 2 && y < 8) {
          assert.equal(h, -3, `cell at ${x}, ${y}`);
          inside++;
        } else {
          assert.equal(h, -Infinity, `cell at ${x}, ${y}`);
        }
      }
    }
    assert.equal(inside, 14 * 12);
    assert.deepEqual([part.lowest, part.highest], [-10, -3]);
  });

  it("keeps the highest of overlapping boxes and interpolates a sloped face", () => {
    const grid = stockGrid({ min: [0, 0, -10], max: [10, 10, 0] }, 1);
    // a wedge: top face rising from z = -8 at x = 0 to z = -2 at x = 10
    const wedge = {
      positions: new Float32Array([0, 0, -8, 10, 0, -2, 10, 10, -2, 0, 10, -8]),
      indices: new Uint32Array([0, 1, 2, 0, 2, 3]),
    };
    const part = partHeights(grid, wedge);
    near(part.heights[3 * grid.nx + 4] as number, -8 + 0.6 * 4.5, 1e-6, "slope at x = 4.5");
    const stacked = partHeights(
      grid,
      boxesSoup([
        { min: [0, 0, -10], max: [10, 10, -6] },
        { min: [2, 2, -10], max: [4, 4, -1] },
      ]),
    );
    assert.equal(stacked.heights[2 * grid.nx + 2], -1);
    assert.equal(stacked.heights[6 * grid.nx + 6], -6);
  });

  it("reads the top of an overhang, not the face under it, and a part turned over by its bottom", () => {
    // a slab floating over part of a block: under it the slab's top counts, not its bottom (which
    // faces down and is not rasterised) nor the block's top
    const stock = { min: [0, 0, -10], max: [10, 10, 0] } as const;
    const soup = boxesSoup([
      { min: [0, 0, -10], max: [10, 10, -6] },
      { min: [0, 0, -3], max: [10, 4, -1] },
    ]);
    const grid = stockGrid({ min: [...stock.min], max: [...stock.max] }, 1);
    const top = partHeights(grid, soup);
    assert.equal(top.heights[2 * grid.nx + 2], -1);
    assert.equal(top.heights[7 * grid.nx + 2], -6);
    // from -Z the faces that pointed down point up: every cell reads the block's bottom
    const frame = setupFrame([0, 0, -1], { min: [...stock.min], max: [...stock.max] });
    const under = stockGrid(boxToFrame(frame, { min: [...stock.min], max: [...stock.max] }), 1);
    const below = partHeights(under, soupToFrame(frame, soup));
    const bottom = toFrame(frame, [0, 0, -10])[2];
    assert.ok(
      below.heights.every((h) => Math.abs(h - bottom) < 1e-5),
      `${[...new Set(below.heights)].join(", ")} against ${bottom}`,
    );
  });

  it("rasterises partC (552 triangles) with its highest cell at the part's top", () => {
    const workpiece = readStl(fixture("partC.stl"), "ascii");
    const bbox = { min: workpiece.bbox.min, max: workpiece.bbox.max };
    const frame = setupFrame([0, 0, 1], bbox);
    const soup = soupToFrame(frame, { positions: workpiece.mesh.positions, indices: workpiece.mesh.indices });
    const stock = boxToFrame(frame, bbox);
    const grid = stockGrid(stock, 0.1);
    const part = partHeights(grid, soup);
    let max = -Infinity,
      covered = 0;
    for (const h of part.heights) {
      if (h > max) max = h;
      if (h > -Infinity) covered++;
    }
    near(max, part.highest, 1e-5, "highest cell");
    near(part.highest, 0, 1e-5, "the part's top is the stock's top in this frame");
    near(part.lowest, stock.min[2], 1e-5, "lowest vertex");
    // seen from above partC covers most of its box
    assert.ok(covered > 0.5 * part.heights.length, `${covered} of ${part.heights.length} cells covered`);
  });
});
