/**
 * Z levels and reach.
 *
 * Levels run from the top of the material down to the deepest level asked for, never more than
 * the stepdown apart, and land exactly on every floor (plus the axial allowance when roughing):
 * a floor between two even steps would otherwise be left thick or cut into.
 *
 * Reach is decided per tool position, not per level: above its flutes a tool may have a neck, a
 * shank and a holder. A part of it at least NECK_RELIEF_MM narrower than the cut (cutter-shape.ts)
 * passes through the slot the flutes cut; any other (a shank as wide as the cutter or wider, the
 * holder) must stay clear of all material above the height it starts at. So at a level z the tool
 * centre keeps out of the shadow of the material above z + from, grown by that part's radius plus
 * BODY_CLEARANCE_MM, for each such part (regions.ts). The effect is the usual rule, exactly: where
 * the shank is not narrower than the cut, the tool goes no deeper than flute_length below the
 * highest material near it (near = within the shank radius), and the holder no deeper than
 * stick_out.
 */
import { NECK_RELIEF_MM } from "../cutter-shape.ts";
import type { Cutter } from "../types.ts";

/** what the neck, shank and holder keep from material */
export const BODY_CLEARANCE_MM = 0.5;

export interface LevelSpec {
  /** top of the material: the first level is below it */
  top: number;
  /** the deepest level */
  bottom: number;
  /** heights levels must land on (floors), any order */
  floors: readonly number[];
  /** most axial depth between levels (> 0) */
  stepdown: number;
  /** added to every floor (roughing leaves it for finishing) */
  allowance_z?: number;
}

/** The levels, highest first: every floor (+ allowance) within (bottom, top) and the bottom. */
export function zLevels(spec: LevelSpec): number[] {
  if (!(spec.stepdown > 0)) throw new RangeError(`stepdown must be positive, not ${spec.stepdown}`);
  if (!(spec.bottom < spec.top)) return [];
  const allowance = spec.allowance_z ?? 0;
  const targets = spec.floors.map((floor) => floor + allowance).filter((z) => z > spec.bottom && z < spec.top - 1e-9);
  targets.push(spec.bottom);
  targets.sort((a, b) => b - a);
  const levels: number[] = [];
  let previous = spec.top;
  for (const target of targets) {
    if (previous - target <= 1e-9) continue;
    const steps = Math.ceil((previous - target) / spec.stepdown - 1e-9);
    for (let i = 1; i < steps; i += 1) levels.push(previous - ((previous - target) * i) / steps);
    // the target itself exactly, not previous - (previous - target)
    levels.push(target);
    previous = target;
  }
  return levels;
}

/** A part of the tool above its flutes not narrower than the cut: from its height above the tip up. */
export interface WideBody {
  name: "neck" | "shank" | "holder";
  from: number;
  radius: number;
}

/**
 * The parts of the tool that do not follow the flutes into the cut, lowest first. The neck runs
 * from the flutes to neck_length (measured from the tip, as the tool's NeckLength is), the shank
 * from there to stick_out, the holder's segments from stick_out up (a cone counts at its wider end).
 */
export function wideBodies(cutter: Cutter): WideBody[] {
  const bodies: WideBody[] = [];
  const hasNeck = cutter.neck_length > cutter.flute_length && cutter.neck_diameter > 0;
  if (hasNeck) bodies.push({ name: "neck", from: cutter.flute_length, radius: cutter.neck_diameter / 2 });
  const shankFrom = hasNeck ? cutter.neck_length : cutter.flute_length;
  if (cutter.shank_diameter > 0 && shankFrom < cutter.stick_out)
    bodies.push({ name: "shank", from: shankFrom, radius: cutter.shank_diameter / 2 });
  let from = cutter.stick_out;
  for (const segment of cutter.holder) {
    bodies.push({ name: "holder", from, radius: Math.max(segment.lower_diameter, segment.upper_diameter) / 2 });
    from += segment.length;
  }
  // as cutter-shape.ts (wallReach) has it: only a body NECK_RELIEF_MM narrower than the cut
  // follows the flutes down; one as wide as the cut would run along the wall they made at no
  // clearance (and the simulation finds it there, in a cell the flutes missed by a micrometre)
  return bodies.filter((body) => 2 * body.radius > cutter.diameter - NECK_RELIEF_MM + 1e-9);
}

/** How far below the material near it the tool reaches before a wider part would touch it. */
export function reach(cutter: Cutter): number {
  const first = wideBodies(cutter)[0];
  return first === undefined ? Infinity : first.from;
}
