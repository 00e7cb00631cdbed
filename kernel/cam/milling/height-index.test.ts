import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { fixture } from "../../geometry/test-support.ts";
import { readStl } from "../../geometry/stl.ts";
import { seededRandom } from "../../seeded-random.ts";
import { HeightIndex } from "./height-index.ts";
import { boxesSoup } from "./test-support.ts";
import { readTriangles, type Triangles } from "./triangles.ts";

/** What the index must find: every triangle tested, in order. */
function scan(triangles: Triangles, low: number, high: number): number[] {
  const found: number[] = [];
  for (let t = 0; t < triangles.count; t += 1) {
    if ((triangles.zmax[t] as number) > low && (triangles.zmin[t] as number) < high) found.push(t);
  }
  return found;
}

describe("the height index", () => {
  it("finds the triangles of partC crossing a band as a scan of every triangle does, in the same order", () => {
    const workpiece = readStl(fixture("partC.stl"), "ascii");
    const triangles = readTriangles({ positions: workpiece.mesh.positions, indices: workpiece.mesh.indices });
    const index = new HeightIndex(triangles);
    const random = seededRandom(6);
    const [bottom, top] = [Math.min(...triangles.zmin), Math.max(...triangles.zmax)];
    const bands: [number, number][] = [
      [-Infinity, Infinity],
      [bottom - 1, bottom],
      [top, top + 1],
      [(bottom + top) / 2, Infinity],
    ];
    for (let i = 0; i < 200; i += 1) {
      const low = bottom - 1 + random() * (top - bottom + 2);
      bands.push([low, low + random() * (i % 2 === 0 ? 0.2 : 10)]);
    }
    let found = 0;
    for (const [low, high] of bands) {
      const expected = scan(triangles, low, high);
      assert.deepEqual([...index.crossing(low, high)], expected, `band ${low} .. ${high}`);
      found += expected.length;
    }
    assert.ok(found > 10 * bands.length, `${found} triangles found in ${bands.length} bands`);
  });

  it("finds tall triangles, kept out of its bins, in the bands they cross", () => {
    // a slab 1 mm thick on a column 100 mm tall: the column's walls span every bin
    const triangles = readTriangles(
      boxesSoup([
        { min: [0, 0, 0], max: [10, 10, 100] },
        { min: [-5, -5, 50], max: [15, 15, 51] },
      ]),
    );
    const index = new HeightIndex(triangles);
    for (const [low, high] of [
      [20, 20.1],
      [50.5, 50.6],
      [99.9, 101],
      [-1, 0.01],
    ] as [number, number][]) {
      assert.deepEqual([...index.crossing(low, high)], scan(triangles, low, high));
    }
    assert.equal(index.crossing(20, 20.1).length, 8, "the column's four walls, two triangles each");
  });
});
