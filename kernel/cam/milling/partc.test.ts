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
import { difference, offset, signedDistance } from "./polygons.ts";
import { restRoughing, roughing } from "./roughing.ts";
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

  it("finishes with a 3 mm end mill after the 6 mm one only where the 6 mm left stock, and leaves less", (t) => {
    const part = createSlicer(soup);
    const start = new InProcessStock(stock);
    const rough = roughing({
      part,
      stock: start,
      tool: endMill(10),
      parameters: cutting({ stepdown_mm: 5, stepover_mm: 4, allowance_xy_mm: 0.3, allowance_z_mm: 0.2 }),
    });
    assert.ok(rough.operation, rough.reason ?? "");
    const roughed = start.withCleared(rough.cleared);
    const large = wallFinishing({
      part,
      stock: roughed,
      tool: endMill(6),
      parameters: cutting({ stepdown_mm: 10, stepover_mm: 0.5 }),
    });
    assert.ok(large.operation, large.reason ?? "");
    const finished = roughed.withCleared(large.cleared);
    const feed = 600;
    const small = wallFinishing({
      part,
      stock: finished,
      tool: endMill(3),
      parameters: cutting({ stepdown_mm: 3, stepover_mm: 0.3, feed_mm_min: feed }),
      air_feed_mm_min: 3 * feed,
    });
    assert.ok(small.operation, small.reason ?? "");
    const length = (operation: Operation) =>
      samplePath(operation.moves, operation.clearance_z, 0.5).filter((s) => s.kind !== "rapid").length * 0.5;
    t.diagnostic(`wall passes: 6 mm ${length(large.operation)} mm, 3 mm ${length(small.operation)} mm (sampled)`);

    // what the 3 mm feeds at the cutting feed along a level farther than two radii and a run-in
    // from the stock the 6 mm left on the walls (beyond 0.02 mm): links beside the stock box's
    // faces, where the air feed is not used. Running every wall, as before, it was 868 mm
    let far = 0;
    const left = new Map<number, ReturnType<typeof finished.remainingAbove>>();
    for (const { point, move } of samplePath(small.operation.moves, small.operation.clearance_z, 0.25)) {
      const m = small.operation.moves[move];
      if (m === undefined || m.kind === "drill" || m.kind === "rapid" || m.feed !== feed) continue;
      // along a level beside the walls (descents pass the levels between; links go over the part)
      if (Math.abs(m.to[2] - point[2]) > 1e-9 || point[2] > part.top_z) continue;
      let rest = left.get(point[2]);
      if (rest === undefined) {
        rest = difference(finished.remainingAbove(point[2]), offset(part.shadow(point[2]), 0.02));
        left.set(point[2], rest);
      }
      if (signedDistance(rest, [point[0], point[1]]) > 3 + 0.05) far += 0.25;
    }
    t.diagnostic(`3 mm at the cutting feed away from the stock left: ${far} mm`);
    assert.ok(far < length(large.operation) / 10, `the 3 mm tool feeds ${far} mm away from the stock left`);

    const simulate = (operations: Operation[]) => simulateSetup({ stock, part: soup, operations, cellSize: 0.2 }).total;
    const before = simulate([rough.operation, large.operation]);
    const after = simulate([rough.operation, large.operation, small.operation]);
    t.diagnostic(`material left ${before.material_left_pct.toFixed(2)} % -> ${after.material_left_pct.toFixed(2)} %`);
    assert.deepEqual([after.gouges, after.rapids_through_material, after.holder_collisions], [0, 0, 0]);
    assert.ok(after.material_left_pct < before.material_left_pct);
  });
  it("roughs and rest-roughs with no full-width cut deeper than half the tool's diameter", (t) => {
    // the planner's +Z chain in aluminium: 16 mm, then 10 and 6 mm rest tools (stepover 0.4 D,
    // stepdown 1 D). Offset passes alone cut 0.15, 20.7 and 10.8 % of their length at full
    // width deeper than D/2, where a pass stepped into a narrow place
    const part = createSlicer(soup);
    let left = new InProcessStock(stock);
    const operations: Operation[] = [];
    for (const [d, rest] of [
      [16, false],
      [10, true],
      [6, true],
    ] as const) {
      const request = {
        part,
        stock: left,
        tool: endMill(d),
        parameters: cutting({
          stepdown_mm: d,
          stepover_mm: 0.4 * d,
          allowance_xy_mm: rest ? d / 10 : 0.3,
          allowance_z_mm: 0.2,
        }),
      };
      const outcome = rest ? restRoughing(request) : roughing(request);
      assert.ok(outcome.operation, outcome.reason ?? "");
      operations.push(outcome.operation);
      left = left.withCleared(outcome.cleared);
    }
    const simulated = simulateSetup({ stock, part: soup, operations, cellSize: 0.25 });
    assert.deepEqual(
      [simulated.total.gouges, simulated.total.rapids_through_material, simulated.total.holder_collisions],
      [0, 0, 0],
      JSON.stringify(simulated.violations.slice(0, 3)),
    );
    for (const [k, operation] of simulated.operations.entries()) {
      const engagement = operation.engagement;
      assert.ok(engagement, `operation ${k} measured nothing`);
      t.diagnostic(
        `${operations[k]?.tool.diameter} mm: full width ${engagement.full_width_pct} % of ${engagement.cutting_length_mm} mm, deeper than D/2 ${engagement.full_width_deep_pct} %`,
      );
      assert.equal(
        engagement.full_width_deep_pct,
        0,
        `${operations[k]?.tool.diameter} mm: ${JSON.stringify(engagement)}`,
      );
    }
    assert.ok(
      operations.some((o) => o.moves.some((m) => m.kind === "arc")),
      "no loops in any of them",
    );
  });
});
