import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { TriangleSoup, Vec3 } from "../types.ts";
import {
  ARC_TOLERANCE_MM,
  area,
  bounds,
  COARSE_TOLERANCE_MM,
  components,
  contains,
  difference,
  distanceToBoundary,
  isEmpty,
  KEEP_OUT_SIMPLIFY_MM,
  offset,
  toMm,
} from "./polygons.ts";
import { keepOutSimplification } from "./shadows.ts";
import { createSlicer } from "./slicer.ts";
import { boxesSoup, partCFrom, POCKET, POCKETED_BLOCK, STEPPED_BLOCK } from "./test-support.ts";

describe("the part slicer", () => {
  const part = createSlicer(boxesSoup(POCKETED_BLOCK));

  it("shows the pocket as a 20 x 14 mm hole in the shadow above the pocket's floor", () => {
    const shadow = part.shadow(-5);
    const pieces = components(shadow);
    assert.equal(pieces.length, 1);
    const piece = pieces[0] as NonNullable<(typeof pieces)[number]>;
    assert.equal(piece.length, 2, "one outline and one hole");
    const hole = piece.find((loop) => area([loop]) < 0);
    assert.ok(hole);
    assert.ok(Math.abs(-area([hole]) - 20 * 14) < 1e-3, `hole area ${-area([hole])}`);
    const box = bounds([hole]);
    assert.deepEqual(
      [toMm(box.left), toMm(box.top), toMm(box.right), toMm(box.bottom)],
      [POCKET.min[0], POCKET.min[1], POCKET.max[0], POCKET.max[1]],
    );
    assert.ok(Math.abs(area(shadow) - (60 * 40 - 20 * 14)) < 1e-3);
  });

  it("closes the hole below the pocket's floor, and counts a floor lying exactly at the height as not above it", () => {
    assert.ok(Math.abs(area(part.shadow(-12)) - 60 * 40) < 1e-3);
    assert.ok(
      Math.abs(area(part.shadow(-10)) - (60 * 40 - 20 * 14)) < 1e-3,
      "the pocket floor at -10 is not above -10",
    );
    assert.equal(part.shadow(-2).length, 0, "the top face at -2 is not above -2");
    assert.equal(part.shadow(5).length, 0);
  });

  it("gives the heights of up-facing horizontal faces as floors, highest first", () => {
    assert.deepEqual(part.floors, [-2, -10]);
    assert.deepEqual(createSlicer(boxesSoup(STEPPED_BLOCK)).floors, [-2, -8, -12]);
    assert.equal(part.top_z, -2);
    assert.equal(part.bottom_z, -22);
  });

  it("gives the same shadow from the top down as straight away", () => {
    const fresh = createSlicer(boxesSoup(POCKETED_BLOCK));
    for (const z of [-3, -7, -11, -20]) part.shadow(z);
    for (const z of [-21, -9.5, -4]) {
      assert.ok(Math.abs(area(part.shadow(z)) - area(fresh.shadow(z))) < 1e-6, `top-down at ${z}`);
    }
  });

  it("casts its shadows from the triangles facing up only: wound inwards, the block casts none above its bottoms (the planner turns such a part round: read-part.ts)", () => {
    const reversed = createSlicer(reverseWinding(boxesSoup(POCKETED_BLOCK)));
    assert.ok(area(reversed.shadow(-9.5)) < 1e-6 * area(part.shadow(-9.5)));
  });

  it("gives partC's shadow after a hundred shadows above it within 0.001 mm of the shadow made straight away (from +Z and from -Y)", () => {
    for (const [direction, soup] of partCFromZAndMinusY()) {
      const chained = createSlicer(soup);
      for (let z = 0; z > -27; z -= 0.25) chained.shadow(z);
      const after = chained.shadow(-27);
      const straight = createSlicer(soup).shadow(-27);
      // every vertex of each on the other's boundary, to the simplification of each (0.0002 mm)
      const apart = (a: typeof after, b: typeof after) =>
        Math.max(...a.flat().map((p) => distanceToBoundary(b, [toMm(p.x), toMm(p.y)])));
      assert.ok(apart(after, straight) < 1e-3, `${direction}: ${apart(after, straight)} mm`);
      assert.ok(apart(straight, after) < 1e-3, `${direction}: ${apart(straight, after)} mm`);
    }
  });

  it("grows partC's shadow into keep-outs that cover the exact offset and exceed it by no more than their simplification allows, fine or coarse", () => {
    for (const [direction, soup] of partCFromZAndMinusY()) {
      const slicer = createSlicer(soup);
      const shadow = slicer.shadow(-12.5);
      for (const [mm, tolerance] of [
        [3.0205, ARC_TOLERANCE_MM],
        [10.5, COARSE_TOLERANCE_MM],
        [30.52, 0.02],
      ] as [number, number][]) {
        const keepOut = slicer.grownShadow(-12.5, mm, tolerance);
        const exact = offset(shadow, mm, ARC_TOLERANCE_MM);
        // the exact offset inside the keep-out but for the chords of its arcs; the keep-out inside
        // the offset grown by the margin (and the chords of the reference's own arcs)
        const uncovered = difference(exact, keepOut);
        assert.ok(
          isEmpty(offset(uncovered, -tolerance)),
          `${direction}, ${mm} mm: ${area(uncovered)} mm² of the exact offset uncovered`,
        );
        const margin = keepOutSimplification(tolerance) + KEEP_OUT_SIMPLIFY_MM;
        const beyond = difference(keepOut, offset(shadow, mm + margin + ARC_TOLERANCE_MM + 1e-4, ARC_TOLERANCE_MM));
        assert.ok(
          isEmpty(beyond),
          `${direction}, ${mm} mm: ${area(beyond)} mm² of the keep-out more than ${margin} mm beyond the offset`,
        );
      }
    }
  });

  it("puts every vertex of partC above a height inside that height's shadow (from +Z and from -Y)", () => {
    for (const [, soup] of partCFromZAndMinusY()) {
      const slicer = createSlicer(soup);
      let checked = 0;
      for (const level of [-5, -12.5, -20, -27]) {
        const shadow = slicer.shadow(level);
        for (let i = 0; i < soup.positions.length; i += 3) {
          const z = soup.positions[i + 2] as number;
          if (z < level + 1e-3) continue;
          const p: [number, number] = [soup.positions[i] as number, soup.positions[i + 1] as number];
          assert.ok(
            contains(shadow, p) || distanceToBoundary(shadow, p) < 1e-3,
            `vertex ${p} at ${z} outside the shadow at ${level}`,
          );
          checked += 1;
        }
      }
      assert.ok(checked > 500, `${checked} vertices checked`);
    }
  });
});

/** partC in the frames of a +Z and a -Y setup, with each direction. */
function partCFromZAndMinusY(): [string, TriangleSoup][] {
  return (
    [
      [0, 0, 1],
      [0, -1, 0],
    ] as Vec3[]
  ).map((direction) => [direction.join(","), partCFrom(direction)]);
}

function reverseWinding(soup: TriangleSoup): TriangleSoup {
  const indices = new Uint32Array(soup.indices.length);
  for (let t = 0; t < soup.indices.length; t += 3) {
    indices[t] = soup.indices[t] as number;
    indices[t + 1] = soup.indices[t + 2] as number;
    indices[t + 2] = soup.indices[t + 1] as number;
  }
  return { positions: soup.positions, indices };
}
