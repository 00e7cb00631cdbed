import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { seededRandom } from "../../seeded-random.ts";
import type { Box3 } from "../types.ts";
import {
  area,
  difference,
  disk,
  intersection,
  isEmpty,
  pathOf,
  rectangle,
  sweep,
  union,
  SCALE,
  type Paths64,
} from "./polygons.ts";
import {
  boundsFromCells,
  clearCells,
  Cover,
  gridOver,
  regionCells,
  uncutHeights,
  type Grid,
  type RegionCells,
} from "./stock-cells.ts";
import { InProcessStock, type ClearedLayer } from "./stock.ts";

const BOX: Box3 = { min: [0, 0, -30], max: [40.5, 30.5, 0] };

function coverAt(cells: RegionCells, grid: Grid, x: number, y: number): Cover {
  const i = Math.floor(x) - Math.round(grid.x0 / SCALE) - cells.i0;
  const j = Math.floor(y) - Math.round(grid.y0 / SCALE) - cells.j0;
  if (i < 0 || j < 0 || i >= cells.width || j >= cells.height) return Cover.None;
  return cells.cover[j * cells.width + i] as Cover;
}

describe("a region's cells", () => {
  const grid = gridOver(BOX);

  it("are full inside a square, partial along its edges and none outside it", () => {
    const square = rectangle([2.5, 2.5], [10.2, 8.5]);
    const cells = regionCells(square, grid) as RegionCells;
    assert.equal(coverAt(cells, grid, 5.5, 5.5), Cover.Full);
    // the edge at x = 2.5 runs through the centre of the cells of column 2
    assert.equal(coverAt(cells, grid, 2.5, 5.5), Cover.EdgeNear);
    assert.equal(coverAt(cells, grid, 10.5, 5.5), Cover.EdgeOut);
    assert.equal(coverAt(cells, grid, 1.5, 5.5), Cover.None);
    assert.equal(coverAt(cells, grid, 20.5, 5.5), Cover.None);
  });

  it("hold a partial cell's centre when no edge comes near it", () => {
    const square = rectangle([2.3, 2.3], [10.7, 8.5]);
    const cells = regionCells(square, grid) as RegionCells;
    assert.equal(coverAt(cells, grid, 2.5, 5.5), Cover.EdgeIn);
    assert.equal(coverAt(cells, grid, 10.5, 5.5), Cover.EdgeIn);
  });

  it("leave a hole's cells out, as Clipper's NonZero rule does", () => {
    const withHole = difference(rectangle([1, 1], [20, 20]), rectangle([5, 5], [12, 12]));
    const cells = regionCells(withHole, grid) as RegionCells;
    assert.equal(coverAt(cells, grid, 3.5, 3.5), Cover.Full);
    assert.equal(coverAt(cells, grid, 8.5, 8.5), Cover.None);
    assert.equal(coverAt(cells, grid, 15.5, 15.5), Cover.Full);
  });

  it("give bounds that meet over a corridor lying wholly in one cleared pocket, and over untouched stock", () => {
    const heights = uncutHeights(grid, BOX);
    clearCells(heights, grid, regionCells(rectangle([5, 5], [25, 20]), grid) as RegionCells, -8);
    const inside = boundsFromCells(
      heights,
      grid,
      regionCells(
        sweep(
          [
            pathOf([
              [8, 8],
              [20, 15],
            ]),
          ],
          2,
        ),
        grid,
      ),
    );
    assert.deepEqual([inside.atLeast, inside.atMost, inside.undecided], [-8, -8, null]);
    const across = boundsFromCells(
      heights,
      grid,
      regionCells(
        sweep(
          [
            pathOf([
              [8, 8],
              [35, 25],
            ]),
          ],
          2,
        ),
        grid,
      ),
    );
    assert.deepEqual([across.atLeast, across.atMost, across.undecided], [0, 0, null]);
    const beside = boundsFromCells(heights, grid, regionCells(rectangle([50, 50], [60, 60]), grid));
    assert.equal(beside.atMost, -Infinity);
  });
});

/**
 * The definition, on the polygons: the lowest layer height at which the layers at or below it
 * cover what of the region lies on the stock (to 1e-5 mm², as stock.ts), the stock's top when none
 * does, -Infinity when the region misses the stock.
 */
function topByDefinition(box: Box3, layers: ClearedLayer[], region: Paths64): number {
  const onStock = intersection(region, rectangle([box.min[0], box.min[1]], [box.max[0], box.max[1]]));
  if (isEmpty(onStock)) return -Infinity;
  const heights = [...new Set(layers.map((layer) => layer.z))].sort((a, b) => a - b);
  for (const z of heights) {
    const cleared = union(...layers.filter((layer) => layer.z <= z).map((layer) => layer.area));
    if (isEmpty(difference(onStock, cleared), 1e-5)) return z;
  }
  return box.max[2];
}

describe("the stock's top over a region (InProcessStock.topOver)", () => {
  it("is the one the definition gives, on 40 seeded stocks cut by 14 pockets and sweeps at shared and single heights, under 400 corridors", () => {
    let decidedByCells = 0;
    for (let seed = 1; seed <= 40; seed += 1) {
      const random = seededRandom(seed);
      const at = (span: number): number => Math.round(random() * span * 100) / 100;
      const layers: ClearedLayer[] = [];
      // heights shared by several layers, as a roughing's levels and a rest roughing's are
      const heights = [-2, -5, -5.5, -9, -14];
      for (let k = 0; k < 14; k += 1) {
        const z = heights[Math.floor(random() * heights.length)] as number;
        const shape = random();
        const corner: [number, number] = [at(30), at(25)];
        const area =
          shape < 0.4
            ? rectangle(corner, [corner[0] + 6 + at(16), corner[1] + 5 + at(12)])
            : shape < 0.7
              ? disk([at(40), at(30)], 3 + at(8))
              : sweep(
                  [
                    pathOf([
                      [at(40), at(30)],
                      [at(40), at(30)],
                      [at(40), at(30)],
                    ]),
                  ],
                  2 + at(4),
                );
        layers.push({ z, area });
      }
      let stock = new InProcessStock(BOX);
      // added a few at a time, as operations and levels add them
      for (let k = 0; k < layers.length; k += 3) stock = stock.withCleared(layers.slice(k, k + 3));
      for (let q = 0; q < 10; q += 1) {
        const corridor = sweep(
          [
            pathOf([
              [at(44) - 2, at(34) - 2],
              [at(44) - 2, at(34) - 2],
            ]),
          ],
          0.6 + at(3),
        );
        const expected = topByDefinition(BOX, layers, corridor);
        assert.equal(stock.topOver(corridor), expected, `seed ${seed}, corridor ${q}`);
        const grid = gridOver(BOX);
        const fresh = uncutHeights(grid, BOX);
        for (const layer of layers) {
          const cells = regionCells(layer.area, grid);
          if (cells !== null) clearCells(fresh, grid, cells, layer.z);
        }
        const bounds = boundsFromCells(fresh, grid, regionCells(corridor, grid));
        assert.ok(
          bounds.atLeast <= expected && expected <= bounds.atMost,
          `seed ${seed}, corridor ${q}: ${expected} outside [${bounds.atLeast}, ${bounds.atMost}]`,
        );
        if (bounds.undecided === null) decidedByCells += 1;
      }
    }
    // the cells settle a good share of the queries without the polygons (and the rest exercise the walk)
    assert.ok(decidedByCells > 40 && decidedByCells < 360, `${decidedByCells} of 400 decided by the cells`);
  });

  it("is the stock's top over a region the layers leave a sliver of, and the layer's height once the sliver is cut too", () => {
    const pocket = rectangle([5, 5], [25, 20]);
    const sliver = rectangle([14.999, 5], [15.001, 20]);
    const corridor = sweep(
      [
        pathOf([
          [8, 12],
          [22, 12],
        ]),
      ],
      3,
    );
    const stock = new InProcessStock(BOX).withCleared([{ z: -6, area: difference(pocket, sliver) }]);
    assert.equal(stock.topOver(corridor), 0);
    assert.equal(stock.withCleared([{ z: -3, area: sliver }]).topOver(corridor), -3);
    assert.ok(area(sliver) > 0);
  });
});
