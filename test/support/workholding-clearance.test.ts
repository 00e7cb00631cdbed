/** The clearance measure of workholding-clearance.ts on boxes whose margins are known by hand. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Box3, Vec3 } from "../../kernel/cam/types.ts";
import type { CanonicalMove } from "./rs274.ts";
import { margins, sampled, stockContacts } from "./workholding-clearance.ts";

/** a jaw 10 mm deep, its top at z = -20 */
const JAW: Box3 = { min: [0, -10, -40], max: [100, 0, -20] };

describe("the clearance of a tool to a workholding box", () => {
  it("keeps the solid 1 mm away above the box, where the tip point is nearer than radius + 1", () => {
    const m = margins([50, -5, -18.5], 5, JAW);
    assert.ok(Math.abs(m.solid - 0.5) < 1e-12, `${m.solid}`);
    assert.ok(Math.abs(m.literal - (1.5 - 6)) < 1e-12, `${m.literal}`);
  });

  it("measures beside the box sideways, less the radius, and is negative inside it", () => {
    const beside = margins([50, 7, -30], 5, JAW);
    assert.ok(Math.abs(beside.solid - 1) < 1e-12 && Math.abs(beside.literal - 1) < 1e-12);
    // the tip below the box's bottom: its cylinder still passes through the box
    const under = margins([50, -5, -60], 5, JAW);
    assert.ok(under.solid < 0 && under.literal > 0);
    assert.ok(margins([50, -5, -30], 5, JAW).solid < 0);
  });
});

describe("the samples along a motion", () => {
  const at = { tool: 1, comment: "", call: 1 };
  it("are at most 0.5 mm apart, the ends included", () => {
    const line: CanonicalMove = { kind: "feed", from: [0, 0, 0], to: [1.2, 0, 0], ...at };
    const points = [...sampled(line)];
    assert.equal(points.length, 4);
    assert.deepEqual(points.at(-1), [1.2, 0, 0]);
    // a half turn of radius 10 about (10, 0), clockwise from (0, 0) over the top to (20, 0)
    const arc: CanonicalMove = {
      kind: "arc",
      from: [0, 0, 0],
      to: [20, 0, 0],
      centre: [10, 0],
      sweep: -Math.PI,
      ...at,
    };
    const round = [...sampled(arc)];
    for (let k = 1; k < round.length; k += 1) {
      const [a, b] = [round[k - 1] as Vec3, round[k] as Vec3];
      assert.ok(Math.hypot(b[0] - a[0], b[1] - a[1]) <= 0.5 + 1e-9);
    }
    assert.ok(Math.abs(Math.max(...round.map((p) => p[1])) - 10) < 0.01);
  });
});

describe("the jaws' contact with the stock", () => {
  it("finds the jaw on each side on the stock's face, and how high they overlap", () => {
    const stock: Box3 = { min: [0, 0, -43], max: [90, 48, 0] };
    const fixed: Box3 = { min: [-30, 48, -80], max: [120, 58, -38] };
    const moving: Box3 = { min: [-30, -10.05, -80], max: [120, -0.05, -38] };
    const [a, b] = stockContacts([fixed, moving], "y", stock);
    assert.ok(a && b);
    assert.deepEqual([a.gap_mm, a.height_mm], [0, 5]);
    assert.ok(Math.abs(b.gap_mm - 0.05) < 1e-12);
  });
});
