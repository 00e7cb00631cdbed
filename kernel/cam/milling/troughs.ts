/**
 * Trough finishing: a ball end mill run along a concave half cylinder lying across the tool axis
 * (planner/troughs.ts finds them), its centre on the cylinder's axis offset by the radius
 * difference, pass after pass round the trough, and up the walls the trough runs into where it
 * ends upright (a slot's round end and the bottom of its walls). A ball as round as the trough
 * makes it in one pass. Passes stop a ball radius short of each end of the trough, where a wall
 * may stand across it; the stock simulation judges what the ball's neck, shank and holder meet.
 * The stock the generators after it read is not changed (it runs last in a setup).
 */
import type { Move, Vec3 } from "../types.ts";
import {
  clearancePlane,
  makeOperation,
  refusal,
  unusableTool,
  type MillingOutcome,
  type MillingRequest,
} from "./operation.ts";

/** A trough in the setup's frame (z up the tool axis). */
export interface Trough {
  face: number;
  /** on the axis, at the trough's first end */
  start: Vec3;
  /** unit, horizontal */
  axis: Vec3;
  length: number;
  radius: number;
  /** the face's extent round the axis, radians from straight down (negative: the axis turned a quarter clockwise, seen along it) */
  angles: [number, number];
}

/** passes round the trough at most this far apart on its surface */
const PASS_SPACING_MM = 0.25;
/** up the upright walls a trough ends in: this many ball radii */
const WALL_BAND_RADII = 1.5;
/**
 * The ball runs this much higher than the trough: the mesh's chords stand up to 0.01 mm into a
 * concave face, which the simulation reads as height, 3 times that on the trough's steep sides
 * (0.95 of the radius out); a ball as round as the trough gouged them by 0.025 mm at 0.012.
 */
const LIFT_MM = 0.05;
/** and stops this much short of a wall across the trough's end */
const END_CLEARANCE_MM = 0.02;
/** a trough within this of the ball's radius is one pass */
const SAME_RADIUS_MM = 0.005;
/** an end within this of upright (radians) runs into a wall */
const UPRIGHT = 0.05;

export function troughFinishing(request: MillingRequest, troughs: readonly Trough[]): MillingOutcome {
  const { tool, parameters } = request;
  const unusable = unusableTool(tool, parameters);
  if (unusable) return refusal(unusable);
  if (tool.kind !== "ball") return refusal(`${tool.name} is no ball end mill`);
  const r = tool.diameter / 2;
  const clearance = clearancePlane(request.stock.top_z, request.rapid_clearance_mm);
  const moves: Move[] = [];
  let position: Vec3 | null = null;
  const go = (to: Vec3, feed: number) => {
    moves.push({ kind: "linear", to, feed });
    position = to;
  };
  for (const trough of troughs) {
    if (trough.radius < r - SAME_RADIUS_MM || trough.length <= 2 * r) continue;
    for (const centres of passes(trough, r)) {
      // tip positions: the ball's centre less its radius
      const [a, b] = centres.map((c): Vec3 => [c[0], c[1], c[2] - r + LIFT_MM]) as [Vec3, Vec3];
      const near =
        position !== null &&
        Math.hypot(a[0] - (position as Vec3)[0], a[1] - (position as Vec3)[1], a[2] - (position as Vec3)[2]) <=
          PASS_SPACING_MM * 2 + 1e-9;
      if (!near) {
        if (position !== null) go([(position as Vec3)[0], (position as Vec3)[1], clearance], parameters.feed_mm_min);
        moves.push({ kind: "rapid", to: [a[0], a[1], clearance] });
        go(a, parameters.plunge_feed_mm_min);
      } else {
        go(a, parameters.feed_mm_min);
      }
      go(b, parameters.feed_mm_min);
    }
  }
  if (position === null) return refusal(`no trough is at least as round as ${tool.name} and longer than it`);
  go([(position as Vec3)[0], (position as Vec3)[1], clearance], parameters.feed_mm_min);
  return {
    operation: makeOperation(request, "floor_finishing", `Finishing round troughs with ${tool.name}`, clearance, moves),
    reason: null,
    cleared: [],
    skipped: [],
    notes: [],
  };
}

/** Each pass's two ends (ball centres), in zig-zag order: round the trough, then up its upright ends. */
function passes(trough: Trough, r: number): [Vec3, Vec3][] {
  const { start, axis, length, radius } = trough;
  const offset = Math.max(0, radius - r);
  const side: Vec3 = [-axis[1], axis[0], 0];
  const centre = (angle: number, up: number): Vec3 => {
    const s = offset * Math.sin(angle),
      d = offset * Math.cos(angle);
    return [start[0] + s * side[0], start[1] + s * side[1], start[2] - d + up];
  };
  const points: Vec3[] = [];
  const [low, high] = trough.angles;
  if (offset < SAME_RADIUS_MM) {
    points.push(centre(0, 0));
  } else {
    const steps = Math.max(1, Math.ceil(((high - low) * radius) / PASS_SPACING_MM));
    for (let i = 0; i <= steps; i += 1) points.push(centre(low + ((high - low) * i) / steps, 0));
  }
  // up the walls the trough runs into: from its ends that stand upright
  const band = WALL_BAND_RADII * r;
  const ups = Math.ceil(band / PASS_SPACING_MM);
  for (const end of [low, high]) {
    if (Math.abs(Math.abs(end) - Math.PI / 2) > UPRIGHT) continue;
    const foot = offset < SAME_RADIUS_MM ? centre(0, 0) : centre(end, 0);
    for (let i = 1; i <= ups; i += 1) points.push([foot[0], foot[1], foot[2] + (band * i) / ups]);
    if (offset < SAME_RADIUS_MM) break;
  }
  const along = (p: Vec3, t: number): Vec3 => [p[0] + t * axis[0], p[1] + t * axis[1], p[2]];
  const [first, last] = [r + END_CLEARANCE_MM, length - r - END_CLEARANCE_MM];
  return points.map((p, i) => (i % 2 === 0 ? [along(p, first), along(p, last)] : [along(p, last), along(p, first)]));
}
