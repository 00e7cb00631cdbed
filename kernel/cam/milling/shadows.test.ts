import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { area, bounds, loopArea, pathOf, toMm, type Paths64 } from "./polygons.ts";
import { CRACK_MM, grownByCrack } from "./shadows.ts";

/** A 10 mm square, counter-clockwise (an outer loop as Clipper returns it). */
const SQUARE: Paths64 = [
  pathOf([
    [0, 0],
    [10, 0],
    [10, 10],
    [0, 10],
  ]),
];

describe("growing a shadow's band by the crack width", () => {
  it("grows the region by CRACK_MM all round", () => {
    const grown = grownByCrack(SQUARE);
    const box = bounds(grown);
    assert.deepEqual(
      [toMm(box.left), toMm(box.top), toMm(box.right), toMm(box.bottom)],
      [-CRACK_MM, -CRACK_MM, 10 + CRACK_MM, 10 + CRACK_MM],
    );
    // the square and four strips along its sides, less what the rounded corners leave out
    assert.ok(area(grown) > 100 + 40 * CRACK_MM - 4 * CRACK_MM ** 2, `area ${area(grown)}`);
  });

  it("grows a region outwards when a hole-wound sliver holds its lowest point, as a union of slivers can return one", () => {
    // a clockwise sliver of 3e-7 mm² beyond the square's top edge (Clipper's lowest point is its largest y)
    const sliver = pathOf([
      [5, 10.5],
      [5.0004, 10.5],
      [5.0002, 10.5015],
    ]).reverse();
    assert.ok(loopArea(sliver) < 0, "the sliver is wound as a hole");
    const grown = grownByCrack([...SQUARE, sliver]);
    assert.ok(area(grown) > 100 + 39 * CRACK_MM, `grown outwards, not inside out: area ${area(grown)}`);
    assert.ok(area(grown) < 100 + 41 * CRACK_MM, `the sliver is left out: area ${area(grown)}`);
  });
});
