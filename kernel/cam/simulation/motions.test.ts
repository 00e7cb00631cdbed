import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Move } from "../types.ts";
import { motionsOf } from "./motions.ts";
import { near } from "./test-support.ts";

describe("motionsOf", () => {
  it("reads a clockwise quarter arc as the counter-clockwise quarter from its end", () => {
    const [motion] = motionsOf(
      { kind: "arc", to: [0, 5, -1], centre: [0, 0], clockwise: true, feed: 100 },
      [5, 0, 0],
      0.005,
    );
    assert.equal(motion?.kind, "arc");
    if (motion?.kind !== "arc") return;
    near(motion.path.sweep, (3 * Math.PI) / 2, 1e-12, "clockwise from +x to +y");
    near(motion.path.start, Math.PI / 2, 1e-12, "starting at +y");
    assert.deepEqual([motion.path.z0, motion.path.z1], [-1, 0]);
  });

  it("reads an arc back to its start as a whole circle", () => {
    const [motion] = motionsOf(
      { kind: "arc", to: [5, 0, -1], centre: [0, 0], clockwise: false, feed: 100 },
      [5, 0, 0],
      0.005,
    );
    assert.ok(motion?.kind === "arc");
    near(motion.path.sweep, 2 * Math.PI, 1e-12, "sweep");
  });

  it("chords an arc whose radius changes, every chord within the chord error of the spiral", () => {
    const motions = motionsOf(
      { kind: "arc", to: [-6, 0, 0], centre: [0, 0], clockwise: false, feed: 100 },
      [5, 0, 0],
      0.01,
    );
    assert.ok(motions.length > 20);
    assert.deepEqual(motions.at(-1)?.to, [-6, 0, 0]);
    for (const m of motions) {
      assert.ok(m.kind === "line");
      // the chord's middle against the spiral r = 5 + angle / π at the middle's angle
      const mid = [(m.from[0] + m.to[0]) / 2, (m.from[1] + m.to[1]) / 2] as const;
      const angle = Math.atan2(mid[1], mid[0]);
      assert.ok(Math.abs(Math.hypot(...mid) - (5 + angle / Math.PI)) <= 0.01, `chord ending at ${m.to}`);
    }
  });

  it("expands a G83 peck cycle into pecks of 4 mm, each from 0.5 mm above the last, and a G84 tap that feeds out", () => {
    const peck: Move = {
      kind: "drill",
      cycle: "peck",
      at: [[1, 2]],
      retract_z: 3,
      top_z: 0,
      bottom_z: -10,
      peck_mm: 4,
      dwell_s: 0,
      feed: 100,
    };
    const motions = motionsOf(peck, [1, 2, 10], 0.01);
    const path = motions.map((m) => `${m.rapid ? "G0" : "G1"} ${m.to[2]}`);
    assert.deepEqual(path, ["G0 10", "G0 3", "G1 -4", "G0 3", "G0 -3.5", "G1 -8", "G0 3", "G0 -7.5", "G1 -10", "G0 3"]);
    const tap: Move = { ...peck, cycle: "tap", peck_mm: null };
    assert.deepEqual(
      motionsOf(tap, [1, 2, 3], 0.01).map((m) => m.rapid),
      [true, true, false, false],
    );
  });
});
