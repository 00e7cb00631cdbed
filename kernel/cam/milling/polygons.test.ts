import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { area, offset, pathOf } from "./polygons.ts";

describe("offsetting a region", () => {
  // a hole touching the square at its corner of greatest y and least x, the point Clipper reads
  // a region's winding from
  const square = pathOf([[0, 0], [10, 0], [10, 10], [0, 10]]);
  const hole = pathOf([[0, 10], [2, 8], [1, 8]]);

  it("grows a region whose hole touches its outer loop at the point its winding is read from, whatever the loops' order", () => {
    const holeFirst = offset([hole, square], 0.3);
    const squareFirst = offset([square, hole], 0.3);
    // the square grown by 0.3 mm with round corners, less the hole shrunk
    assert.ok(area(holeFirst) > 112 && area(holeFirst) < 113, `${area(holeFirst)} mm²`);
    assert.equal(area(holeFirst), area(squareFirst));
  });

  it("shrinks it the same way", () => {
    assert.equal(area(offset([hole, square], -0.3)), area(offset([square, hole], -0.3)));
    assert.ok(area(offset([hole, square], -0.3)) < 99 - 9);
  });
});
