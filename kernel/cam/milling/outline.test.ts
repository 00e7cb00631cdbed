import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Clipper } from "clipper2-ts";
import { outline } from "./outline.ts";
import { area, difference, pathOf, union, type Path64, type Paths64 } from "./polygons.ts";

/** Counter-clockwise, as the slicer hands its pieces over. */
const ccw = (path: Path64): Path64 => (Clipper.area(path) < 0 ? [...path].reverse() : path);
const xorArea = (a: Paths64, b: Paths64): number => area(difference(a, b)) + area(difference(b, a));

/** An n x n grid of unit squares, each split into two triangles, corners moved by `jitter`(i, j). */
function grid(n: number, jitter: (i: number, j: number) => [number, number]): Paths64 {
  const moved = new Map<string, [number, number]>();
  const at = (i: number, j: number): [number, number] => {
    let corner = moved.get(`${i} ${j}`);
    if (!corner) {
      const [dx, dy] = jitter(i, j);
      corner = [i + dx, j + dy];
      moved.set(`${i} ${j}`, corner);
    }
    return corner;
  };
  const pieces: Paths64 = [];
  for (let i = 0; i < n; i += 1) {
    for (let j = 0; j < n; j += 1) {
      pieces.push(
        ccw(pathOf([at(i, j), at(i + 1, j), at(i + 1, j + 1)])),
        ccw(pathOf([at(i, j), at(i + 1, j + 1), at(i, j + 1)])),
      );
    }
  }
  return pieces.filter((piece) => Clipper.area(piece) !== 0);
}

describe("the outline of pieces tiling a surface", () => {
  it("is the tiling's border alone: a 3 x 3 grid of triangle pairs becomes one loop round its 9 mm²", () => {
    const loops = outline(grid(3, () => [0, 0]));
    assert.equal(loops.length, 1);
    assert.equal(area(loops), 9);
    // the border's 12 grid points, no inner edge left
    assert.equal(loops[0]?.length, 12);
  });

  it("keeps a hole the pieces surround, wound the other way", () => {
    const pieces = grid(3, () => [0, 0]).filter(
      (piece) => !piece.every((p) => p.x >= 10000 && p.x <= 20000 && p.y >= 10000 && p.y <= 20000),
    );
    const loops = outline(pieces);
    assert.equal(loops.length, 2);
    assert.equal(area(union(loops)), 8);
  });

  it("covers the same region as the pieces where they fold over each other and meet at T-junctions", () => {
    // interior corners pushed far enough that some triangles flip over their neighbours
    let seed = 7;
    const random = (): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const n = 12;
    const folded = grid(n, (i, j) =>
      i === 0 || j === 0 || i === n || j === n ? [0, 0] : [(random() - 0.5) * 1.6, (random() - 0.5) * 1.6],
    );
    // a T-junction: one more triangle whose edge ends mid-way along the grid's bottom edge
    const pieces = [
      ...folded,
      ccw(
        pathOf([
          [0.5, 0],
          [1.5, -1],
          [2.5, 0],
        ]),
      ),
    ];
    const expected = union(pieces);
    // folded: the pieces cover more than their union
    assert.ok(area(pieces) > area(expected) + 1);
    const loops = outline(pieces);
    const edges = (region: Paths64) => region.reduce((sum, path) => sum + path.length, 0);
    // where neighbours do not fold, their shared edges are gone
    assert.ok(edges(loops) < 0.8 * edges(pieces), `${edges(loops)} edges left of ${edges(pieces)}`);
    assert.ok(xorArea(union(loops), expected) < 1e-6 * area(expected), `${xorArea(union(loops), expected)} mm² differ`);
  });

  it("joins pieces far from the origin on either side of it, 100 m away", () => {
    for (const shift of [-100_000, 100_000]) {
      const loops = outline(grid(3, () => [shift, shift]));
      assert.equal(loops.length, 1);
      assert.equal(area(loops), 9);
    }
  });

  it("is empty for no pieces", () => {
    assert.deepEqual(outline([]), []);
  });
});
