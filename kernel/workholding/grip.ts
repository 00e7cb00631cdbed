/**
 * How deep a vise grips the stock. The rule, from issue 35 ("at least 3 mm, by default about
 * 5 mm or a third of the jaw height"): the default grip is 5 mm, or a third of the jaw height
 * when the jaws are lower than 15 mm, and never under 3 mm. Five millimetres holds a first
 * operation in hard jaws while leaving the most stock above them; a third keeps low jaws from
 * being asked for a grip they barely have; under 3 mm the stock tips or walks out under the cut.
 */
import type { MachineVise } from "./schema.ts";

/** the shallowest grip a setup may have (mm) */
export const MIN_GRIP_MM = 3;
/** the grip a setup asks for when its jaws are 15 mm or taller (mm) */
export const DEFAULT_GRIP_MM = 5;

/** `max(3, min(5, jaw_height / 3))` */
export function defaultGripMm(jawHeightMm: number): number {
  return Math.max(MIN_GRIP_MM, Math.min(DEFAULT_GRIP_MM, jawHeightMm / 3));
}

export interface GripOnParallels {
  grip_mm: number;
  /** 0: the stock stands on the vise's ways, no parallels */
  parallel_height_mm: number;
}

/**
 * The grip a vise can actually give, at most `wantedGripMm`: the stock stands on a parallel (or
 * on the ways), so the grip is the jaw height minus the parallel's height, and only the heights
 * the setter has are possible. Picks the deepest such grip that is not deeper than wanted (the
 * jaws never cover more of the stock than the planner allowed) and not under MIN_GRIP_MM;
 * undefined when none is.
 */
export function gripOnParallels(vise: MachineVise, wantedGripMm: number): GripOnParallels | undefined {
  let best: GripOnParallels | undefined;
  for (const parallel of [0, ...vise.parallel_heights_mm]) {
    const grip = vise.jaw_height_mm - parallel;
    if (grip < MIN_GRIP_MM || grip > wantedGripMm) continue;
    if (best === undefined || grip > best.grip_mm) best = { grip_mm: grip, parallel_height_mm: parallel };
  }
  return best;
}
