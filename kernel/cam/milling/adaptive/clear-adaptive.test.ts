import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { simulateSetup } from "../../simulation/simulate.ts";
import type { Box3, Operation } from "../../types.ts";
import type { MillingOutcome } from "../operation.ts";
import { roughing } from "../roughing.ts";
import { createSlicer } from "../slicer.ts";
import { InProcessStock } from "../stock.ts";
import { boxesSoup, cutting, endMill, HeightMap, POCKETED_BLOCK, STOCK } from "../test-support.ts";
import { engagementAlong } from "./test-support.ts";

const RADIUS = 4;
const TARGET = 0.8;
const ALLOWANCE = { allowance_xy_mm: 0.3, allowance_z_mm: 0.2 };
const OFFSET = cutting({ ...ALLOWANCE, stepdown_mm: 8, stepover_mm: 3.2 });
const ADAPTIVE = cutting({ ...ALLOWANCE, stepdown_mm: 16, stepover_mm: TARGET, feed_mm_min: 2000 });

/** A through slot 14 mm wide (1.75 D) along x, 8 mm deep, in a block like the pocketed one. */
const SLOTTED_BLOCK: Box3[] = [
  { min: [5, 5, -22], max: [65, 45, -10] },
  { min: [5, 5, -10], max: [65, 18, -2] },
  { min: [5, 32, -10], max: [65, 45, -2] },
];
/** An open step along the front, 12 mm wide and 10 mm down from the top. */
const STEP_BLOCK: Box3[] = [
  { min: [5, 5, -22], max: [65, 45, -12] },
  { min: [5, 17, -12], max: [65, 45, -2] },
];

function rough(boxes: Box3[], adaptive: boolean): Operation {
  const outcome: MillingOutcome = roughing({
    part: createSlicer(boxesSoup(boxes)),
    stock: new InProcessStock(STOCK),
    tool: endMill(2 * RADIUS),
    parameters: adaptive ? ADAPTIVE : OFFSET,
    ...(adaptive ? { adaptive: { engagement_mm: TARGET, base_feed_mm_min: OFFSET.feed_mm_min } } : {}),
  });
  assert.ok(outcome.operation, `no operation: ${outcome.reason}`);
  return outcome.operation;
}

for (const [name, boxes] of [
  ["a closed pocket", POCKETED_BLOCK],
  ["a slot", SLOTTED_BLOCK],
  ["an open step", STEP_BLOCK],
] as const) {
  describe(`adaptive roughing of ${name}`, () => {
    const adaptive = rough(boxes, true);

    it("is named for its clearing, and cuts at the adaptive feed", () => {
      assert.match(adaptive.name, /^Adaptive roughing with /);
      assert.ok(adaptive.moves.some((m) => m.kind === "linear" && m.feed === ADAPTIVE.feed_mm_min));
    });

    it("leaves no gouge, no rapid into material, no straight plunge into material (height map)", () => {
      const report = new HeightMap(STOCK, boxes as Box3[], 0.2).run(adaptive.moves, RADIUS, adaptive.clearance_z);
      assert.equal(report.gouges, 0, `worst gouge ${report.worstGouge}`);
      assert.equal(report.rapidsIntoMaterial, 0, `moves ${report.offending}`);
      assert.equal(report.verticalFeedsIntoMaterial, 0, `moves ${report.offending}`);
    });

    it("passes the stock simulation: no gouge, no rapid through material, no holder collision", () => {
      const result = simulateSetup({
        stock: STOCK,
        part: boxesSoup(boxes as Box3[]),
        operations: [adaptive],
        cellSize: 0.2,
      });
      assert.equal(result.total.gouges, 0, JSON.stringify(result.violations.slice(0, 3)));
      assert.equal(result.total.rapids_through_material, 0, JSON.stringify(result.violations.slice(0, 3)));
      assert.equal(result.total.holder_collisions, 0, JSON.stringify(result.violations.slice(0, 3)));
    });

    it("leaves no more material than offset roughing (within 1 %)", () => {
      const offset = rough(boxes, false);
      const left = (operation: Operation): number => {
        const map = new HeightMap(STOCK, boxes as Box3[], 0.2);
        map.run(operation.moves, RADIUS, operation.clearance_z);
        return map.materialAbovePart(-22);
      };
      const ours = left(adaptive);
      const theirs = left(offset);
      assert.ok(ours <= theirs * 1.01 + 1, `adaptive left ${ours} mm³, offset ${theirs} mm³`);
    });

    it("holds the engagement, measured on an independent raster, near the target along its adaptive paths", () => {
      const report = engagementAlong(adaptive.moves, {
        stock: STOCK,
        radius: RADIUS,
        clearance: adaptive.clearance_z,
        cell: 0.08,
      });
      // the adaptive paths cut at the chip-thinned feed; the entry and the passes along the walls at the base one
      const paths = report.samples.filter((_, i) => report.feeds[i] === ADAPTIVE.feed_mm_min).sort((a, b) => a - b);
      assert.ok(paths.length > 1000, `${paths.length} samples`);
      const p50 = paths[Math.floor(0.5 * paths.length)] as number;
      const p99 = paths[Math.floor(0.99 * paths.length)] as number;
      assert.ok(p50 > 0.8 * TARGET && p50 <= TARGET * 1.05, `median ${p50}`);
      assert.ok(p99 <= 1.2 * TARGET, `p99 ${p99}`);
      console.log(
        `${name}: engagement along the adaptive paths median ${p50.toFixed(2)}, p99 ${p99.toFixed(2)}, max ${(paths.at(-1) as number).toFixed(2)}; everything ${report.samples.reduce((a, b) => Math.max(a, b), 0).toFixed(2)} (target ${TARGET})`,
      );
    });
  });
}
