import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { area, difference } from "../polygons.ts";
import { roughing } from "../roughing.ts";
import { zLevels } from "../levels.ts";
import { createSlicer } from "../slicer.ts";
import { InProcessStock } from "../stock.ts";
import type { MillingOutcome } from "../operation.ts";
import { cutting, endMill, PART_C_STOCK, partCFrom } from "../test-support.ts";
import { isFine, levelZ, withFineLevels } from "./fine-levels.ts";
import { adaptiveCut } from "./parameters.ts";

describe("fine stepdown between adaptive's deep levels", () => {
  it("follows each deep level by the fine ones between it and the level above, highest first", () => {
    // 20 mm of stock over a floor at -12: deep levels at 16 mm, fine ones at 5 mm
    const spec = { top: 0, bottom: -20, floors: [-12], stepdown: 5, allowance_z: 0.2 };
    const levels = withFineLevels([-11.8, -20], spec);
    assert.deepEqual(
      levels.map((level) => [Math.round(levelZ(level) * 1000) / 1000, isFine(level)]),
      [
        [-11.8, false],
        [-3.933, true],
        [-7.867, true],
        [-20, false],
        [-15.9, true],
      ],
    );
  });

  describe("on partC from +Z, a 10 mm end mill at 22 mm levels against the table's 10 mm", () => {
    const part = createSlicer(partCFrom([0, 0, 1]));
    const stock = new InProcessStock(PART_C_STOCK);
    const tool = endMill(10, { max_stepdown: 22, flute_length: 22 });
    const table = cutting({
      stepdown_mm: 10,
      stepover_mm: 4,
      feed_mm_min: 2000,
      allowance_xy_mm: 0.3,
      allowance_z_mm: 0.2,
    });
    const adaptive = adaptiveCut(tool, table, 5000);
    const { fine_stepdown_mm: _, ...deepOnly } = adaptive.load;
    /** the stock left outside the part, read at 1 mm levels (mm³) */
    const left = (outcome: MillingOutcome): number => {
      assert.ok(outcome.operation, outcome.reason ?? "");
      const after = stock.withCleared(outcome.cleared);
      let above = stock.highest();
      let volume = 0;
      const levels = zLevels({ top: above, bottom: part.bottom_z, floors: part.floors, stepdown: 1 });
      for (const z of levels) {
        volume += area(difference(after.remainingAbove(z), part.shadow(z))) * (above - z);
        above = z;
      }
      return volume;
    };
    const request = { part, stock, tool, parameters: adaptive.parameters };

    it("leaves less on the sloped faces than the deep levels alone, and no more than offset levels", () => {
      const fine = left(roughing({ ...request, adaptive: adaptive.load }));
      const deep = left(roughing({ ...request, adaptive: deepOnly }));
      const offset = left(roughing({ part, stock, tool, parameters: table }));
      assert.ok(fine < 0.95 * deep, `fine ${fine.toFixed(0)} mm³, deep levels alone ${deep.toFixed(0)}`);
      assert.ok(fine <= offset, `fine ${fine.toFixed(0)} mm³, offset ${offset.toFixed(0)}`);
    });
  });
});
