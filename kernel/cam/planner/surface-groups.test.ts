/** A setup's sloped faces in groups, an operation each: near faces together, far ones packed to a budget, a large one in height bands. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { TriangleSoup } from "../types.ts";
import { faceGroups } from "./surface-groups.ts";

/** Squares sloping up along X (side `size`, rising `rise`), one face each, at the given x. */
function slopes(at: readonly number[], size: number, rise: number): { soup: TriangleSoup; triangleFaces: Uint32Array } {
  const positions: number[] = [];
  const indices: number[] = [];
  const faces: number[] = [];
  at.forEach((x, face) => {
    const v = positions.length / 3;
    positions.push(x, 0, 0, x + size, 0, rise, x + size, size, rise, x, size, 0);
    // counter-clockwise from above: the normal faces up
    indices.push(v, v + 1, v + 2, v, v + 2, v + 3);
    faces.push(face, face);
  });
  return {
    soup: { positions: Float32Array.from(positions), indices: Uint32Array.from(indices) },
    triangleFaces: Uint32Array.from(faces),
  };
}

describe("faceGroups", () => {
  it("keeps faces within a tool's radius of each other together, and apart ones apart past the budget", () => {
    // faces 0 and 1 touch; face 2 lies 50 mm off
    const { soup, triangleFaces } = slopes([0, 10, 70], 10, 5);
    const together = faceGroups({ soup, triangleFaces, faces: [0, 1, 2], radius: 3, spacing: 0.3, passMm: 1_000 });
    // each face is about 112 mm² of area: 370 mm of passes; two fit 1,000 mm, not three
    assert.deepEqual(
      together.map((g) => g.faces),
      [[0, 1], [2]],
    );
    assert.ok(together.every((g) => g.band === null));
    const packed = faceGroups({ soup, triangleFaces, faces: [0, 1, 2], radius: 3, spacing: 0.3, passMm: 10_000 });
    assert.deepEqual(
      packed.map((g) => g.faces),
      [[0, 1, 2]],
    );
  });

  it("cuts a face larger than the budget into bands of the tip's height that cover every height", () => {
    const { soup, triangleFaces } = slopes([0], 40, 20);
    // about 1,790 mm² over 0.3 mm: 5,960 mm of passes, three bands of at most 2,500
    const groups = faceGroups({ soup, triangleFaces, faces: [0], radius: 3, spacing: 0.3, passMm: 2_500 });
    assert.equal(groups.length, 3);
    const bands = groups.map((g) => g.band);
    assert.ok(bands.every((b) => b !== null));
    assert.equal(bands[0]?.low, -Infinity);
    assert.equal(bands.at(-1)?.high, Infinity);
    for (let k = 1; k < bands.length; k += 1) assert.equal(bands[k]?.low, bands[k - 1]?.high);
    // from a radius below the face's foot to its top, equally high
    assert.ok(Math.abs((bands[0]?.high ?? 0) - (-3 + 23 / 3)) < 1e-9, `${bands[0]?.high}`);
  });
});
