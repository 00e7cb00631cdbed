import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { BlockBounds } from "./block-bounds.ts";
import type { Grid } from "./height-field.ts";

// 100 x 70 cells of 0.1 mm: blocks of 32 cells, the last ones in each direction partial
const grid: Grid = { x0: 0, y0: 0, dx: 0.1, dy: 0.1, nx: 100, ny: 70 };

function heights(): Float32Array {
  const values = new Float32Array(grid.nx * grid.ny);
  for (let k = 0; k < values.length; k += 1) values[k] = 10 + ((k * 7919) % 97) / 10;
  return values;
}

/** Lowers cell (i, j) to z as a cut does: the bounds told first. */
function cut(bounds: BlockBounds, stock: Float32Array, i: number, j: number, z: number): void {
  bounds.touched(i, j);
  stock[j * grid.nx + i] = z;
}

const everywhere = (bounds: BlockBounds) => bounds.above(0, 10, 0, 7, true, false);
const corner = (bounds: BlockBounds) => bounds.above(9.6, 10, 6.4, 7, true, false);

describe("block bounds", () => {
  it("put back the heights and the bounds as they were at the mark when a cut is undone", () => {
    const stock = heights();
    const before = stock.slice();
    const part = new Float32Array(stock.length).fill(-5);
    const bounds = new BlockBounds(grid, stock, part);
    const whole = everywhere(bounds);
    const cornerBefore = corner(bounds);
    bounds.mark();
    // every cell of the partial corner block, and a few in full blocks, cut to the floor
    for (let j = 64; j < 70; j += 1) for (let i = 96; i < 100; i += 1) cut(bounds, stock, i, j, 0);
    for (const [i, j] of [
      [0, 0],
      [40, 33],
      [40, 34],
      [99, 0],
    ] as const)
      cut(bounds, stock, i, j, 1);
    assert.equal(corner(bounds), 0);
    bounds.undo();
    assert.deepEqual(stock, before);
    assert.equal(corner(bounds), cornerBefore);
    assert.equal(everywhere(bounds), whole);
  });

  it("keep the cuts made before the mark when a later one is undone, and undo nothing without a mark", () => {
    const stock = heights();
    const bounds = new BlockBounds(grid, stock, new Float32Array(stock.length).fill(-5));
    // before any mark: nothing is saved, and undo has nothing to put back
    cut(bounds, stock, 5, 5, 2);
    bounds.undo();
    assert.equal(stock[5 * grid.nx + 5], 2);
    bounds.mark();
    cut(bounds, stock, 6, 5, 3);
    const kept = stock.slice();
    // a second mark: what came before it stays
    bounds.mark();
    cut(bounds, stock, 6, 5, 1);
    cut(bounds, stock, 7, 5, 1);
    bounds.undo();
    assert.deepEqual(stock, kept);
    assert.equal(stock[5 * grid.nx + 6], 3);
  });
});
