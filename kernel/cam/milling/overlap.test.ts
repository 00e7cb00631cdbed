import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Clipper } from "clipper2-ts";
import { touchesRegion } from "./overlap.ts";
import {
  area,
  bounds,
  difference,
  disk,
  intersection,
  pathOf,
  rectangle,
  type Path64,
  type Paths64,
} from "./polygons.ts";

const triangle = (a: [number, number], b: [number, number], c: [number, number]): Path64 => pathOf([a, b, c]);
const touches = (region: Paths64, t: Path64): boolean => touchesRegion(region, t, bounds([t]));

describe("a triangle touching a region", () => {
  const frame = difference(rectangle([0, 0], [10, 10]), rectangle([3, 3], [7, 7]));

  it("touches when one of its corners is inside", () => {
    assert.equal(touches(frame, triangle([1, 1], [-5, -4], [-2, 1])), true);
  });

  it("does not touch from inside the region's hole", () => {
    assert.equal(touches(frame, triangle([4, 4], [6, 4], [5, 6])), false);
  });

  it("touches when it holds the whole region", () => {
    assert.equal(touches(rectangle([0, 0], [1, 1]), triangle([-10, -10], [20, -10], [0, 20])), true);
  });

  it("touches when only edges cross, no corner of either inside the other", () => {
    // a thin triangle lying across a square, its corners far out on either side
    assert.equal(touches(rectangle([0, 0], [2, 2]), triangle([-5, 0.9], [7, 1], [-5, 1.1])), true);
  });

  it("touches at a single shared point", () => {
    assert.equal(touches(rectangle([0, 0], [2, 2]), triangle([2, 2], [4, 2], [3, 4])), true);
  });

  it("agrees with Clipper's intersection on 2,000 seeded random triangles around a round region with a hole", () => {
    const ring = difference(disk([0, 0], 8), disk([1, 0], 3));
    let seed = 12345;
    const random = (): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    let touched = 0;
    for (let i = 0; i < 2000; i += 1) {
      const centre: [number, number] = [(random() - 0.5) * 24, (random() - 0.5) * 24];
      const corner = (): [number, number] => [centre[0] + (random() - 0.5) * 6, centre[1] + (random() - 0.5) * 6];
      const t = triangle(corner(), corner(), corner());
      if (Math.abs(Clipper.area(t)) < 1) continue;
      const shared = area(intersection([t], ring));
      const answer = touches(ring, t);
      if (shared > 1e-6) assert.equal(answer, true, `triangle ${i} shares ${shared} mm² and was not seen`);
      if (!answer) assert.equal(shared, 0, `triangle ${i} was said apart and shares ${shared} mm²`);
      if (answer) touched += 1;
    }
    assert.ok(touched > 200 && touched < 1800, `both answers tested (${touched} touched)`);
  });
});
