/**
 * Passes spaced by the slope of what they finish: a 20° plane falling along the passes (X) sees
 * them level, one falling across them (Y) at 20°; either gets fewer passes than the 45° worst
 * case would space, and the scallop measured stays within the target plus 0.005 mm.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createSlicer } from "../milling/slicer.ts";
import { InProcessStock } from "../milling/stock.ts";
import { cutting, endMill } from "../milling/test-support.ts";
import type { Box3, Move, TriangleSoup, Vec3 } from "../types.ts";
import { ballStepoverOnSlope } from "./scallop.ts";
import { SPLIT_DEG, surfaceFinishing } from "./surface-finishing.ts";
import { slopeSoup } from "./test-support.ts";

const SCALLOP_MM = 0.01;
const SLOPE_DEG = 20;
const ball = endMill(6, { kind: "ball", corner_radius: 3, tool_type: "BallEndMill" });
const SIDE = 20;

/** The plane turned so that it falls along Y: x and y swapped (and the winding turned back up). */
function fallingAlongY(soup: TriangleSoup): TriangleSoup {
  const positions = soup.positions.slice();
  for (let i = 0; i < positions.length; i += 3) {
    positions[i] = soup.positions[i + 1] as number;
    positions[i + 1] = soup.positions[i] as number;
  }
  const indices = soup.indices.slice();
  for (let t = 0; t < indices.length; t += 3) {
    indices[t + 1] = soup.indices[t + 2] as number;
    indices[t + 2] = soup.indices[t + 1] as number;
  }
  return { positions, indices };
}

function finish(part: TriangleSoup) {
  const stock: Box3 = { min: [0, 0, -10], max: [SIDE, SIDE, 1] };
  return surfaceFinishing(
    { part: createSlicer(part), stock: new InProcessStock(stock), tool: ball, parameters: cutting() },
    { soup: part, part, triangleFaces: new Uint32Array(2), faces: [0], scallop_mm: SCALLOP_MM },
  );
}

/** the passes along X: the distinct y of the moves along X (the links between them run in y) */
function passes(moves: readonly Move[]): number {
  const ys = new Set<string>();
  let from: Vec3 | null = null;
  for (const move of moves) {
    if (move.kind !== "linear" && move.kind !== "rapid") continue;
    if (from !== null && from[1] === move.to[1] && from[0] !== move.to[0]) ys.add(move.to[1].toFixed(4));
    from = move.to;
  }
  return ys.size;
}

describe("passes spaced by the slope", () => {
  const plane = slopeSoup({ degrees: SLOPE_DEG, x0: 0, x1: SIDE, y0: 0, y1: SIDE }).soup;
  const cases = [
    { name: "falling along the passes", part: plane, across: 0 },
    { name: "falling across the passes", part: fallingAlongY(plane), across: SLOPE_DEG },
  ];
  for (const { name, part, across } of cases) {
    it(`steps over what the scallop allows at its slope across them, ${name}`, () => {
      const operation = finish(part).operation;
      assert.ok(operation);
      const stepover = ballStepoverOnSlope(3, SCALLOP_MM, across);
      assert.ok(
        Math.abs(operation.parameters.stepover_mm - stepover) < 2e-3,
        `stepover ${operation.parameters.stepover_mm}, ${stepover}`,
      );
      const worst = ballStepoverOnSlope(3, SCALLOP_MM, SPLIT_DEG);
      // the passes span the plane grown by the radius on either side
      const atWorst = Math.ceil((SIDE + 6) / worst) + 1;
      assert.ok(passes(operation.moves) < atWorst, `${passes(operation.moves)} passes, ${atWorst} at 45°`);
      assert.ok(operation.scallop_mm !== undefined, "the scallop was measured");
      assert.ok(operation.scallop_mm <= SCALLOP_MM + 0.005, `scallop ${operation.scallop_mm} mm`);
      console.log(`${name}: ${passes(operation.moves)} passes (${atWorst} at 45°), scallop ${operation.scallop_mm} mm`);
    });
  }
});
