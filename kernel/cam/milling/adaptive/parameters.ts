/**
 * Cutting parameters for adaptive clearing, from the ones offset roughing uses:
 *
 * - depth of cut: the tool's rated one (max_stepdown: DepthOfCutMaximum, else its flute length),
 *   since a thin radial cut spreads the load along the flutes instead of the corner;
 * - radial engagement (the "optimal load"), per level from the depth it actually cuts: the
 *   cutting data's cross-section (its ae times its ap) spread over that depth, so a level as deep
 *   as the table's ap takes the table's ae and one twice as deep half of it, never less than
 *   ADAPTIVE_ENGAGEMENT_FRACTION of the diameter (deeper than the cross-section allows, the
 *   levels split: adaptiveCut's stepdown) nor more than the table's ae. Levels land on the
 *   part's floors, so most are shallower than the rated depth and take more than the least load;
 * - feed: raised for the thin chip. A side cut of width ae < D/2 makes a chip whose largest
 *   thickness is hex = fz · 2·sqrt(ae·(D - ae)) / D (Sandvik Coromant, "Milling formulas and
 *   definitions": hex = fz · sqrt(1 - (1 - 2·ae/D)²), the same expression), so the feed per
 *   tooth that gives the chip the cutting data's fz is fz · D / (2·sqrt(ae·(D - ae))); at most
 *   CHIP_THINNING_CAP times fz, and within the machine's max feed.
 */
import type { Cutter, CuttingParameters } from "../../types.ts";

/**
 * The least radial engagement of adaptive clearing as a fraction of D: 10 %, the light radial
 * cut at a deep axial one that tool makers' high-efficiency milling guides describe for
 * aluminium (Harvey Performance, "Introduction to High Efficiency Milling", In the Loupe), and
 * the figure issue 37 asks for. The material's cutting data has no such figure yet, so it is used
 * for every material.
 */
export const ADAPTIVE_ENGAGEMENT_FRACTION = 0.1;
/** the chip-thinning feed factor is at most this (reached at ae = 6.7 % of D) */
export const CHIP_THINNING_CAP = 2;

/** How much to raise the feed per tooth for a side cut of ae on a tool of diameter d (1 at ae >= d/2). */
export function chipThinningFactor(ae: number, d: number): number {
  if (!(ae > 0) || ae >= d / 2) return 1;
  return Math.min(CHIP_THINNING_CAP, d / (2 * Math.sqrt(ae * (d - ae))));
}

/** What adaptive clearing holds at every level, whatever its depth (levelLoad). */
export interface AdaptiveLoad {
  /** the target radial engagement (mm) at the deepest level: the least */
  engagement_mm: number;
  /** the feed of cuts at the offset's engagement (the entry, the passes along the walls) */
  base_feed_mm_min: number;
  /** the most radial engagement (mm): the cutting data's ae; default engagement_mm */
  max_engagement_mm?: number;
  /** ae · ap (mm²) held at every level: the cutting data's; default: engagement_mm at any depth */
  section_mm2?: number;
  /** the machine's max feed; default: no limit */
  max_feed_mm_min?: number;
}

export interface AdaptiveCut {
  /** what the adaptive paths cut with: the least engagement as the stepover, the rated depth, its chip-thinned feed */
  parameters: CuttingParameters;
  load: Required<AdaptiveLoad>;
}

/** Adaptive parameters from offset roughing's, on a machine feeding at most `maxFeed`. */
export function adaptiveCut(tool: Cutter, offset: CuttingParameters, maxFeed: number): AdaptiveCut {
  const least = round3(ADAPTIVE_ENGAGEMENT_FRACTION * tool.diameter);
  const section = offset.stepover_mm * offset.stepdown_mm;
  // no deeper than the least engagement carries the cross-section
  const depth = Math.max(offset.stepdown_mm, Math.min(tool.max_stepdown, section / least));
  const load: Required<AdaptiveLoad> = {
    engagement_mm: round3(Math.max(least, Math.min(offset.stepover_mm, section / depth))),
    base_feed_mm_min: offset.feed_mm_min,
    max_engagement_mm: Math.max(least, offset.stepover_mm),
    section_mm2: section,
    max_feed_mm_min: maxFeed,
  };
  return {
    parameters: {
      ...offset,
      stepdown_mm: round3(depth),
      stepover_mm: load.engagement_mm,
      feed_mm_min: levelLoad(load, tool.diameter, depth).feed_mm_min,
    },
    load,
  };
}

/** The engagement and feed of a level cutting `depth` mm deep with a tool of diameter `d`. */
export function levelLoad(
  load: AdaptiveLoad,
  d: number,
  depth: number,
): { engagement_mm: number; feed_mm_min: number } {
  const most = load.max_engagement_mm ?? load.engagement_mm;
  const spread = load.section_mm2 === undefined || !(depth > 0) ? load.engagement_mm : load.section_mm2 / depth;
  const engagement = round3(Math.max(load.engagement_mm, Math.min(most, spread)));
  const thinned = round1(load.base_feed_mm_min * chipThinningFactor(engagement, d));
  return {
    engagement_mm: engagement,
    feed_mm_min: Math.max(load.base_feed_mm_min, Math.min(load.max_feed_mm_min ?? Infinity, thinned)),
  };
}

const round1 = (value: number) => Math.round(value * 10) / 10;
const round3 = (value: number) => Math.round(value * 1000) / 1000;

/** The largest engagement any of `levels` takes below `top` (the operation's target). */
export function largestEngagement(load: AdaptiveLoad, d: number, top: number, levels: readonly number[]): number {
  let above = top;
  let largest = load.engagement_mm;
  for (const z of levels) {
    largest = Math.max(largest, levelLoad(load, d, above - z).engagement_mm);
    above = z;
  }
  return largest;
}
