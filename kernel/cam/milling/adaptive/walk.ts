/**
 * One adaptive path: from a start beside the material, the tool steps along, and before each step
 * turns so that the tool where the step ends is engaged by the target (material-model.ts
 * engagementAt: the arc of its leading edge in material). Turning right (towards the material,
 * which the path keeps on its right: climb milling with a clockwise spindle) engages more,
 * turning left less, so the angle is found by bisection between the sharpest turns allowed each
 * way. The turn per step is bounded, so the path bends no tighter than a minimum radius: it has
 * no corners.
 *
 * Why the arc and not the area a step cuts (libarea's measure): on a path curving into the
 * material, the tool's edge sweeps (ρ + R) / ρ times as far as its centre, so a step cutting the
 * target area engages the tool less than the target, and on one curving round a convex corner
 * more. Measured on the pocketed test block: area-per-step control at 0.8 mm gave a median
 * engagement of 0.40 mm by the arc, and up to 1.5 times the target round corners.
 *
 * The path ends where it cannot go on within the limits: into the region's edge with every
 * allowed heading engaging more than ENGAGEMENT_LIMIT times the target, after running through air
 * (cutting next to nothing) for longer than the tool's radius, or when even the sharpest left turn
 * engages more than that limit (a concave corner of the material, left to a path from another side).
 */
import type { Vec2 } from "../../types.ts";
import type { MaterialModel } from "./material-model.ts";

/** no step engages the tool more than this multiple of the target */
export const ENGAGEMENT_LIMIT = 1.1;
/** a step cutting less than this share of the target runs through air (or along a sliver the passes along the walls take) */
const AIR_SHARE = 0.2;
const BISECTIONS = 6;
/** headings tried each way from the chosen one when it leaves the region */
const DETOURS = 8;

export interface WalkSpec {
  model: MaterialModel;
  /** 1 where the tool centre may be (grid cells) */
  allowed: Uint8Array;
  start: Vec2;
  /** the first heading (radians) */
  heading: number;
  /** the target radial engagement (mm) */
  engagement: number;
  /** mm per step */
  step: number;
  /** the largest change of heading per step (radians) */
  maxTurn: number;
  /** at most this many steps */
  maxSteps: number;
}

export interface Walk {
  /** the centre path, from the start; the air it ended in trimmed off */
  points: Vec2[];
  /** material cut (mm²) */
  cut: number;
  /** the steps tried, the trimmed ones and the one it stopped at included: the work the walk did */
  steps: number;
}

export function walk(spec: WalkSpec): Walk {
  const { model, step, maxTurn } = spec;
  const target = spec.engagement;
  const limit = ENGAGEMENT_LIMIT * target;
  // the area a step at the target cuts on a straight path: what tells cutting from air
  const stepArea = spec.engagement * step;
  const points: Vec2[] = [spec.start];
  let at = spec.start;
  let heading = spec.heading;
  let cut = 0;
  // where the last step that cut ended, and the air run since
  let lastCutting = 1;
  let air = 0;
  model.clearAt(at);
  for (let n = 0; n < spec.maxSteps; n += 1) {
    const here = at;
    const towards = (turn: number): Vec2 => [
      here[0] + step * Math.cos(heading + turn),
      here[1] + step * Math.sin(heading + turn),
    ];
    // each turn's engagement measured once
    const measured = new Map<number, number>();
    const engagement = (turn: number): number => {
      let value = measured.get(turn);
      if (value === undefined) {
        value = model.engagementAt(towards(turn), heading + turn);
        measured.set(turn, value);
      }
      return value;
    };
    const turn = chooseTurn(engagement, target, maxTurn);
    const chosen = allowedTurn(spec, { at: here, towards, engagement, limit }, turn);
    if (chosen === null || engagement(chosen) > limit) break;
    const areaCut = model.cutArea(here, towards(chosen));
    at = towards(chosen);
    heading += chosen;
    model.clearAt(at);
    points.push(at);
    cut += areaCut;
    if (areaCut < AIR_SHARE * stepArea) {
      air += step;
      if (air > model.radius) break;
    } else {
      air = 0;
      lastCutting = points.length;
    }
  }
  return { points: points.slice(0, lastCutting), cut, steps: points.length };
}

/** The turn (negative: right, towards the material) whose step engages the target, within ±maxTurn. */
function chooseTurn(engagement: (turn: number) => number, target: number, maxTurn: number): number {
  // engagement grows as the heading turns right: bracket the target between the sharpest turns
  let right = -maxTurn;
  let left = maxTurn;
  if (engagement(right) <= target) return right;
  if (engagement(left) >= target) return left;
  for (let i = 0; i < BISECTIONS; i += 1) {
    const middle = (left + right) / 2;
    if (engagement(middle) > target) right = middle;
    else left = middle;
  }
  // the side cutting at most the target
  return left;
}

/**
 * `turn` when its step stays in the region, else the nearest turn within ±maxTurn of the
 * heading whose step does and cuts no more than `limit`; null when none does.
 */
function allowedTurn(
  spec: WalkSpec,
  step: { at: Vec2; towards: (turn: number) => Vec2; engagement: (turn: number) => number; limit: number },
  turn: number,
): number | null {
  const inside = (t: number): boolean => stepInside(spec, step.at, step.towards(t));
  if (inside(turn)) return turn;
  const increment = spec.maxTurn / DETOURS;
  for (let k = 1; k <= 2 * DETOURS; k += 1) {
    for (const t of [turn + k * increment, turn - k * increment]) {
      if (Math.abs(t) > spec.maxTurn + 1e-12) continue;
      if (inside(t) && step.engagement(t) <= step.limit) return t;
    }
  }
  return null;
}

/** Both ends of the step and its middle lie in allowed cells. */
function stepInside(spec: WalkSpec, a: Vec2, b: Vec2): boolean {
  const grid = spec.model.grid;
  for (const p of [b, [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2] as Vec2]) {
    const index = grid.indexOf(p);
    if (index < 0 || spec.allowed[index] !== 1) return false;
  }
  return true;
}
