import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { BallCutter, BullCutter, FlatCutter } from "./cutters.ts";
import { DropCutter } from "./drop-cutter.ts";
import { ballStepover, ballStepoverOnSlope, bullStepover, scallopHeight, stepoverForScallop } from "./scallop.ts";
import { slopeSoup } from "./test-support.ts";

const near = (actual: number, expected: number, tolerance: number, what: string) =>
  assert.ok(Math.abs(actual - expected) <= tolerance, `${what}: ${actual} against ${expected}`);

describe("stepover from a scallop height", () => {
  it("is a ball's chord at the scallop's depth on a level plane", () => {
    near(ballStepover(3, 0.01), 2 * Math.sqrt(0.01 * 5.99), 1e-12, "6 mm ball, 0.01 mm");
    near(ballStepover(5, 5), 10, 1e-12, "the whole ball at a scallop of its radius");
    assert.throws(() => ballStepover(3, -0.1), RangeError);
  });

  it("shrinks on a slope by its cosine between passes along the contours", () => {
    near(ballStepoverOnSlope(3, 0.01, 60), ballStepover(3, 0.01) / 2, 1e-12, "60 degrees");
  });

  it("adds a bull-nose's flat disc to its corner's chord on a level plane", () => {
    near(bullStepover(5, 1, 0.01), 8 + 2 * Math.sqrt(0.01 * 1.99), 1e-12, "10 mm, r 1");
  });

  it("found numerically agrees with every closed form", () => {
    for (const slopeDeg of [0, 15, 30, 45, 60]) {
      near(
        stepoverForScallop(new BallCutter(3), { scallop: 0.01, slopeDeg }),
        ballStepoverOnSlope(3, 0.01, slopeDeg),
        1e-5,
        `ball at ${slopeDeg}`,
      );
    }
    near(
      stepoverForScallop(new BullCutter(5, 1), { scallop: 0.01, slopeDeg: 0 }),
      bullStepover(5, 1, 0.01),
      1e-4,
      "bull, level",
    );
    // on a slope steeper than the corner's chord subtends, the corner alone leaves the ridge: a ball of the corner
    near(
      stepoverForScallop(new BullCutter(5, 1), { scallop: 0.01, slopeDeg: 30 }),
      ballStepoverOnSlope(1, 0.01, 30),
      1e-5,
      "bull, 30 degrees",
    );
  });

  it("of a bull-nose falls from the flat disc's width to the corner's as the slope rises", () => {
    const bull = new BullCutter(5, 1);
    const steps = [0, 1, 2, 4, 8].map((slopeDeg) => stepoverForScallop(bull, { scallop: 0.01, slopeDeg }));
    for (let k = 1; k < steps.length; k += 1)
      assert.ok((steps[k] as number) < (steps[k - 1] as number), `${steps.join(", ")} fall`);
    assert.ok((steps[1] as number) < bullStepover(5, 1, 0.01) && (steps[1] as number) > ballStepover(1, 0.01));
  });

  it("leaves the scallop that two drop-cutter passes on the slope leave", () => {
    // two passes along y over a 20 degree slope, the stepover in x for a 0.01 mm scallop; between
    // them the higher of the two tips' surfaces, measured square to the plane, is the ridge
    const degrees = 20;
    const a = (degrees * Math.PI) / 180;
    const slope = slopeSoup({ degrees, x0: -40, x1: 40, y0: -40, y1: 40 });
    for (const cutter of [new BallCutter(3), new BullCutter(5, 1), new FlatCutter(5)]) {
      const scallop = cutter.shape === "flat" ? 0.05 : 0.01;
      const step = stepoverForScallop(cutter, { scallop, slopeDeg: degrees });
      const drop = new DropCutter(slope.soup, cutter);
      const passes = [0, step].map((x) => ({ x, z: drop.dropAt(x, 0) }));
      // each pass's section's height above the plane, measured square to it
      const above = (pass: { x: number; z: number }, x: number) => {
        const rho = Math.abs(x - pass.x);
        return rho > cutter.radius ? Infinity : (pass.z + cutter.height(rho) + x * Math.tan(a)) * Math.cos(a);
      };
      const samples = (from: number, to: number) =>
        Array.from({ length: 4001 }, (_, k) => from + ((to - from) * k) / 4000);
      // where each pass touches, then the highest the lower of the two stands between those
      const touches = passes.map((pass) =>
        samples(pass.x - cutter.radius, pass.x + cutter.radius).reduce((best, x) =>
          above(pass, x) < above(pass, best) ? x : best,
        ),
      ) as [number, number];
      const ridge = Math.max(...samples(...touches).map((x) => Math.min(...passes.map((pass) => above(pass, x)))));
      near(ridge, scallop, 1e-4, `${cutter.shape}: the ridge left between passes ${step} mm apart`);
      near(scallopHeight(cutter, { stepover: step / Math.cos(a), slopeDeg: degrees }), scallop, 1e-6, cutter.shape);
    }
  });
});
