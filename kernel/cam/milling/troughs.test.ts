import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Move, Vec3 } from "../types.ts";
import { createSlicer } from "./slicer.ts";
import { InProcessStock } from "./stock.ts";
import { boxesSoup, cutting, endMill, STOCK } from "./test-support.ts";
import { troughFinishing, type Trough } from "./troughs.ts";

const part = createSlicer(boxesSoup([{ min: [0, 0, -25], max: [70, 50, -10] }]));
const ball = (diameter: number) =>
  endMill(diameter, { kind: "ball", corner_radius: diameter / 2, tool_type: "BallEndMill" });
// a half cylinder along x, its axis 10 mm down, opening upwards, ending upright at both sides
const trough = (radius: number): Trough => ({
  face: 7,
  start: [5, 20, -10],
  axis: [1, 0, 0],
  length: 30,
  radius,
  angles: [-Math.PI / 2, Math.PI / 2],
});

function cuts(moves: readonly Move[]): Vec3[] {
  return moves.flatMap((m) => (m.kind === "linear" ? [m.to] : []));
}

describe("trough finishing", () => {
  it("runs a ball as round as the trough along its axis at its bottom, then up the walls it ends in, a radius short of each end", () => {
    const outcome = troughFinishing({ part, stock: new InProcessStock(STOCK), tool: ball(2), parameters: cutting() }, [
      trough(1),
    ]);
    const operation = outcome.operation;
    assert.ok(operation, outcome.reason ?? "");
    assert.equal(operation.kind, "floor_finishing");
    const low = cuts(operation.moves).filter((p) => p[2] < 0);
    // the tip 0.05 mm above the trough's bottom (11 mm down), along it from 1.02 to 28.98 mm in
    assert.ok(
      low.every((p) => Math.abs(p[1] - 20) < 1e-9 && p[0] >= 6.02 - 1e-9 && p[0] <= 33.98 + 1e-9),
      JSON.stringify(low.slice(0, 4)),
    );
    const bottom = Math.min(...low.map((p) => p[2]));
    assert.ok(Math.abs(bottom - (-11 + 0.05)) < 1e-9, `${bottom}`);
    // up the walls: 1.5 ball radii above the bottom pass, in steps of at most 0.25 mm
    const heights = [...new Set(low.map((p) => p[2].toFixed(3)))].map(Number).sort((a, b) => a - b);
    assert.ok(
      Math.abs(heights.at(-1)! - (bottom + 1.5)) < 1e-9 &&
        heights.every((h, i) => i === 0 || h - heights[i - 1]! <= 0.25 + 1e-9),
      heights.join(" "),
    );
  });

  it("steps a smaller ball round a rounder trough, its centre the radius difference off the axis", () => {
    const operation = troughFinishing(
      { part, stock: new InProcessStock(STOCK), tool: ball(2), parameters: cutting() },
      [trough(3)],
    ).operation;
    assert.ok(operation);
    const centres = cuts(operation.moves)
      .filter((p) => p[2] < 0)
      .map((p): Vec3 => [p[0], p[1], p[2] + 1 - 0.05]);
    const round = centres.filter((c) => c[2] <= -10 + 1e-9);
    assert.ok(
      round.length > 10 && round.every((c) => Math.abs(Math.hypot(c[1] - 20, c[2] + 10) - 2) < 1e-9),
      "every pass 2 mm off the axis",
    );
  });

  it("refuses a flat end mill, and a ball rounder than every trough", () => {
    assert.equal(
      troughFinishing({ part, stock: new InProcessStock(STOCK), tool: endMill(2), parameters: cutting() }, [trough(1)])
        .operation,
      null,
    );
    assert.equal(
      troughFinishing({ part, stock: new InProcessStock(STOCK), tool: ball(4), parameters: cutting() }, [trough(1)])
        .operation,
      null,
    );
  });
});
