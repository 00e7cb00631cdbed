/** The pencil finishing's ball chosen from the starter range after a 3D finishing ball. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { wallReach } from "../cutter-shape.ts";
import { cutters } from "../tooling/test-library.ts";
import { pencilTool } from "./pencil-step.ts";

const BALLS = cutters(
  "SSR-BM2-0200-L-UC",
  "SSR-BM2-0300-L-UC",
  "SSR-BM2-0400-L-UC",
  "SSR-BM2-0600-L-UC",
  "SSR-BM2-1000-L-UC",
);
const ball = (diameter: number) => BALLS.find((c) => c.diameter === diameter);

describe("pencilTool", () => {
  it("takes the largest ball of at most half the finishing ball's radius that reaches as deep", () => {
    const finishing = ball(10);
    assert.ok(finishing);
    const tool = pencilTool(BALLS, finishing);
    const half = BALLS.filter((c) => c.diameter <= finishing.diameter / 2);
    const reaching = half.filter((c) => wallReach(c) >= wallReach(finishing));
    // none of the short balls reaches as deep as the 10 mm one: the largest of at most 5 mm all the same
    assert.equal(reaching.length, 0);
    assert.equal(tool?.diameter, Math.max(...half.map((c) => c.diameter)));
    assert.equal(pencilTool(BALLS, ball(6) ?? finishing)?.diameter, 3);
  });

  it("has none smaller than the smallest ball", () => {
    const smallest = ball(2);
    assert.ok(smallest);
    assert.equal(pencilTool(BALLS, smallest), null);
  });
});
