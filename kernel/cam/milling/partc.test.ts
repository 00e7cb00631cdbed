import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import { FIXTURE_PARTS } from "../../geometry/test-support.ts";
import { readStl } from "../../geometry/stl.ts";
import { boxToFrame, setupFrame, soupToFrame } from "../frames.ts";
import { simulateSetup } from "../simulation/simulate.ts";
import type { Box3, Operation } from "../types.ts";
import { wallFinishing } from "./finishing.ts";
import { signedDistance } from "./polygons.ts";
import { roughing } from "./roughing.ts";
import { createSlicer } from "./slicer.ts";
import { InProcessStock } from "./stock.ts";
import { cutting, endMill, samplePath } from "./test-support.ts";

describe("partC from +Z", () => {
  const workpiece = readStl(new Uint8Array(fs.readFileSync(path.join(FIXTURE_PARTS, "partC.stl"))), "ascii");
  const { min, max } = workpiece.bbox;
  // 3 mm of stock round the sides, 2 mm over the top and under the bottom
  const stockBox: Box3 = { min: [min[0] - 3, min[1] - 3, min[2] - 2], max: [max[0] + 3, max[1] + 3, max[2] + 2] };
  const frame = setupFrame([0, 0, 1], stockBox);
  const soup = soupToFrame(frame, { positions: workpiece.mesh.positions, indices: workpiece.mesh.indices });
  const stock = boxToFrame(frame, stockBox);

  it("is roughed and wall finished with every centre clear of the part, and the simulation finds nothing wrong", (t) => {
    const started = performance.now();
    const part = createSlicer(soup);
    const rough = roughing({
      part,
      stock: new InProcessStock(stock),
      tool: endMill(10),
      parameters: cutting({ stepdown_mm: 5, stepover_mm: 4, allowance_xy_mm: 0.3, allowance_z_mm: 0.2 }),
    });
    const roughed = performance.now();
    assert.ok(rough.operation, rough.reason ?? "");
    const walls = wallFinishing({
      part,
      stock: new InProcessStock(stock).withCleared(rough.cleared),
      tool: endMill(6),
      parameters: cutting({ stepdown_mm: 10, stepover_mm: 0.5 }),
    });
    const finished = performance.now();
    assert.ok(walls.operation, walls.reason ?? "");
    t.diagnostic(
      `partC roughing ${(roughed - started).toFixed(0)} ms (${rough.operation.moves.length} moves), wall finishing ${(finished - roughed).toFixed(0)} ms (${walls.operation.moves.length} moves)`,
    );

    for (const [operation, clearance] of [
      [rough.operation, 5 + 0.3],
      [walls.operation, 3],
    ] as [Operation, number][]) {
      let closest = Infinity;
      for (const { point, kind } of samplePath(operation.moves, operation.clearance_z, 0.5)) {
        if (kind === "rapid") continue;
        closest = Math.min(closest, signedDistance(part.shadow(point[2]), [point[0], point[1]]));
      }
      assert.ok(closest >= clearance - 1e-3, `${operation.kind} comes ${closest} from the part`);
    }

    const simulated = simulateSetup({
      stock,
      part: soup,
      operations: [rough.operation, walls.operation],
      cellSize: 0.2,
    });
    t.diagnostic(
      `simulation ${(performance.now() - finished).toFixed(0)} ms, ${simulated.total.material_left_pct.toFixed(1)} % of the removable stock left`,
    );
    assert.deepEqual(
      [simulated.total.gouges, simulated.total.rapids_through_material, simulated.total.holder_collisions],
      [0, 0, 0],
      JSON.stringify(simulated.violations.slice(0, 3)),
    );
    assert.ok(simulated.total.material_left_pct < 15, `${simulated.total.material_left_pct} % left`);
  });
});
