import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Clipper, type Path64 } from "clipper2-ts";
import { seededRandom } from "../../seeded-random.ts";
import { ramerDouglasPeucker } from "./simplify.ts";

/** A closed loop round a circle of `radius` units, each point off it by up to `noise` units, with repeated points here and there. */
function noisyLoop(next: () => number, points: number, radius: number, noise: number): Path64 {
  const path: Path64 = [];
  for (let i = 0; i < points; i += 1) {
    const a = (2 * Math.PI * i) / points;
    const p = {
      x: Math.round(radius * Math.cos(a) + (next() - 0.5) * noise),
      y: Math.round(radius * Math.sin(a) + (next() - 0.5) * noise),
    };
    path.push(p);
    if (next() < 0.05) path.push({ ...p });
  }
  return path;
}

describe("ramerDouglasPeucker", () => {
  it("keeps exactly the points clipper2-ts keeps, on 400 seeded paths at several tolerances", () => {
    // seeded: the same paths every run
    const next = seededRandom(20261125);
    for (let k = 0; k < 400; k += 1) {
      const loop = noisyLoop(next, 5 + Math.floor(next() * 2000), 1e3 + next() * 1e7, next() * 40);
      // some closed explicitly: the first point again at the end
      const path = k % 4 === 0 ? [...loop, { ...(loop[0] as { x: number; y: number }) }] : loop;
      for (const epsilon of [0, 2, 20, 2000]) {
        assert.deepEqual(
          ramerDouglasPeucker(path, epsilon),
          Clipper.ramerDouglasPeucker(path, epsilon),
          `path ${k}, epsilon ${epsilon}`,
        );
      }
    }
  });

  it("drops the zigzag of a straight edge and keeps its ends", () => {
    const path: Path64 = Array.from({ length: 101 }, (_, i) => ({ x: i * 1000, y: i % 2 }));
    assert.deepEqual(ramerDouglasPeucker(path, 2), [path[0], path[100]]);
    // under the tolerance nothing goes
    assert.equal(ramerDouglasPeucker(path, 0.5).length, 101);
  });

  it("returns a path of fewer than five points as it is", () => {
    const path: Path64 = [
      { x: 0, y: 0 },
      { x: 1, y: 0 },
      { x: 2, y: 0 },
      { x: 2, y: 5 },
    ];
    assert.equal(ramerDouglasPeucker(path, 10), path);
  });
});
