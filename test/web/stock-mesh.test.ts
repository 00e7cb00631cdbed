/** The web app's stock mesh (web/src/viewer/stock-mesh.ts) on fields small enough to count. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type StockField, STOCK_COLOURS, STOCK_SIDE, stockMesh } from "../support/viewer-stock.ts";

type Vec3 = [number, number, number];

/** two cells along x, 1 mm each: the first 5 mm high, the second 2 mm, on a stock 0..10 mm */
function twoCells(frame: StockField["frame"], classes = [0, 1]): StockField {
  return {
    nx: 2,
    ny: 1,
    x0: 0,
    y0: 0,
    dx: 1,
    dy: 1,
    bottom: 0,
    top: 10,
    heights: Float32Array.from([5, 2]),
    classes: Uint8Array.from(classes),
    material_left_mm3: 0,
    tolerance_mm: 0.1,
    cut_tolerance_mm: 0.01,
    frame,
  };
}

const IDENTITY = { origin: [0, 0, 0] as Vec3, x_axis: [1, 0, 0] as Vec3, z_axis: [0, 0, 1] as Vec3 };

function triangle(positions: Float32Array, t: number): Vec3[] {
  return [0, 1, 2].map((c) => {
    const v = (3 * t + c) * 3;
    return [positions[v]!, positions[v + 1]!, positions[v + 2]!];
  });
}

function normal([a, b, c]: Vec3[]): Vec3 {
  const u = [b![0] - a![0], b![1] - a![1], b![2] - a![2]];
  const w = [c![0] - a![0], c![1] - a![1], c![2] - a![2]];
  return [u[1]! * w[2]! - u[2]! * w[1]!, u[2]! * w[0]! - u[0]! * w[2]!, u[0]! * w[1]! - u[1]! * w[0]!];
}

/**
 * The signed volume the triangles enclose with the stock's bottom (divergence theorem, about
 * `origin` on the bottom, so the open bottom adds nothing): positive when they face out.
 */
function volume(positions: Float32Array, triangles: number, origin: Vec3 = [0, 0, 0]): number {
  let sum = 0;
  const from = (p: Vec3): Vec3 => [p[0] - origin[0], p[1] - origin[1], p[2] - origin[2]];
  for (let t = 0; t < triangles; t += 1) {
    const [a, b, c] = triangle(positions, t).map(from) as [Vec3, Vec3, Vec3];
    sum += a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) + a[2] * (b[0] * c[1] - b[1] * c[0]);
  }
  return sum / 6;
}

describe("the stock as coloured triangles", () => {
  it("draws each cell's top and every wall above a lower neighbour, closed and facing out", () => {
    const mesh = stockMesh(twoCells(IDENTITY));
    // tops 2, walls: the high cell 4 (edge on three sides, the low cell on one), the low cell 3
    assert.equal(mesh.triangles, 2 * (2 + 4 + 3));
    assert.equal(mesh.positions.length, mesh.triangles * 9);
    // open at the bottom only: the volume is the material's, 1 x 1 x 5 + 1 x 1 x 2
    assert.ok(Math.abs(volume(mesh.positions, mesh.triangles) - 7) < 1e-5);
    const firstTop = normal(triangle(mesh.positions, 0));
    assert.ok(firstTop[2] > 0 && firstTop[0] === 0 && firstTop[1] === 0, "the top faces up");
  });

  it("colours each cell's top by its class and the walls as stock", () => {
    const mesh = stockMesh(twoCells(IDENTITY, [2, 3]));
    const colourAt = (vertex: number) => Array.from(mesh.colours.subarray(3 * vertex, 3 * vertex + 3));
    const as32 = (colour: readonly number[]) => colour.map((c) => Math.fround(c));
    // per cell its top (2 triangles, 6 vertices), then its walls: the high cell has 4, the low 3
    assert.deepEqual(colourAt(0), as32(STOCK_COLOURS[2]!), "the high cell's top");
    for (let v = 6; v < 6 + 4 * 6; v += 1) assert.deepEqual(colourAt(v), as32(STOCK_SIDE), `wall vertex ${v}`);
    assert.deepEqual(colourAt(30), as32(STOCK_COLOURS[3]!), "the low cell's top");
    assert.deepEqual(colourAt(mesh.triangles * 3 - 1), as32(STOCK_SIDE), "the low cell's last wall");
  });

  it("places the cells with the setup's frame, in the part's coordinates", () => {
    // a setup from +X: its z along the part's x, its x along the part's y, origin at (20, 0, 0)
    const frame = { origin: [20, 0, 0] as Vec3, x_axis: [0, 1, 0] as Vec3, z_axis: [1, 0, 0] as Vec3 };
    const mesh = stockMesh(twoCells(frame));
    const tops = triangle(mesh.positions, 0);
    for (const p of tops) {
      assert.equal(p[0], 25, "the high cell's top is 5 mm along the part's x from the origin");
      assert.ok(p[1] >= 0 && p[1] <= 1);
    }
    assert.ok(normal(tops)[0] > 0, "and faces +X");
    assert.ok(
      Math.abs(volume(mesh.positions, mesh.triangles, frame.origin) - 7) < 1e-5,
      "a rotation keeps it facing out",
    );
  });

  it("draws nothing for cells cut to the bottom", () => {
    const field = twoCells(IDENTITY);
    field.heights.fill(field.bottom);
    assert.equal(stockMesh(field).triangles, 0);
  });
});
