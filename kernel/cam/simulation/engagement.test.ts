import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Box3, Engagement, Move, Vec3 } from "../types.ts";
import { flatEnvelope } from "./cutter-profile.ts";
import { EngagementMeter, weightedPercentile } from "./engagement.ts";
import { stockHeightField } from "./height-field.ts";
import { chordErrorOn, motionsOf } from "./motions.ts";
import { simulateSetup } from "./simulate.ts";
import { cutter, feed, near, NO_PART, operation, rapid } from "./test-support.ts";

// a 60 x 40 x 20 block, no part in it: every cut is into stock
const stock: Box3 = { min: [0, 0, -20], max: [60, 40, 0] };
const endMill = cutter("flat", 10);
const CELL = 0.1;

/** A slot along y at depth 3 from x 10 to 50: rapid above, plunge, feed. */
const slot = (y: number): Move[] => [rapid(10, y, 5), feed(10, y, -3), feed(50, y, -3), rapid(50, y, 5)];

function engagementOf(moves: Move[][], tool = endMill): (Engagement | null)[] {
  const result = simulateSetup({ stock, part: NO_PART, operations: moves.map((m) => operation(tool, m)) });
  return result.operations.map((o) => o.engagement);
}

describe("engagement", () => {
  it("reads a slot cut into the full block as the whole diameter: 180 degrees, ae = D, ap its depth", () => {
    const [engagement] = engagementOf([slot(20)]);
    assert.ok(engagement);
    assert.equal(engagement.angle_max_deg, 180);
    assert.equal(engagement.angle_p99_deg, 180);
    assert.equal(engagement.radial_max_mm, 10);
    assert.equal(engagement.radial_p99_mm, 10);
    assert.equal(engagement.radial_p99_pct, 100);
    near(engagement.axial_max_mm, 3, 0.01, "axial depth");
    // the plunge is an entry, not measured: the 40 mm along
    near(engagement.cutting_length_mm, 40, 0.1, "length cut");
    assert.equal(engagement.full_width_pct, 100);
    // 3 mm deep on a 10 mm end mill: within half the diameter
    assert.equal(engagement.full_width_deep_pct, 0);
  });

  it("reads a 1 mm side step beside the wall a 10 mm slot left as ae = 1 mm, 36.9 degrees", () => {
    // within the first slot's length: beyond its end the second pass would meet fresh stock
    const [, step] = engagementOf([slot(20), [rapid(15, 21, 5), feed(15, 21, -3), feed(45, 21, -3)]]);
    assert.ok(step);
    near(step.radial_max_mm, 1, CELL, "widest ae");
    near(step.radial_p99_mm, 1, CELL, "p99 ae");
    near(step.radial_p99_pct, 10, 100 * (CELL / 10), "p99 ae, % of D");
    // acos(4 / 5): the arc from the side to where the circle meets the wall 4 mm off the path
    near(step.angle_max_deg, (Math.acos(0.8) * 180) / Math.PI, 2, "arc");
    near(step.axial_max_mm, 3, 0.01, "axial depth");
    assert.equal(step.full_width_pct, 0);
  });

  it("reads nothing on a pass that repeats one, on rapids and on ramps", () => {
    const [, again] = engagementOf([slot(20), slot(20)]);
    assert.equal(again, null, "the cells the first pass cut are not material");
    const [ramp] = engagementOf([[rapid(10, 20, 5), feed(10, 20, 0), feed(50, 20, -3), rapid(50, 20, 5)]]);
    assert.equal(ramp, null, "a ramp is an entry");
  });

  it("reads a ball end mill by its cross-sections within the cut, leaving out the cusp under its tip", () => {
    const [slotted, stepped] = engagementOf(
      [slot(20), [rapid(15, 21, 5), feed(15, 21, -3), feed(45, 21, -3)]],
      cutter("ball", 10),
    );
    assert.ok(slotted && stepped);
    assert.equal(slotted.angle_max_deg, 180);
    // the widest circle sampled: in the middle of the top third of the 3 mm cut, 2.5 mm above the tip
    near(slotted.radial_max_mm, 2 * Math.sqrt(25 - (5 - 2.5) ** 2), 0.02, "the slot's ae");
    // 1 mm beside the first groove: the step, not the cusp the first groove left under the tip
    near(stepped.radial_max_mm, 1, CELL, "the side step's ae");
  });

  it("faces the leading half of an arc the way the tool travels it", () => {
    // material at x < 30, cleared beyond: a quarter arc round (30, 20) between (30, 28) and (38, 20)
    const field = stockHeightField(stock, CELL);
    for (let j = 0; j < field.ny; j++)
      for (let i = 0; i < field.nx; i++)
        if (field.x0 + (i + 0.5) * field.dx >= 30) field.heights[j * field.nx + i] = -10;
    const measure = (from: Vec3, move: Move): Engagement | null => {
      const meter = new EngagementMeter({ field, cutting: flatEnvelope(5), fluteLength: 30, tolerance: 0.01 });
      for (const motion of motionsOf(move, from, chordErrorOn(field))) meter.measure(motion);
      return meter.summary();
    };
    // clockwise from the top: the travel leads into the cleared side
    const away = measure([30, 28, -3], { kind: "arc", to: [38, 20, -3], centre: [30, 20], clockwise: true, feed: 1 });
    // counter-clockwise back: it ends heading into the material at x < 30
    const into = measure([38, 20, -3], { kind: "arc", to: [30, 28, -3], centre: [30, 20], clockwise: false, feed: 1 });
    assert.equal(away, null, "leaving the material, nothing is ahead of it");
    assert.ok(into !== null && into.angle_max_deg > 150, `heading into it: ${into?.angle_max_deg}°`);
  });

  it("leaves the flat pass after a ramp or helix out with the entry, and measures the cut after it", () => {
    // a ramp along y = 20 down to -3 (zig-zag, the last leg part way), the pass back over it, then a cut on along x
    const ramped: Move[] = [
      rapid(10, 20, 2),
      feed(30, 20, -1),
      feed(10, 20, -2.5),
      feed(20, 20, -3),
      feed(30, 20, -3),
      feed(10, 20, -3),
      feed(10, 30, -3),
    ];
    const [ramp] = engagementOf([ramped]);
    assert.ok(ramp);
    // only the last move: 10 mm along x, a slot
    near(ramp.cutting_length_mm, 10, 0.1, "the length measured");
    const helix: Move[] = [
      rapid(35, 20, 2),
      { kind: "arc", to: [25, 20, -1.5], centre: [30, 20], clockwise: false, feed: 100 },
      { kind: "arc", to: [35, 20, -3], centre: [30, 20], clockwise: false, feed: 100 },
      { kind: "arc", to: [25, 20, -3], centre: [30, 20], clockwise: false, feed: 100 },
      { kind: "arc", to: [35, 20, -3], centre: [30, 20], clockwise: false, feed: 100 },
    ];
    assert.deepEqual(engagementOf([helix]), [null], "a helix and its flat turn are the entry");
  });

  it("reads thin stock on both walls of a narrow place as the two widths summed, not the diameter", () => {
    // cleared to -10 but for two walls: y up to 15.3 and from 24.6 up; the tool's edges at 15 and 25
    const field = stockHeightField(stock, CELL);
    for (let j = 0; j < field.ny; j++) {
      const y = field.y0 + (j + 0.5) * field.dy;
      if (y > 15.3 && y < 24.6) for (let i = 0; i < field.nx; i++) field.heights[j * field.nx + i] = -10;
    }
    const meter = new EngagementMeter({ field, cutting: flatEnvelope(5), fluteLength: 30, tolerance: 0.01 });
    for (const motion of motionsOf(feed(50, 20, -3), [10, 20, -3], chordErrorOn(field))) meter.measure(motion);
    const walls = meter.summary();
    assert.ok(walls);
    // 0.3 mm on the right, 0.4 mm on the left (the cells, 0.1 mm, move each edge by up to a half)
    near(walls.radial_max_mm, 0.7, CELL, "both walls' widths");
    near(walls.radial_p99_mm, 0.7, CELL, "both walls' widths");
    assert.equal(walls.full_width_pct, 0);
  });

  it("takes the 99th percentile by length: a short full-width stretch is the maximum, not the p99", () => {
    assert.equal(weightedPercentile([10, 1], [0.5, 99.5], 0.99), 1);
    assert.equal(weightedPercentile([10, 1], [2, 98], 0.99), 10);
  });
});
