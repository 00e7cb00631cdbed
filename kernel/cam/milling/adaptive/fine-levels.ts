/**
 * Fine stepdown: the levels between adaptive clearing's deep ones, cut by the same tool right
 * after each deep level. A deep level keeps off the part's shadow at its own height, so a wall
 * sloping outwards going down keeps a step as tall as the level above it (FTC-10: 22 mm levels
 * left 17,240 mm³ more than 10 mm ones on +Z, and the rest tools took 119 s longer for it). At a
 * fine level, at the cutting data's depth, what is left is that step alone: a band along the
 * sloped walls and above the floors between, which offset passes at the cutting data's load clear
 * (the bulk beside them is gone, so no pass engages more than the band's width or the table's ae).
 */
import { zLevels } from "../levels.ts";

/** A level between two deep ones: it clears the step the deeper one left on sloped walls. */
export interface FineLevel {
  z: number;
  fine: true;
}

/** A level of a roughing: a plain height, or a fine one. */
export type RoughingLevel = number | FineLevel;

export function levelZ(level: RoughingLevel): number {
  return typeof level === "number" ? level : level.z;
}

export function isFine(level: RoughingLevel): level is FineLevel {
  return typeof level !== "number";
}

/** two levels closer than this are one */
const SAME_LEVEL_MM = 1e-6;

/**
 * The deep levels (highest first), each followed by the fine levels between it and the one above
 * (the stock's top for the first), highest first: the levels `zLevels` gives at `stepdown` that
 * no deep level lands on.
 */
export function withFineLevels(
  deep: readonly number[],
  spec: { top: number; bottom: number; floors: readonly number[]; stepdown: number; allowance_z: number },
): RoughingLevel[] {
  const fine = zLevels(spec).filter((z) => deep.every((d) => Math.abs(d - z) > SAME_LEVEL_MM));
  const levels: RoughingLevel[] = [];
  let above = spec.top;
  for (const z of deep) {
    levels.push(z);
    for (const f of fine) if (f < above && f > z) levels.push({ z: f, fine: true });
    above = z;
  }
  return levels;
}
