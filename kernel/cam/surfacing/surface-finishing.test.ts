/**
 * 3D finishing of a dome standing on a plate: a 6 mm ball over a sphere's cap (steep round its
 * foot, shallow on top), simulated on the stock: no gouge, the scallop measured within the
 * target plus 0.005 mm, no pass over the plate.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createSlicer } from "../milling/slicer.ts";
import { InProcessStock } from "../milling/stock.ts";
import { boxesSoup, cutting, endMill } from "../milling/test-support.ts";
import { mergeSoups } from "../planner/hole-plugs.ts";
import { facingOut } from "../planner/read-part.ts";
import { simulateSetup } from "../simulation/simulate.ts";
import type { Box3 } from "../types.ts";
import { ballStepoverOnSlope } from "./scallop.ts";
import { SPLIT_DEG, surfaceFinishing } from "./surface-finishing.ts";
import { sphereSoup } from "./test-support.ts";

// a sphere of 15 mm round (0, 0, -5): its cap stands 10 mm above the plate, 70.5° steep at its foot
const dome = facingOut(sphereSoup({ centre: [0, 0, -5], radius: 15, rings: 60, segments: 120 }).soup);
const plate = facingOut(boxesSoup([{ min: [-25, -25, -15], max: [25, 25, 0] }]));
const part = mergeSoups(dome, plate);
const triangleFaces = new Uint32Array(part.indices.length / 3)
  .fill(0, dome.indices.length / 3)
  .fill(1, 0, dome.indices.length / 3);
const stock: Box3 = { min: [-25, -25, -15], max: [25, 25, 12] };
const ball = endMill(6, { kind: "ball", corner_radius: 3, tool_type: "BallEndMill" });
const FOOT = Math.sqrt(15 ** 2 - 5 ** 2);

function finish(scallop_mm: number) {
  return surfaceFinishing(
    { part: createSlicer(part), stock: new InProcessStock(stock), tool: ball, parameters: cutting() },
    { soup: part, part, triangleFaces, faces: [1], scallop_mm },
  );
}

describe("surface finishing", () => {
  const outcome = finish(0.01);

  it("finishes the dome without gouging it, the scallop measured within the target plus 0.005 mm", () => {
    const operation = outcome.operation;
    assert.ok(operation, outcome.reason ?? "");
    assert.equal(operation.kind, "surface_finishing");
    const run = simulateSetup({ stock, part, operations: [operation], maxDetails: 3 });
    assert.equal(run.total.gouges, 0, JSON.stringify(run.violations));
    assert.ok(operation.scallop_mm !== undefined, "the scallop was measured");
    assert.ok(operation.scallop_mm > 0 && operation.scallop_mm <= 0.015, `scallop ${operation.scallop_mm} mm`);
    console.log(`dome: ${operation.moves.length} moves, scallop ${operation.scallop_mm} mm`);
  });

  it("cuts only where the ball touches the dome, never out over the plate", () => {
    const operation = outcome.operation;
    assert.ok(operation);
    const cuts = operation.moves.flatMap((m) => (m.kind === "linear" && m.to[2] < 11 ? [m.to] : []));
    assert.ok(cuts.length > 100);
    const far = cuts.filter((p) => Math.hypot(p[0], p[1]) > FOOT + 3 + 0.1 && p[2] < 1);
    assert.equal(far.length, 0, JSON.stringify(far.slice(0, 3)));
  });

  it("steps further apart for a larger scallop", () => {
    const coarse = finish(0.05).operation;
    assert.ok(coarse && outcome.operation);
    assert.ok(coarse.moves.length < outcome.operation.moves.length * 0.7, `${coarse.moves.length} moves`);
  });

  it("tells the passes' spacing as its stepover and stepdown, not the cutting data's", () => {
    const parameters = outcome.operation?.parameters;
    const stepover = ballStepoverOnSlope(3, 0.01, SPLIT_DEG);
    assert.ok(
      Math.abs((parameters?.stepover_mm ?? 0) - stepover) < 1e-3,
      `stepover ${parameters?.stepover_mm}, ${stepover}`,
    );
    const stepdown = stepover * Math.tan((SPLIT_DEG * Math.PI) / 180);
    assert.ok(Math.abs((parameters?.stepdown_mm ?? 0) - stepdown) < 1e-3, `stepdown ${parameters?.stepdown_mm}`);
  });
});
