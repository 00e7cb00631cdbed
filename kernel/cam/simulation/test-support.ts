/** Parts, tools and operations for the simulation's tests, built in code. Not used in production. */
import assert from "node:assert/strict";
import { cubeCorners } from "../../geometry/test-support.ts";
import type { Box3, Cutter, CutterKind, Move, Operation, TriangleSoup } from "../types.ts";

/** The union of boxes as one soup (overlapping boxes are fine: a height field keeps the highest). */
export function boxesSoup(boxes: Box3[]): TriangleSoup {
  const unit = cubeCorners(1);
  const positions = new Float32Array(boxes.length * unit.length);
  boxes.forEach((box, b) => {
    for (let k = 0; k < unit.length; k++) {
      const axis = k % 3;
      positions[b * unit.length + k] =
        (box.min[axis] as number) + (unit[k] as number) * ((box.max[axis] as number) - (box.min[axis] as number));
    }
  });
  return { positions, indices: Uint32Array.from({ length: positions.length / 3 }, (_, i) => i) };
}

export const NO_PART: TriangleSoup = { positions: new Float32Array(0), indices: new Uint32Array(0) };

export function cutter(kind: CutterKind, diameter: number, overrides: Partial<Cutter> = {}): Cutter {
  return {
    kind,
    assembly_uuid: `test-${kind}-${diameter}`,
    name: `${diameter} mm ${kind}`,
    tool_type: kind === "drill" ? "Drill" : "CentreCuttingEndMill",
    diameter,
    corner_radius: kind === "ball" ? diameter / 2 : 0,
    tip_angle_deg: kind === "drill" ? 118 : null,
    tip_diameter: 0,
    chamfer_angle_deg: kind === "chamfer" ? 45 : null,
    pitch_mm: null,
    flute_length: 3 * diameter,
    max_stepdown: diameter,
    neck_diameter: 0,
    neck_length: 0,
    shank_diameter: diameter,
    stick_out: 5 * diameter,
    flutes: 3,
    centre_cutting: true,
    tool_material: "carbide",
    holder: [{ length: 40, lower_diameter: 30, upper_diameter: 40 }],
    ...overrides,
  };
}

let operations = 0;

export function operation(tool: Cutter, moves: Move[], clearance_z = 5): Operation {
  operations++;
  return {
    id: `op${operations}`,
    kind: "roughing",
    name: `test operation ${operations}`,
    features: [],
    tool,
    parameters: {
      spindle_rpm: 10000,
      feed_mm_min: 1000,
      plunge_feed_mm_min: 300,
      stepdown_mm: 4,
      stepover_mm: 5,
      allowance_xy_mm: 0,
      allowance_z_mm: 0,
      coolant: "flood",
    },
    clearance_z,
    moves,
  };
}

export const rapid = (x: number, y: number, z: number): Move => ({ kind: "rapid", to: [x, y, z] });
export const feed = (x: number, y: number, z: number): Move => ({ kind: "linear", to: [x, y, z], feed: 1000 });

/** Back and forth along x between x0 and x1 at each y, at height z. */
export function zigzag(x0: number, x1: number, ys: number[], z: number): Move[] {
  return ys.flatMap((y, n) => (n % 2 === 0 ? [feed(x0, y, z), feed(x1, y, z)] : [feed(x1, y, z), feed(x0, y, z)]));
}

export function near(actual: number, expected: number, tolerance: number, what: string): void {
  assert.ok(Math.abs(actual - expected) <= tolerance, `${what}: ${actual} is not within ${tolerance} of ${expected}`);
}
