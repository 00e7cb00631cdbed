/**
 * The workholding as solids of the stock simulation (issue 35): a setup's jaws, parallels and
 * clamps, boxes in the setup's frame, as a static height field on a grid of their own, and an
 * operation's moves swept over it. A move whose flutes, neck, shank or holder come within the
 * clearance of a box, rapid or feed, collides with the workholding.
 *
 * The stock's grid is not widened to hold the jaws: they stand outside the stock's footprint,
 * and the stock's field, the carried stock and the material left all assume that grid.
 */
import { distanceToBoxXY } from "../../math/box3.ts";
import type { Box3, Operation, Vec3 } from "../types.ts";
import { DEFAULT_TOLERANCE_MM, FixtureCheck, type Worst } from "./checks.ts";
import { cutterProfile, type BodyName, type CutterProfile, type Envelope } from "./cutter-profile.ts";
import { cellCentre, centresWithin, stockGrid, type Grid } from "./height-field.ts";
import { chordErrorOn, motionBox, motionLowZ, motionsOf, operationStart, sweepMotion, type Motion } from "./motions.ts";

/** Cells of the fixture field (mm): coarser than the stock's, since the boxes are plain and the clearance 1 mm. */
export const FIXTURE_CELL_MM = 0.25;

/**
 * How near a tool's solid may come to a jaw, parallel or clamp in the verification: the issue's
 * "at least 1 mm away". The generators keep more (planner/keep-out.ts, 1.5 mm) so this holds.
 */
export const FIXTURE_CLEARANCE_MM = 1;

/** A jaw, parallel or clamp as the simulation takes it: its raw box in the setup's frame, and what to call it. */
export interface FixtureBox {
  box: Box3;
  /** "fixed jaw", "moving jaw", "parallel 1", "fixture plate", "clamp 2": what a dropped operation's message names */
  name: string;
}

/**
 * A setup's workholding as named boxes, in the order its summary lists them: the jaws (fixed,
 * then moving), the supports (a vise's parallels, or the fixture plate), then the clamps. The
 * names travel with the boxes to the simulation thread, so a collision there is reported by name.
 */
export function fixtureBoxes(workholding: {
  type?: "vise" | "fixture_plate" | "machine_table";
  jaws: readonly Box3[];
  supports: readonly Box3[];
  clamps: readonly Box3[];
}): FixtureBox[] {
  const jawNames = ["fixed jaw", "moving jaw"];
  return [
    ...workholding.jaws.map((box, n) => ({ box, name: jawNames[n] ?? `jaw ${n + 1}` })),
    ...workholding.supports.map((box, n) => ({
      box,
      name:
        workholding.type === "fixture_plate"
          ? "fixture plate"
          : workholding.type === "machine_table"
            ? "machine table"
            : `parallel ${n + 1}`,
    })),
    ...workholding.clamps.map((box, n) => ({ box, name: `clamp ${n + 1}` })),
  ];
}

export interface FixtureField extends Grid {
  /** row-major (j * nx + i): the highest box top plus the clearance near the cell's centre; -Infinity where none is */
  heights: Float32Array;
  /** per row, the highest of its heights: a row swept above it is skipped whole */
  rowTops: Float32Array;
  /** the highest of all heights: a body whose lowest point is above it touches no fixture */
  top: number;
  boxes: Box3[];
  clearance: number;
  /** how far from a box's XY a cell's centre is still near it: the clearance plus half a cell's diagonal */
  near: number;
}

/**
 * The boxes as a height field: per cell, the highest `max[2] + clearance` over the boxes whose
 * XY lies within `near` of the cell's centre, -Infinity elsewhere. `near` is the clearance plus
 * half a cell's diagonal, so every cell any point of which lies within the clearance of a box
 * counts: a tool reaching into the clearance by more than half a cell's diagonal covers the
 * centre of such a cell. The distance is Euclidean (rounded corners), as the issue's "at least
 * 1 mm away" reads; a box grown square would flag a tool kept 1.5 mm from a jaw's corner. The
 * grid covers the boxes' XY grown by the clearance and one cell, which holds every such centre.
 */
export function fixtureField(boxes: Box3[], clearanceMm: number, cellMm = FIXTURE_CELL_MM): FixtureField {
  if (!(clearanceMm >= 0)) throw new RangeError(`the clearance must be at least 0, not ${clearanceMm}`);
  boxes.forEach((box, n) => {
    if (!(box.min[0] < box.max[0] && box.min[1] < box.max[1] && box.min[2] < box.max[2]))
      throw new RangeError(`fixture box ${n} is empty or inverted`);
  });
  if (boxes.length === 0) {
    const none = new Float32Array(0);
    return {
      x0: 0,
      y0: 0,
      nx: 0,
      ny: 0,
      dx: cellMm,
      dy: cellMm,
      heights: none,
      rowTops: none,
      top: -Infinity,
      boxes,
      clearance: clearanceMm,
      near: clearanceMm,
    };
  }
  const grow = clearanceMm + cellMm;
  const min: Vec3 = [Infinity, Infinity, Infinity],
    max: Vec3 = [-Infinity, -Infinity, -Infinity];
  for (const box of boxes) {
    for (let axis = 0; axis < 3; axis++) {
      min[axis] = Math.min(min[axis] as number, box.min[axis] as number);
      max[axis] = Math.max(max[axis] as number, box.max[axis] as number);
    }
  }
  const grid = stockGrid(
    { min: [min[0] - grow, min[1] - grow, min[2]], max: [max[0] + grow, max[1] + grow, max[2]] },
    cellMm,
  );
  const near = clearanceMm + Math.hypot(grid.dx, grid.dy) / 2;
  const heights = new Float32Array(grid.nx * grid.ny).fill(-Infinity);
  let top = -Infinity;
  for (const box of boxes) {
    const height = box.max[2] + clearanceMm;
    top = Math.max(top, height);
    const [i0, i1] = centresWithin(box.min[0] - near, box.max[0] + near, grid.x0, grid.dx, grid.nx);
    const [j0, j1] = centresWithin(box.min[1] - near, box.max[1] + near, grid.y0, grid.dy, grid.ny);
    for (let j = j0; j <= j1; j++) {
      const y = grid.y0 + (j + 0.5) * grid.dy;
      for (let i = i0; i <= i1; i++) {
        const k = j * grid.nx + i;
        if (isNear(box, grid.x0 + (i + 0.5) * grid.dx, y, near) && height > (heights[k] as number)) heights[k] = height;
      }
    }
  }
  const rowTops = new Float32Array(grid.ny).fill(-Infinity);
  for (let j = 0; j < grid.ny; j++) {
    for (let k = j * grid.nx, end = k + grid.nx; k < end; k++) {
      if ((heights[k] as number) > (rowTops[j] as number)) rowTops[j] = heights[k] as number;
    }
  }
  return { ...grid, heights, rowTops, top, boxes, clearance: clearanceMm, near };
}

/** Whether (x, y) lies within `distance` of the box's XY rectangle. */
function isNear(box: Box3, x: number, y: number, distance: number): boolean {
  return distanceToBoxXY(box, x, y) <= distance;
}

/** The box that gives cell `cell` its height (the highest near it), -1 where none is near. */
export function fixtureBoxAt(field: FixtureField, cell: number): number {
  const [x, y] = cellCentre(field, cell);
  let found = -1;
  field.boxes.forEach((box, n) => {
    if (isNear(box, x, y, field.near) && (found < 0 || box.max[2] > (field.boxes[found] as Box3).max[2])) found = n;
  });
  return found;
}

/** The flutes are "cutter"; the bodies above them by their names. */
export type FixtureToucher = BodyName | "cutter";

/** The deepest a move came into the fixtures' clearance. */
export interface FixtureCollision {
  /** the move's index in the operation's moves */
  move_index: number;
  /** for a drill cycle, the index of the hole */
  hole: number | null;
  /** the worst cell's centre and the z the flutes or the body reached there */
  position: Vec3;
  /** how far below the fixture's top plus the clearance */
  depth_mm: number;
  body: FixtureToucher;
  /** the index of the box in the field's boxes */
  box: number;
}

export interface WorkholdingCollisions {
  /** moves whose flutes or a body came within the clearance of a fixture (a drill cycle is one move) */
  moves: number;
  /** the deepest of them, null when none */
  worst: FixtureCollision | null;
  /** envelopes swept over the fixture grid; the others were above every fixture or beside the grid */
  sweeps: number;
}

/**
 * Every move of an operation, as the stock simulation expands it (motions.ts: from the
 * operation's start, arcs measured, drill cycles run as a control runs them) and with the
 * envelopes it builds (cutter-profile.ts), swept over the fixture field: the flutes and each
 * body, rapids and feeds alike. Each move counts once, however many cells and bodies offend.
 */
export function workholdingCollisions(
  operation: Pick<Operation, "tool" | "clearance_z" | "moves">,
  field: FixtureField,
  tolerance = DEFAULT_TOLERANCE_MM,
): WorkholdingCollisions {
  const result: WorkholdingCollisions = { moves: 0, worst: null, sweeps: 0 };
  let at = operationStart(operation);
  if (at === null || field.top === -Infinity) return result;
  const profile = cutterProfile(operation.tool);
  const check = new FixtureCheck(field.heights, field.rowTops, tolerance);
  const chordError = chordErrorOn(field);
  operation.moves.forEach((move, index) => {
    check.touch.clear();
    for (const motion of motionsOf(move, at as Vec3, chordError)) {
      result.sweeps += sweepFixtures(field, check, motion, profile, tolerance);
      at = motion.to;
    }
    const touch = check.touch;
    if (touch.cell < 0) return;
    result.moves++;
    if (result.worst !== null && touch.depth <= result.worst.depth_mm) return;
    result.worst = fixtureCollision(field, touch, index);
  });
  return result;
}

/** A move's worst contact with the fixtures (`touch.cell` >= 0), as a collision at move `moveIndex`. */
export function fixtureCollision(field: FixtureField, touch: Worst, moveIndex: number): FixtureCollision {
  const [x, y] = cellCentre(field, touch.cell);
  return {
    move_index: moveIndex,
    hole: touch.hole >= 0 ? touch.hole : null,
    position: [x, y, touch.z],
    depth_mm: touch.depth,
    body: touch.body ?? "cutter",
    box: fixtureBoxAt(field, touch.cell),
  };
}

/**
 * One motion's flutes and bodies over the fixture field, into `check` (its worst is kept across
 * calls: the caller clears it per move). An envelope whose lowest point stays above the field's
 * top, or whose reach stays beside the grid, is not swept. Returns how many envelopes were.
 */
export function sweepFixtures(
  field: FixtureField,
  check: FixtureCheck,
  motion: Motion,
  profile: Pick<CutterProfile, "cutting" | "bodies">,
  tolerance: number,
): number {
  check.touch.currentHole = motion.hole ?? -1;
  const zLow = motionLowZ(motion);
  const box = motionBox(motion);
  let sweeps = sweepEnvelope(field, check, motion, zLow, box, profile.cutting, null, tolerance);
  for (const { name, envelope } of profile.bodies)
    sweeps += sweepEnvelope(field, check, motion, zLow, box, envelope, name, tolerance);
  return sweeps;
}

function sweepEnvelope(
  field: FixtureField,
  check: FixtureCheck,
  motion: Motion,
  zLow: number,
  box: ReturnType<typeof motionBox>,
  envelope: Envelope,
  body: BodyName | null,
  tolerance: number,
): number {
  // the cheap z test: nothing of this envelope gets below the highest fixture
  if (zLow + envelope.base >= field.top - tolerance) return 0;
  const r = envelope.reach;
  if (
    box.xhi + r < field.x0 ||
    box.xlo - r > field.x0 + field.nx * field.dx ||
    box.yhi + r < field.y0 ||
    box.ylo - r > field.y0 + field.ny * field.dy
  )
    return 0;
  check.body = body;
  sweepMotion(field, motion, envelope, check);
  return 1;
}
