/**
 * The scallop measured where a finished face is narrower than the tool: fillets between a floor
 * and a wall, 3 and 5 mm wide, finished with a 6 mm ball. Every cell of them lies within the
 * ball's radius of the floor or the wall; the measure counts what the passes leave above what
 * the ball swept everywhere would leave, so it gives a figure, within the target plus 0.005 mm.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createSlicer } from "../milling/slicer.ts";
import { InProcessStock } from "../milling/stock.ts";
import { cutting, endMill } from "../milling/test-support.ts";
import { simulateSetup } from "../simulation/simulate.ts";
import type { Box3 } from "../types.ts";
import { surfaceFinishing } from "./surface-finishing.ts";
import { filletSoup } from "./test-support.ts";

const SCALLOP_MM = 0.01;
const FILLET = 1;
const stock: Box3 = { min: [-10, -15, -5], max: [10, 15, 16] };
const ball = endMill(6, { kind: "ball", corner_radius: 3, tool_type: "BallEndMill" });

// the ball's own radius (it sits in the fillet) and a wider one (passes across its concave arc)
for (const radius of [3, 5]) {
  describe(`the scallop on a fillet of ${radius} mm, narrower than the tool`, () => {
    const { soup: part, triangleFaces } = filletSoup({
      radius,
      height: 15,
      x0: -10,
      x1: 10,
      floorTo: 15,
      segments: 48,
    });
    const outcome = surfaceFinishing(
      { part: createSlicer(part), stock: new InProcessStock(stock), tool: ball, parameters: cutting() },
      {
        soup: part,
        part,
        triangleFaces,
        faces: [FILLET],
        concaveRadii: new Map([[FILLET, radius]]),
        scallop_mm: SCALLOP_MM,
      },
    );

    it("is measured, within the target plus 0.005 mm", () => {
      const operation = outcome.operation;
      assert.ok(operation, outcome.reason ?? "");
      assert.ok(operation.scallop_mm !== undefined, "the scallop was measured");
      assert.ok(operation.scallop_mm <= SCALLOP_MM + 0.005, `scallop ${operation.scallop_mm} mm`);
    });

    it("finishes the fillet without gouging the floor or the wall", () => {
      const operation = outcome.operation;
      assert.ok(operation);
      const run = simulateSetup({ stock, part, operations: [operation], maxDetails: 3 });
      assert.equal(run.total.gouges, 0, JSON.stringify(run.violations));
    });
  });
}
