/**
 * Pockets deeper than four times their width and holes deeper than ten diameters, from the
 * recognised features' measures.
 *
 * Why those ratios: an end mill's flutes are some three diameters long, and beyond four the tool
 * sticks out so far that it deflects and chatters and the shop needs long-reach tools and light
 * cuts (Protolabs Network's design guide: cavity depth at most 4 x its width). Twist drills
 * make ten diameters with pecking; deeper holes need gun drills or special long drills (the same
 * guide: hole depth at most 10 x the nominal diameter, typical 4 x).
 */
import type { Feature } from "../features/recognition/types.ts";
import type { DesignFeedbackItem } from "./types.ts";

export const MAX_POCKET_DEPTH_TO_WIDTH = 4;
export const MAX_HOLE_DEPTH_TO_DIAMETER = 10;

/** feature classes with walls on both sides of their narrowest width: pockets, slots and passages (steps are open) */
const CAVITY = /pocket|slot|passage/;

export function deepPockets(features: readonly Feature[]): DesignFeedbackItem[] {
  const items: DesignFeedbackItem[] = [];
  for (const feature of features) {
    const { depth_mm: depth, min_width_mm: width } = feature;
    if (!CAVITY.test(feature.class) || feature.hole !== undefined || depth === null || width === null || !(width > 0))
      continue;
    const limit = MAX_POCKET_DEPTH_TO_WIDTH * width;
    if (depth <= limit + 1e-6) continue;
    items.push({
      kind: "deep_pocket",
      severity: "warning",
      faces: [...feature.faces],
      feature: feature.id,
      measured: { value: round2(depth), unit: "mm" },
      limit: { value: round2(limit), unit: "mm" },
      details: { class: feature.class, width_mm: round2(width), ratio: round2(depth / width) },
      message_key: "deep_pocket",
    });
  }
  return items;
}

export function deepHoles(features: readonly Feature[]): DesignFeedbackItem[] {
  const items: DesignFeedbackItem[] = [];
  for (const feature of features) {
    const hole = feature.hole;
    if (hole === undefined || !(hole.diameter_mm > 0)) continue;
    const limit = MAX_HOLE_DEPTH_TO_DIAMETER * hole.diameter_mm;
    if (hole.depth_mm <= limit + 1e-6) continue;
    items.push({
      kind: "deep_hole",
      severity: "warning",
      faces: [...feature.faces],
      feature: feature.id,
      measured: { value: round2(hole.depth_mm), unit: "mm" },
      limit: { value: round2(limit), unit: "mm" },
      details: { diameter_mm: round2(hole.diameter_mm), ratio: round2(hole.depth_mm / hole.diameter_mm) },
      message_key: "deep_hole",
    });
  }
  return items;
}

const round2 = (x: number): number => Math.round(x * 100) / 100;
