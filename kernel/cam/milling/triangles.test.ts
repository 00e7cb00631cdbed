import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { area, union, type Paths64 } from "./polygons.ts";
import { partCFrom } from "./test-support.ts";
import { facingUp, projectClipped, readTriangles, SHADOW_EPSILON_MM, type Triangles } from "./triangles.ts";

/** The union of the triangles' projections above z, as it is (no closing, no simplification). */
function projectedAbove(triangles: Triangles, z: number): Paths64 {
  const pieces: Paths64 = [];
  for (let t = 0; t < triangles.count; t += 1) {
    const piece = projectClipped(triangles, t, z + SHADOW_EPSILON_MM, Infinity);
    if (piece) pieces.push(piece);
  }
  return union(pieces);
}

describe("the triangles facing up", () => {
  const all = readTriangles(partCFrom([0, 0, 1]));
  const up = facingUp(all);

  it("are fewer than all of a closed part's", () => {
    assert.ok(up.count > 0 && up.count < all.count / 2 + 1, `${up.count} of ${all.count}`);
  });

  it("cast the same shadow as all of them at every height, where the part crosses it too", () => {
    for (const z of [-4, -8, -15, -22, -29]) {
      const whole = area(projectedAbove(all, z));
      const cast = area(projectedAbove(up, z));
      assert.ok(whole > 0, `z ${z}`);
      assert.ok(Math.abs(cast - whole) < 1e-3, `z ${z}: ${cast} mm² from those facing up, ${whole} from all`);
    }
  });
});
