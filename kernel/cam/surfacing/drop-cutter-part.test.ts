/**
 * Drop-cutter over a real part: NIST STC-06 (domes, fillets, pockets) in its first setup's frame,
 * meshed at the planner's chordal error, a grid of drops checked against every triangle near
 * each point, and timed.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { withOcctScope } from "../../geometry/occt-scope.ts";
import { loadOpenCascade } from "../../geometry/opencascade.ts";
import { readStep } from "../../geometry/step.ts";
import { tessellate } from "../../geometry/tessellate.ts";
import { fixture } from "../../geometry/test-support.ts";
import { boxToFrame, setupFrame, soupToFrame } from "../frames.ts";
import { CUTTING_MESH_DEFLECTION_MM } from "../planner/read-part.ts";
import type { Box3 } from "../types.ts";
import { BallCutter, BullCutter, type SurfaceCutter } from "./cutters.ts";
import { DropCutter } from "./drop-cutter.ts";
import { FACET_STRIDE } from "./triangle-records.ts";

const oc = await loadOpenCascade();
const mesh = withOcctScope((scope) => {
  const solid = readStep(oc, fixture("nist_stc_06_asme1_ap242-e3.stp"), scope).solid;
  return tessellate(oc, solid, 400, { linearDeflectionMm: CUTTING_MESH_DEFLECTION_MM });
});
const box = mesh.bbox as NonNullable<typeof mesh.bbox>;
// the stock the verification tests plan it in: 2 mm round it, 5 above
const stock: Box3 = {
  min: [box.min[0] - 2, box.min[1] - 2, box.min[2] - 8],
  max: [box.max[0] + 2, box.max[1] + 2, box.max[2] + 5],
};
const frame = setupFrame([0, 0, 1], stock);
const soup = soupToFrame(frame, { positions: mesh.mesh.positions, indices: mesh.mesh.indices });
const inFrame = boxToFrame(frame, stock);

/** n x n points over the stock's top, cell centres */
function gridPoints(n: number): [number, number][] {
  const [x0, y0] = inFrame.min;
  const [x1, y1] = inFrame.max;
  const points: [number, number][] = [];
  for (let j = 0; j < n; j += 1)
    for (let i = 0; i < n; i += 1) points.push([x0 + ((x1 - x0) * (i + 0.5)) / n, y0 + ((y1 - y0) * (j + 0.5)) / n]);
  return points;
}

/** a triangle's corners, x, y, z each */
type Corners = [number, number, number, number, number, number, number, number, number];

/** the spacing of the points on the part the cutter is held against, mm */
const SAMPLE_MM = 0.05;

/**
 * Independently of the grid and the contact solutions: the part's triangles near (x, y),
 * rasterised at SAMPLE_MM under the cutter's disc, must not enter the cutter whose tip is at z,
 * and the nearest of them must come close (a contact between samples on a steep part of the
 * profile leaves the nearest sample a little off).
 */
function checkAgainstTriangles(drop: DropCutter, cutter: SurfaceCutter, at: { x: number; y: number; z: number }) {
  const { facets, count } = drop.records;
  const r = cutter.radius;
  let nearest = Infinity;
  for (let t = 0; t < count; t += 1) {
    const f = t * FACET_STRIDE;
    const [ax, ay, az, bx, by, bz, cx, cy, cz] = Array.from(facets.subarray(f, f + 9)) as Corners;
    const minX = Math.max(Math.min(ax, bx, cx), at.x - r);
    const maxX = Math.min(Math.max(ax, bx, cx), at.x + r);
    const minY = Math.max(Math.min(ay, by, cy), at.y - r);
    const maxY = Math.min(Math.max(ay, by, cy), at.y + r);
    if (minX > maxX || minY > maxY) continue;
    const area = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
    if (area === 0) continue;
    for (let i = Math.ceil((minX - at.x) / SAMPLE_MM); at.x + i * SAMPLE_MM <= maxX; i += 1) {
      for (let j = Math.ceil((minY - at.y) / SAMPLE_MM); at.y + j * SAMPLE_MM <= maxY; j += 1) {
        const px = at.x + i * SAMPLE_MM;
        const py = at.y + j * SAMPLE_MM;
        const rho = Math.hypot(px - at.x, py - at.y);
        if (rho > r) continue;
        const u = ((bx - px) * (cy - py) - (by - py) * (cx - px)) / area;
        const v = ((cx - px) * (ay - py) - (cy - py) * (ax - px)) / area;
        if (u < 0 || v < 0 || u + v > 1) continue;
        const gap = at.z + cutter.height(rho) - (u * az + v * bz + (1 - u - v) * cz);
        assert.ok(gap > -1e-6, `(${at.x}, ${at.y}): a point of the part ${-gap} mm inside the cutter`);
        nearest = Math.min(nearest, gap);
      }
    }
  }
  if (at.z > drop.floor) assert.ok(nearest < 0.25, `(${at.x}, ${at.y}) at ${at.z}: nothing within ${nearest} mm`);
}

describe("drop-cutter over NIST STC-06 in its first setup", () => {
  for (const cutter of [new BallCutter(5), new BullCutter(5, 1)]) {
    it(`drops a ${cutter.shape} over a 100 x 100 grid onto the part, touching and not entering it`, (t) => {
      let started = performance.now();
      const drop = new DropCutter(soup, cutter);
      const built = performance.now() - started;
      started = performance.now();
      const heights = gridPoints(100).map(([x, y]) => drop.dropAt(x, y));
      const seconds = (performance.now() - started) / 1000;
      t.diagnostic(
        `${mesh.triangleCount} triangles, grid built in ${built.toFixed(0)} ms, 10,000 drops in ${seconds.toFixed(3)} s`,
      );
      // the part's top lies 5 mm under the stock's (the frame's z 0), its bottom 8 above the stock's
      assert.ok(Math.max(...heights) <= -5 + 1e-6 && Math.max(...heights) > -6, `top ${Math.max(...heights)}`);
      assert.ok(Math.min(...heights) >= inFrame.min[2] + 8 - 1e-6);
      const onPart = heights.filter((z) => z > drop.floor).length;
      assert.ok(onPart > 5000, `${onPart} of 10,000 points over the part`);
      // every 337th point (spread over the grid) against the triangles near it
      gridPoints(100).forEach(([x, y], k) => {
        if (k % 337 === 0) checkAgainstTriangles(drop, cutter, { x, y, z: heights[k] as number });
      });
    });
  }

  it("drops 100,000 points within a few seconds", (t) => {
    const drop = new DropCutter(soup, new BallCutter(5));
    const points = gridPoints(317);
    const started = performance.now();
    let sum = 0;
    for (const [x, y] of points) sum += drop.dropAt(x, y);
    const seconds = (performance.now() - started) / 1000;
    const rate = points.length / seconds;
    t.diagnostic(
      `${points.length} drops of a 10 mm ball in ${seconds.toFixed(2)} s: ${Math.round(rate)} points a second`,
    );
    assert.ok(Number.isFinite(sum));
    assert.ok(seconds < 10, `${seconds} s`);
  });
});
