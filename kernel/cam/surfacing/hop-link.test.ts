/**
 * hopLink: two waterline runs on a sphere a gap apart where the tool's bodies do not clear low
 * down (a clearance refusing tips below a height over the gap) are joined by the lowest hop that
 * clears, the tip above the part across; none when no hop clears or the runs lie too far apart.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Vec3 } from "../types.ts";
import { BallCutter } from "./cutters.ts";
import { DropCutter } from "./drop-cutter.ts";
import { hopLink } from "./surface-finishing.ts";
import { sphereSoup } from "./test-support.ts";

const sphere = sphereSoup({ centre: [0, 0, 0], radius: 20, rings: 90, segments: 180 });
const drop = new DropCutter(sphere.soup, new BallCutter(3));
const sampling = { step: 0.5, tolerance: 0.002 };
// two points of the waterline at z 6 on the sphere's +x side, 0.6 mm apart in y
const z = 6;
const onLoop = (y: number): Vec3 => {
  let lo = 0;
  let hi = 30;
  for (let k = 0; k < 60; k += 1) {
    const mid = (lo + hi) / 2;
    if (drop.dropAt(mid, y) > z) lo = mid;
    else hi = mid;
  }
  return [hi + 0.003, y, z];
};
const from = onLoop(-0.3);
const to = onLoop(0.3);
/** the bodies clear over the gap (|y| < 0.2) only from `above` up */
const clearFrom = (above: number) => (p: Vec3) => Math.abs(p[1]) >= 0.2 || p[2] >= above;

describe("hopLink", () => {
  it("hops as low as the bodies clear, above the part, and ends on the start", () => {
    const hop = hopLink(drop, from, to, { reach: 3, clear: clearFrom(z + 0.8) }, sampling);
    assert.ok(hop, "no hop");
    assert.equal(hop.length, 3);
    const [up, across, down] = hop as [Vec3, Vec3, Vec3];
    assert.deepEqual(down, to);
    assert.ok(Math.abs(up[2] - (z + 1)) < 1e-9, `hop at ${up[2]}`);
    assert.equal(across[2], up[2]);
    assert.deepEqual([up[0], up[1]], [from[0], from[1]]);
    for (let k = 0; k <= 10; k += 1) {
      const y = -0.3 + (0.6 * k) / 10;
      const x = from[0] + ((to[0] - from[0]) * k) / 10;
      assert.ok(drop.dropAt(x, y) < up[2], `the tip meets the part at y ${y}`);
    }
  });

  it("none when no hop clears, or the ends lie beyond the reach", () => {
    assert.equal(hopLink(drop, from, to, { reach: 3, clear: clearFrom(z + 10) }, sampling), null);
    assert.equal(hopLink(drop, from, to, { reach: 0.5, clear: () => true }, sampling), null);
  });
});
