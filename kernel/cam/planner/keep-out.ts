/**
 * Keeping the tools out of what holds the stock (issue 35): a setup's keep-out is a list of boxes
 * in its frame, the vise's jaws and parallels (or a plate's clamps) already grown by the
 * clearance the generators keep, WORKHOLDING_KEEP_OUT_MM. Empty, nothing of the planning changes.
 *
 * - Milling sees the boxes as solids of the part (milling-operations.ts: boxSoup, merged into the
 *   slicer's soup after the part's own triangles): the tool centre, its neck, shank and holder and
 *   the links between cuts keep out of them through the part's own shadows. The slicer reads the
 *   part's extent and floors from the part's triangles only (slicer.ts: partTriangles), so the
 *   levels go no lower than the part and no box top is a floor to land on.
 * - What milling cannot reach beside a box is the clamped band another setup takes (inBand):
 *   reported once per setup, not per level.
 * - A hole whose tool would come into a box is not made in the setup (holeBlocked).
 */
import { distanceToBoxXY } from "../../math/box3.ts";
import type { Box3, TriangleSoup, Vec2 } from "../types.ts";

/**
 * What the generators keep from a jaw, a parallel or a clamp. The simulation demands 1 mm; the
 * extra 0.5 mm covers its cell sampling and bookkeeping slack.
 */
export const WORKHOLDING_KEEP_OUT_MM = 1.5;

/** `box` grown by `mm` on every side. */
export function grownBox(box: Box3, mm: number): Box3 {
  return {
    min: [box.min[0] - mm, box.min[1] - mm, box.min[2] - mm],
    max: [box.max[0] + mm, box.max[1] + mm, box.max[2] + mm],
  };
}

/**
 * Corner k of a box is min or max along x (bit 0), y (bit 1) and z (bit 2). The twelve triangles,
 * two per side, counter-clockwise seen from outside: the slicer's shadows are cast by the triangles
 * facing up (triangles.ts: facingUp), so the top must face up.
 */
const BOX_TRIANGLES = [
  [0, 2, 3, 0, 3, 1], // -Z
  [4, 5, 7, 4, 7, 6], // +Z
  [0, 1, 5, 0, 5, 4], // -Y
  [2, 6, 7, 2, 7, 3], // +Y
  [0, 4, 6, 0, 6, 2], // -X
  [1, 3, 7, 1, 7, 5], // +X
].flat();

/** The boxes as one soup: 8 corners and 12 triangles each, facing out. */
export function boxSoup(boxes: readonly Box3[]): TriangleSoup {
  const positions = new Float32Array(boxes.length * 8 * 3);
  const indices = new Uint32Array(boxes.length * BOX_TRIANGLES.length);
  boxes.forEach((box, b) => {
    for (let k = 0; k < 8; k += 1)
      for (let axis = 0; axis < 3; axis += 1)
        positions[3 * (8 * b + k) + axis] = (((k >> axis) & 1) === 0 ? box.min[axis] : box.max[axis]) as number;
    BOX_TRIANGLES.forEach((corner, i) => {
      indices[BOX_TRIANGLES.length * b + i] = 8 * b + corner;
    });
  });
  return { positions, indices };
}

/**
 * Whether a region a generator skipped at height `z` lies in the clamped band: its point within
 * the tool's radius plus WORKHOLDING_KEEP_OUT_MM of a box's XY, below that box's top plus the same.
 * The tool centre stays the radius off the (grown) box, so what it leaves beside one lies there.
 */
export function inBand(at: Vec2, z: number, radius: number, keepOut: readonly Box3[]): boolean {
  return keepOut.some(
    (box) =>
      distanceToBoxXY(box, at[0], at[1]) <= radius + WORKHOLDING_KEEP_OUT_MM &&
      z < box.max[2] + WORKHOLDING_KEEP_OUT_MM,
  );
}

/** A hole-making tool where it cuts: its axis, radius and lowest tip height (setup frame). */
export interface ToolDown {
  at: Vec2;
  radius: number;
  tip_z: number;
}

/**
 * The first box the tool would come into (null: none). The tool is a cylinder from its tip up
 * through the R plane to the spindle: it meets a box whose XY is within its radius (the distance
 * to the rectangle, not its bounding square) when its tip goes below the box's top.
 */
export function holeBlocked(tool: ToolDown, keepOut: readonly Box3[]): Box3 | null {
  return (
    keepOut.find((box) => distanceToBoxXY(box, tool.at[0], tool.at[1]) < tool.radius && tool.tip_z < box.max[2]) ?? null
  );
}
