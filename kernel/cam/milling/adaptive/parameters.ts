/**
 * Cutting parameters for adaptive clearing, from the ones offset roughing uses:
 *
 * - radial engagement (the "optimal load"): ADAPTIVE_ENGAGEMENT_FRACTION of the diameter;
 * - depth of cut: the tool's rated one (max_stepdown: DepthOfCutMaximum, else its flute length),
 *   since a thin radial cut spreads the load along the flutes instead of the corner;
 * - feed: raised for the thin chip. A side cut of width ae < D/2 makes a chip whose largest
 *   thickness is hex = fz · 2·sqrt(ae·(D - ae)) / D (Sandvik Coromant, "Milling formulas and
 *   definitions": hex = fz · sqrt(1 - (1 - 2·ae/D)²), the same expression), so the feed per
 *   tooth that gives the chip the cutting data's fz is fz · D / (2·sqrt(ae·(D - ae))); at most
 *   CHIP_THINNING_CAP times fz, and within the machine's max feed.
 */
import type { Cutter, CuttingParameters } from "../../types.ts";

/**
 * Radial engagement of adaptive clearing as a fraction of D: 10 %, the light radial cut at a
 * deep axial one that tool makers' high-efficiency milling guides describe for aluminium
 * (Harvey Performance, "Introduction to High Efficiency Milling", In the Loupe), and the figure
 * issue 37 asks for. The material's cutting data has no such figure yet, so it is used for
 * every material.
 */
export const ADAPTIVE_ENGAGEMENT_FRACTION = 0.1;
/** the chip-thinning feed factor is at most this (reached at ae = 6.7 % of D) */
export const CHIP_THINNING_CAP = 2;

/** How much to raise the feed per tooth for a side cut of ae on a tool of diameter d (1 at ae >= d/2). */
export function chipThinningFactor(ae: number, d: number): number {
  if (!(ae > 0) || ae >= d / 2) return 1;
  return Math.min(CHIP_THINNING_CAP, d / (2 * Math.sqrt(ae * (d - ae))));
}

export interface AdaptiveCut {
  /** what the adaptive paths cut with: the engagement as the stepover, the rated depth, the chip-thinned feed */
  parameters: CuttingParameters;
  /** the target radial engagement (mm) */
  engagement_mm: number;
  /** the feed of cuts at the offset's engagement (the entry, the passes along the walls) */
  base_feed_mm_min: number;
}

/** Adaptive parameters from offset roughing's, on a machine feeding at most `maxFeed`. */
export function adaptiveCut(tool: Cutter, offset: CuttingParameters, maxFeed: number): AdaptiveCut {
  const engagement = round3(ADAPTIVE_ENGAGEMENT_FRACTION * tool.diameter);
  const feed = Math.min(maxFeed, round1(offset.feed_mm_min * chipThinningFactor(engagement, tool.diameter)));
  return {
    parameters: {
      ...offset,
      stepdown_mm: round3(Math.max(offset.stepdown_mm, tool.max_stepdown)),
      stepover_mm: engagement,
      feed_mm_min: Math.max(offset.feed_mm_min, feed),
    },
    engagement_mm: engagement,
    base_feed_mm_min: offset.feed_mm_min,
  };
}

const round1 = (value: number) => Math.round(value * 10) / 10;
const round3 = (value: number) => Math.round(value * 1000) / 1000;
