import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { cutter } from "../simulation/test-support.ts";
import { BallCutter, BullCutter, ConeCutter, FlatCutter, type SurfaceCutter, surfaceCutter } from "./cutters.ts";
import { triangleRecords } from "./triangle-records.ts";

const CUTTERS: SurfaceCutter[] = [
  new FlatCutter(4),
  new BallCutter(4),
  new BullCutter(4, 1.5),
  new ConeCutter(4, 0.5, 1 / Math.tan(Math.PI / 6)),
];

/** a small deterministic sequence in [0, 1) */
function sequence(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

/** The drop against a segment by sampling it densely: the highest tip over the samples within reach. */
function sampledEdgeDrop(c: SurfaceCutter, x: number, y: number, a: number[], b: number[]): number {
  let best = -Infinity;
  const samples = 200_000;
  for (let k = 0; k <= samples; k += 1) {
    const f = k / samples;
    const px = (a[0] as number) + f * ((b[0] as number) - (a[0] as number));
    const py = (a[1] as number) + f * ((b[1] as number) - (a[1] as number));
    const pz = (a[2] as number) + f * ((b[2] as number) - (a[2] as number));
    const rho = Math.hypot(px - x, py - y);
    if (rho <= c.radius) best = Math.max(best, pz - c.height(rho));
  }
  return best;
}

describe("surface cutters", () => {
  it("drop onto a vertex by their profile's height at its distance", () => {
    const point = Float64Array.of(1, 2, 3);
    const ball = new BallCutter(4);
    assert.equal(ball.vertexDrop({ x: 1, y: 2 }, point, 0), 3);
    assert.ok(
      Math.abs(ball.vertexDrop({ x: 1 + 2.4, y: 2 + 3.2 }, point, 0) - (3 - 4)) < 1e-12,
      "at the rim: the centre's height",
    );
    assert.equal(ball.vertexDrop({ x: 1 + 4.01, y: 2 }, point, 0), -Infinity);
    const bull = new BullCutter(4, 1);
    assert.equal(bull.vertexDrop({ x: 1 + 3, y: 2 }, point, 0), 3, "on the flat disc");
    assert.ok(Math.abs(bull.vertexDrop({ x: 1 + 3.6, y: 2 }, point, 0) - (3 - (1 - Math.sqrt(1 - 0.36)))) < 1e-12);
    const cone = new ConeCutter(4, 1, 2);
    assert.equal(cone.vertexDrop({ x: 1 + 3, y: 2 }, point, 0), 3 - 4);
  });

  it("drop onto an edge as a dense sampling of the edge says, for every shape and slope", () => {
    const random = sequence(7);
    for (const c of CUTTERS) {
      for (let trial = 0; trial < 40; trial += 1) {
        const a = [random() * 10 - 5, random() * 10 - 5, random() * 6 - 3];
        const b = [random() * 10 - 5, random() * 10 - 5, random() * 6 - 3];
        const x = random() * 6 - 3;
        const y = random() * 6 - 3;
        const points = Float64Array.from([...a, ...b]);
        const exact = c.edgeDrop({ x, y }, points, 0, 3);
        const sampled = sampledEdgeDrop(c, x, y, a, b);
        if (sampled === -Infinity) {
          assert.equal(exact, -Infinity, `${c.shape}: nothing in reach`);
          continue;
        }
        // the sampling can only miss the highest point, never exceed it
        assert.ok(exact >= sampled - 1e-9, `${c.shape} trial ${trial}: ${exact} below the sampled ${sampled}`);
        assert.ok(exact - sampled < 2e-4, `${c.shape} trial ${trial}: ${exact} against the sampled ${sampled}`);
      }
    }
  });

  it("rest on a horizontal edge at the profile's height over the edge's distance", () => {
    const edge = Float64Array.of(-10, 0, 0, 10, 0, 0);
    for (const c of CUTTERS) {
      for (const d of [0, 0.7, 2.5, 3.9]) {
        assert.ok(Math.abs(c.edgeDrop({ x: 0.3, y: d }, edge, 0, 3) + c.height(d)) < 1e-7, `${c.shape} at ${d}`);
      }
      assert.equal(c.edgeDrop({ x: 0, y: 4.5 }, edge, 0, 3), -Infinity);
    }
  });

  it("drop onto a sloping facet where the support point touches it", () => {
    // z = -x tan 30 over a large triangle: the contact lies inside it
    const tan = Math.tan(Math.PI / 6);
    const cos = Math.cos(Math.PI / 6);
    const soup = {
      positions: Float32Array.of(-50, -50, 50 * tan, 50, -50, -50 * tan, 0, 50, 0),
      indices: Uint32Array.of(0, 1, 2),
    };
    const { facets } = triangleRecords(soup);
    const plane = (x: number) => -x * tan;
    const at = { x: 1, y: -5 };
    const near = (actual: number, expected: number, what: string) =>
      assert.ok(Math.abs(actual - expected) < 1e-4, `${what}: ${actual} against ${expected}`);
    near(new FlatCutter(4).facetDrop(at, facets, 0), plane(1 - 4), "flat: its rim uphill");
    near(new BallCutter(4).facetDrop(at, facets, 0), plane(1) + 4 / cos - 4, "ball: its centre 4 off the plane");
    near(new BullCutter(4, 1.5).facetDrop(at, facets, 0), plane(1 - 2.5) + 1.5 / cos - 1.5, "bull: its tube 1.5 off");
    // a 60 degree V-bit (sides 30 degrees from the axis) is steeper than the plane: its tip touches
    near(new ConeCutter(4, 0, 1 / Math.tan(Math.PI / 6)).facetDrop(at, facets, 0), plane(1), "cone: its tip");
    // a 150 degree one is flatter: its rim touches first
    const flatCone = new ConeCutter(4, 0, Math.tan(Math.PI / 12));
    near(flatCone.facetDrop(at, facets, 0), plane(1 - 4) - flatCone.height(4), "flat cone: its rim");
    assert.equal(new BallCutter(4).facetDrop({ x: 60, y: 0 }, facets, 0), -Infinity, "contact off the triangle");
  });

  it("are made from a plan's tools", () => {
    assert.equal(surfaceCutter(cutter("flat", 10)).shape, "flat");
    assert.equal(surfaceCutter(cutter("ball", 6)).shape, "ball");
    const bull = surfaceCutter(cutter("bull", 10, { corner_radius: 1 }));
    assert.ok(bull instanceof BullCutter && bull.corner === 1 && bull.radius === 5);
    assert.equal(surfaceCutter(cutter("bull", 10, { corner_radius: 0 })).shape, "flat");
    assert.equal(surfaceCutter(cutter("chamfer", 10, { chamfer_angle_deg: 45, tip_diameter: 1 })).shape, "cone");
    assert.throws(() => surfaceCutter(cutter("drill", 5)), RangeError);
  });
});
