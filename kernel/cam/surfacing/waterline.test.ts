import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { TriangleSoup } from "../types.ts";
import { BallCutter, BullCutter, FlatCutter } from "./cutters.ts";
import { DropCutter } from "./drop-cutter.ts";
import { roundDrop, sphereSoup } from "./test-support.ts";
import { type WaterlineLoop, WaterlineGrid } from "./waterline.ts";

const SPHERE = 20;
const sphere = sphereSoup({ centre: [0, 0, 0], radius: SPHERE, rings: 90, segments: 180 });

/** The radius where a round cutter's drop on the sphere of `radius` passes z (its waterline's radius). */
function waterlineRadius(radius: number, cutter: { radius: number; corner: number }, z: number): number {
  const reach = radius + cutter.corner;
  return cutter.radius - cutter.corner + Math.sqrt(reach * reach - (z + cutter.corner) ** 2);
}

function radii(loop: WaterlineLoop, centre: [number, number] = [0, 0]): number[] {
  const out: number[] = [];
  for (let k = 0; k < loop.points.length; k += 2)
    out.push(Math.hypot((loop.points[k] as number) - centre[0], (loop.points[k + 1] as number) - centre[1]));
  return out;
}

/** twice the signed area: positive counter-clockwise */
function signedArea(loop: WaterlineLoop): number {
  const p = loop.points;
  const n = p.length / 2;
  let area = 0;
  for (let k = 0; k < n; k += 1) {
    const next = (k + 1) % n;
    area += (p[2 * k] as number) * (p[2 * next + 1] as number) - (p[2 * next] as number) * (p[2 * k + 1] as number);
  }
  return area;
}

function joined(a: TriangleSoup, b: TriangleSoup): TriangleSoup {
  const offset = a.positions.length / 3;
  return {
    positions: Float32Array.from([...a.positions, ...b.positions]),
    indices: Uint32Array.from([...a.indices, ...Array.from(b.indices, (i) => i + offset)]),
  };
}

describe("waterline", () => {
  it("round a sphere is one circle of the radius the cutter's offset makes, for each shape", () => {
    const inner = SPHERE - sphere.chordal;
    const tolerance = 1e-3;
    for (const [cutter, corner] of [
      [new FlatCutter(5), 0],
      [new BallCutter(5), 5],
      [new BullCutter(5, 2), 2],
    ] as const) {
      const grid = new WaterlineGrid(new DropCutter(sphere.soup, cutter), { step: 0.5 });
      for (const z of [0, 6, 15]) {
        const loops = grid.loops(z, tolerance);
        assert.equal(loops.length, 1, `${cutter.shape} at ${z}: ${loops.length} loops`);
        const loop = loops[0] as WaterlineLoop;
        const shape = { radius: 5, corner };
        const outer = waterlineRadius(SPHERE, shape, z);
        const least = waterlineRadius(inner, shape, z + sphere.chordal);
        for (const r of radii(loop))
          assert.ok(
            r <= outer + tolerance && r >= least - tolerance,
            `${cutter.shape} at ${z}: ${r} not in [${least}, ${outer}]`,
          );
        assert.ok(signedArea(loop) > 0, "counter-clockwise round the part");
        // the loop closes round the sphere: as many points as the fibres it crosses
        assert.ok(loop.points.length / 2 > (8 * outer) / 0.5 - 8, `${loop.points.length / 2} points`);
        assert.equal(roundDrop({ radius: SPHERE, top: SPHERE }, shape, outer) >= z - 1e-9, true);
      }
    }
  });

  it("finds a loop per part, and none above them", () => {
    const second = sphereSoup({ centre: [50, 0, -8], radius: 10, rings: 45, segments: 90 });
    const grid = new WaterlineGrid(new DropCutter(joined(sphere.soup, second.soup), new BallCutter(3)), { step: 0.5 });
    const loops = grid.loops(-2, 1e-3);
    assert.equal(loops.length, 2);
    const [big, small] = [...loops].sort((a, b) => signedArea(b) - signedArea(a)) as [WaterlineLoop, WaterlineLoop];
    const ball = { radius: 3, corner: 3 };
    const outer = waterlineRadius(10, ball, -2 + 8);
    const least = waterlineRadius(10 - second.chordal, ball, -2 + 8 + second.chordal);
    for (const r of radii(small, [50, 0]))
      assert.ok(r <= outer + 1e-3 && r >= least - 1e-3, `${r} not in [${least}, ${outer}]`);
    assert.ok(radii(big).every((r) => r > 20));
    assert.equal(grid.loops(SPHERE + 1, 1e-3).length, 0, "nothing above the top");
  });

  it("comes back as one open chain where the region's border cuts the loop, whichever way it runs", () => {
    const drop = new DropCutter(sphere.soup, new BallCutter(3));
    const whole = new WaterlineGrid(drop, { step: 0.5 }).loops(6, 1e-3)[0] as WaterlineLoop;
    // each half of the loop: on the left half it runs down (-y) against the grid's order
    for (const [minX, maxX] of [
      [-30, 0.25],
      [0.25, 30],
    ] as const) {
      const grid = new WaterlineGrid(drop, { step: 0.5, region: { minX, maxX, minY: -30, maxY: 30 } });
      const loops = grid.loops(6, 1e-3);
      assert.equal(
        loops.length,
        1,
        `x in [${minX}, ${maxX}]: ${loops.map((l) => l.points.length / 2).join(", ")} points`,
      );
      const chain = loops[0] as WaterlineLoop;
      const inHalf = radii(whole).filter((_, k) => {
        const x = whole.points[2 * k] as number;
        return x > minX && x < maxX;
      }).length;
      assert.ok(Math.abs(chain.points.length / 2 - inHalf) <= 2, `${chain.points.length / 2} points against ${inHalf}`);
      // its ends on the border, one at each side of the sphere
      const first = chain.points[1] as number;
      const last = chain.points.at(-1) as number;
      assert.ok(Math.sign(first) !== Math.sign(last), `ends at y ${first} and ${last}`);
    }
  });

  it("keeps the part on its left round a pocket: clockwise inside a ring of material", () => {
    // a bowl: the inside of a sphere cut open at its equator, seen from above, is a pocket
    const bowl = sphereSoup({ centre: [0, 0, 0], radius: SPHERE, rings: 90, segments: 180 });
    const lower = bowl.soup.indices.length / 2;
    const soup = { positions: bowl.soup.positions, indices: bowl.soup.indices.slice(lower) };
    const grid = new WaterlineGrid(new DropCutter(soup, new BallCutter(4)), { step: 0.5 });
    const loops = grid.loops(-10, 1e-3);
    // outside the bowl's rim and inside its wall
    const orientations = loops.map((loop) => Math.sign(signedArea(loop))).sort();
    assert.deepEqual(orientations, [-1, 1]);
    const inside = loops.find((loop) => signedArea(loop) < 0) as WaterlineLoop;
    // the ball's centre 4 inside the bowl's sphere: at tip z -10 its centre is at -6
    const expected = Math.sqrt((SPHERE - 4) ** 2 - 36);
    for (const r of radii(inside)) assert.ok(Math.abs(r - expected) < 0.01, `${r} against ${expected}`);
  });
});
