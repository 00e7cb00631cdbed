/**
 * An operation's moves as the straight and circular motions the sweep knows: arcs measured
 * (start angle, sweep, radius), drill cycles expanded into their rapids and feeds the way a
 * control runs them.
 */
import type { DrillCycle, Move, Operation, Vec3 } from "../types.ts";
import type { Envelope } from "./cutter-profile.ts";
import type { Grid } from "./height-field.ts";
import { arcBounds, sweepArc, sweepLine, type ArcPath, type CellVisitor } from "./sweep.ts";

export type Motion =
  | { kind: "line"; from: Vec3; to: Vec3; rapid: boolean; hole: number | null }
  /** `path` runs counter-clockwise; a clockwise move travels it from its end */
  | { kind: "arc"; path: ArcPath; to: Vec3; clockwise: boolean; rapid: false; hole: null };

/** G83 rapids back down to this far above the last peck's depth before feeding again. */
export const PECK_CLEARANCE_MM = 0.5;
/** G73 backs off this much between pecks to break the chip. */
export const CHIP_BREAK_RETRACT_MM = 0.5;
/** Arc ends further apart in radius than this are an arc whose radius changes along the way. */
const RADIUS_MISMATCH_MM = 1e-3;
const TWO_PI = 2 * Math.PI;

/** How far an arc's chords may stray from it on this grid: a twentieth of a cell. */
export function chordErrorOn(grid: Grid): number {
  return Math.min(grid.dx, grid.dy) / 20;
}

/** The tip's lowest z during the motion: an envelope's base above it is the body's lowest point. */
export function motionLowZ(motion: Motion): number {
  return motion.kind === "line" ? Math.min(motion.from[2], motion.to[2]) : Math.min(motion.path.z0, motion.path.z1);
}

/** The motion's XY extent (the tip's path; an envelope reaches its own radius beyond it). */
export function motionBox(motion: Motion): { xlo: number; xhi: number; ylo: number; yhi: number } {
  if (motion.kind === "arc") {
    const { min, max } = arcBounds(motion.path);
    return { xlo: min[0], xhi: max[0], ylo: min[1], yhi: max[1] };
  }
  const { from, to } = motion;
  return {
    xlo: Math.min(from[0], to[0]),
    xhi: Math.max(from[0], to[0]),
    ylo: Math.min(from[1], to[1]),
    yhi: Math.max(from[1], to[1]),
  };
}

/** One motion's envelope over the grid's cells (sweep.ts); `skipStart` is sweepLine's, for lines. */
export function sweepMotion(
  grid: Grid,
  motion: Motion,
  envelope: Envelope,
  visitor: CellVisitor,
  skipStart = false,
): void {
  if (motion.kind === "line") sweepLine(grid, motion.from, motion.to, envelope, visitor, skipStart);
  else sweepArc(grid, motion.path, envelope, visitor);
}

/**
 * Where the operation starts: its clearance plane over its first point, where the tool comes
 * down to after the tool change.
 */
export function operationStart(operation: Pick<Operation, "clearance_z" | "moves">): Vec3 | null {
  for (const move of operation.moves) {
    if (move.kind !== "drill") return [move.to[0], move.to[1], Math.max(operation.clearance_z, move.to[2])];
    const hole = move.at[0];
    if (hole !== undefined) return [hole[0], hole[1], Math.max(operation.clearance_z, move.retract_z)];
  }
  return null;
}

/** The motions of one move from `from`; `chordError` bounds the chords of arcs that need them. */
export function motionsOf(move: Move, from: Vec3, chordError: number): Motion[] {
  switch (move.kind) {
    case "rapid":
      return [{ kind: "line", from, to: move.to, rapid: true, hole: null }];
    case "linear":
      return [{ kind: "line", from, to: move.to, rapid: false, hole: null }];
    case "arc":
      return arcMotions(move, from, chordError);
    case "drill":
      return drillMotions(move, from);
  }
}

function arcMotions(move: Extract<Move, { kind: "arc" }>, from: Vec3, chordError: number): Motion[] {
  const [cx, cy] = move.centre;
  const to = move.to;
  const r0 = Math.hypot(from[0] - cx, from[1] - cy),
    r1 = Math.hypot(to[0] - cx, to[1] - cy);
  if (r0 < 1e-9 || r1 < 1e-9) return [{ kind: "line", from, to, rapid: false, hole: null }];
  const a0 = Math.atan2(from[1] - cy, from[0] - cx),
    a1 = Math.atan2(to[1] - cy, to[0] - cx);
  let sweep = move.clockwise ? a0 - a1 : a1 - a0;
  sweep -= TWO_PI * Math.floor(sweep / TWO_PI);
  // the same start and end: a whole circle, as G2/G3 read it
  if (sweep < 1e-9) sweep = TWO_PI;
  if (Math.abs(r0 - r1) <= RADIUS_MISMATCH_MM) {
    // the sweep runs counter-clockwise: a clockwise arc is the same path from its end
    const path: ArcPath = move.clockwise
      ? { centre: [cx, cy], radius: r0, start: a1, sweep, z0: to[2], z1: from[2] }
      : { centre: [cx, cy], radius: r0, start: a0, sweep, z0: from[2], z1: to[2] };
    return [{ kind: "arc", path, to, clockwise: move.clockwise, rapid: false, hole: null }];
  }
  // a radius that changes along the arc: chords, each no further than chordError from the curve
  const radius = Math.max(r0, r1);
  const step = chordError < radius ? 2 * Math.acos(1 - chordError / radius) : Math.PI / 2;
  const count = Math.max(1, Math.ceil(sweep / Math.min(step, Math.PI / 2)));
  const direction = move.clockwise ? -1 : 1;
  const motions: Motion[] = [];
  let previous = from;
  for (let s = 1; s <= count; s++) {
    const f = s / count;
    const angle = a0 + direction * sweep * f;
    const r = r0 + (r1 - r0) * f;
    const point: Vec3 =
      s === count ? to : [cx + r * Math.cos(angle), cy + r * Math.sin(angle), from[2] + (to[2] - from[2]) * f];
    motions.push({ kind: "line", from: previous, to: point, rapid: false, hole: null });
    previous = point;
  }
  return motions;
}

/**
 * A canned cycle as a control runs it (returning to the R plane between holes, G99): at each
 * hole a rapid over it at the current height, a rapid down to the R plane, the feeds and pecks,
 * and a rapid (a feed, tapping) back to the R plane.
 */
function drillMotions(cycle: DrillCycle, from: Vec3): Motion[] {
  const motions: Motion[] = [];
  let at = from;
  const go = (to: Vec3, rapid: boolean, hole: number): void => {
    motions.push({ kind: "line", from: at, to, rapid, hole });
    at = to;
  };
  cycle.at.forEach(([x, y], hole) => {
    const r: Vec3 = [x, y, cycle.retract_z];
    go([x, y, at[2]], true, hole);
    go(r, true, hole);
    const bottom: Vec3 = [x, y, cycle.bottom_z];
    const peck = cycle.peck_mm ?? 0;
    if ((cycle.cycle === "peck" || cycle.cycle === "chip_break") && peck > 0) {
      let depth = cycle.top_z;
      while (depth > cycle.bottom_z) {
        const next = Math.max(cycle.bottom_z, depth - peck);
        if (depth < cycle.top_z) {
          // G83 clears the chips at the R plane and comes back; G73 only backs off
          if (cycle.cycle === "peck") go(r, true, hole);
          go([x, y, depth + (cycle.cycle === "peck" ? PECK_CLEARANCE_MM : CHIP_BREAK_RETRACT_MM)], true, hole);
        }
        go([x, y, next], false, hole);
        depth = next;
      }
    } else {
      go(bottom, false, hole);
    }
    go(r, cycle.cycle !== "tap", hole);
  });
  return motions;
}
