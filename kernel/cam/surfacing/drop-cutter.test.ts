import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { BallCutter, BullCutter, ConeCutter, FlatCutter } from "./cutters.ts";
import { DropCutter, dropLine } from "./drop-cutter.ts";
import { cylinderSoup, roundDrop, slopeSoup, sphereSoup } from "./test-support.ts";

const RADIUS = 5;
/** soups hold float32 corners: a few millionths of a mm off the true surface */
const FLOAT32_MM = 1e-5;
/** flat, ball and bull-nose of one radius, by their corner */
const ROUND = [
  { cutter: new FlatCutter(RADIUS), corner: 0 },
  { cutter: new BallCutter(RADIUS), corner: RADIUS },
  { cutter: new BullCutter(RADIUS, 2), corner: 2 },
];

/** the grid of XY points i / n across the square of half width `half` */
function grid(half: number, n: number): [number, number][] {
  const points: [number, number][] = [];
  for (let j = 0; j <= n; j += 1)
    for (let i = 0; i <= n; i += 1) points.push([-half + (2 * half * i) / n, -half + (2 * half * j) / n]);
  return points;
}

describe("drop-cutter over a triangle soup", () => {
  const SPHERE = 20;
  const sphere = sphereSoup({ centre: [0, 0, 0], radius: SPHERE, rings: 90, segments: 180 });

  it("rests on a sphere between the drops on the spheres the triangles lie between", () => {
    assert.ok(sphere.chordal < 0.01, `the mesh is within 0.01 mm: ${sphere.chordal}`);
    const inner = SPHERE - sphere.chordal;
    for (const { cutter, corner } of ROUND) {
      const drop = new DropCutter(sphere.soup, cutter);
      const shape = { radius: cutter.radius, corner };
      let steep = 0;
      for (const [x, y] of grid(SPHERE + RADIUS + 1, 60)) {
        const rho = Math.hypot(x, y);
        const z = drop.dropAt(x, y);
        const outer = Math.max(drop.floor, roundDrop({ radius: SPHERE, top: SPHERE }, shape, rho));
        const least = Math.max(drop.floor, roundDrop({ radius: inner, top: inner }, shape, rho));
        assert.ok(
          z <= outer + FLOAT32_MM && z >= least - FLOAT32_MM,
          `${cutter.shape} at (${x}, ${y}): ${z} not in [${least}, ${outer}]`,
        );
        // where the contact's normal is within 60 degrees of +Z the mesh's error is at most 2 chords in z
        const q = Math.max(0, rho - (RADIUS - corner));
        if (q > (SPHERE + corner) * Math.sin(Math.PI / 3)) continue;
        steep += 1;
        assert.ok(Math.abs(z - outer) <= 2 * sphere.chordal, `${cutter.shape} at (${x}, ${y}): ${z} against ${outer}`);
      }
      assert.ok(steep > 1000, `${steep} points checked within the chordal tolerance`);
    }
  });

  it("rests on a cylinder lying across the tool axis as the exact cylinder says", () => {
    const cylinder = cylinderSoup({ radius: 15, axisZ: -3, x0: -40, x1: 40, segments: 360 });
    const inner = 15 - cylinder.chordal;
    for (const { cutter, corner } of ROUND) {
      const drop = new DropCutter(cylinder.soup, cutter);
      for (const [x, y] of grid(20, 40)) {
        const z = drop.dropAt(x, y);
        const exact = Math.max(drop.floor, roundDrop({ radius: 15, top: 12 }, { radius: RADIUS, corner }, Math.abs(y)));
        const least = Math.max(
          drop.floor,
          roundDrop({ radius: inner, top: inner - 3 }, { radius: RADIUS, corner }, Math.abs(y)),
        );
        assert.ok(
          z <= exact + FLOAT32_MM && z >= least - FLOAT32_MM,
          `${cutter.shape} at (${x}, ${y}): ${z} not in [${least}, ${exact}]`,
        );
      }
    }
  });

  it("rests on a 30 degree slope exactly, every shape touching where its geometry says", () => {
    const degrees = 30;
    const a = (degrees * Math.PI) / 180;
    const plane = (x: number) => -x * Math.tan(a);
    const slope = slopeSoup({ degrees, x0: -50, x1: 50, y0: -50, y1: 50 });
    const cases = [
      { cutter: new FlatCutter(RADIUS), exact: (x: number) => plane(x - RADIUS) },
      { cutter: new BallCutter(RADIUS), exact: (x: number) => plane(x) + RADIUS / Math.cos(a) - RADIUS },
      { cutter: new BullCutter(RADIUS, 2), exact: (x: number) => plane(x - 3) + 2 / Math.cos(a) - 2 },
      // a 90 degree V-bit is steeper than the slope: its tip touches
      { cutter: new ConeCutter(RADIUS, 0, 1), exact: (x: number) => plane(x) },
    ];
    for (const { cutter, exact } of cases) {
      const drop = new DropCutter(slope.soup, cutter);
      for (const [x, y] of grid(40, 20)) {
        const z = drop.dropAt(x, y);
        assert.ok(Math.abs(z - exact(x)) < 1e-5, `${cutter.shape} at (${x}, ${y}): ${z} against ${exact(x)}`);
      }
    }
  });

  it("rests on a level plane at its height, and beside it on the floor asked for", () => {
    const plane = slopeSoup({ degrees: 0, x0: 0, x1: 30, y0: 0, y1: 30 });
    for (const { cutter } of ROUND) {
      const drop = new DropCutter(plane.soup, cutter, { floor: -10 });
      assert.equal(drop.dropAt(15, 15), 0);
      assert.ok(Math.abs(drop.dropAt(-4, 15) + cutter.height(4)) < 1e-9, `${cutter.shape} over the border`);
      assert.equal(drop.dropAt(-5.5, 15), -10);
    }
  });

  it("samples a line finely where the surface bends and coarsely where it does not", () => {
    const drop = new DropCutter(sphere.soup, new BallCutter(3));
    const tolerance = 0.005;
    const points = dropLine(drop, { from: [-30, 4], to: [30, 4] }, { step: 2, tolerance });
    const count = points.length / 3;
    assert.ok(count > 60 && count < 600, `${count} points`);
    for (let k = 0; k + 1 < count; k += 1) {
      const [x0, y0, z0] = [points[3 * k], points[3 * k + 1], points[3 * k + 2]] as number[];
      const [x1, y1, z1] = [points[3 * k + 3], points[3 * k + 4], points[3 * k + 5]] as number[];
      assert.ok((x1 as number) > (x0 as number), "in order along the line");
      assert.ok((x1 as number) - (x0 as number) <= 2 + 1e-9, "no step longer than asked");
      // a piece longer than the finest step has its midpoint within the tolerance of its chord
      if ((x1 as number) - (x0 as number) > 2 / 64 + 1e-9) {
        const middle = drop.dropAt(((x0 as number) + (x1 as number)) / 2, ((y0 as number) + (y1 as number)) / 2);
        assert.ok(Math.abs(middle - ((z0 as number) + (z1 as number)) / 2) <= tolerance, `at x ${x0}`);
      }
    }
    // off the sphere the line lies on the floor: there the samples are the plain steps
    const flat = [...Array(count).keys()].filter((k) => (points[3 * k] as number) < -24);
    assert.ok(flat.length <= 4, `${flat.length} points on the floor before the sphere`);
  });
});
