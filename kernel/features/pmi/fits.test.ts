/** ISO 286 classes against the published table values (ISO 286-2), within the formulas' rounding. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { fitLimits } from "./fits.ts";

const MICRON = 0.001;

describe("fitLimits", () => {
  const table: [string, number, number, number][] = [
    // class, nominal mm, lower and upper deviation in micrometres (ISO 286-2)
    ["H7", 10, 0, 15],
    ["H7", 25, 0, 21],
    ["H8", 50, 0, 39],
    ["G6", 3.5, 4, 12],
    ["g6", 20, -20, -7],
    ["h6", 40, -16, 0],
    ["f7", 12, -34, -16],
    ["JS7", 30, -10.5, 10.5],
  ];
  for (const [designation, nominal, lower, upper] of table) {
    it(`${designation} at ${nominal} mm is ${lower}/${upper} µm within 2 µm`, () => {
      const limits = fitLimits(designation, nominal);
      assert.ok(limits, designation);
      assert.ok(Math.abs(limits.lower - lower * MICRON) <= 2 * MICRON, `lower ${limits.lower}`);
      assert.ok(Math.abs(limits.upper - upper * MICRON) <= 2 * MICRON, `upper ${limits.upper}`);
    });
  }

  it("says nothing of classes and sizes the formulas do not cover", () => {
    assert.equal(fitLimits("P7", 10), null);
    assert.equal(fitLimits("H7", 600), null);
    assert.equal(fitLimits("H3", 10), null);
    assert.equal(fitLimits("M6x1", 6), null);
  });
});
