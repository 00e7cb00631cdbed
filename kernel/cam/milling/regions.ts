/**
 * Where the tool centre may be at a level: the allowed region every path of the level lies in.
 *
 *   (stock rectangle grown by the radius + OUTSIDE_MM: the tool may run just outside the stock)
 *   - part shadow above z grown by radius + allowance_xy          (no gouge, wall stock kept)
 *   - stock left above z + depth_of_cut (outside the part) grown by the radius + CLEARANCE_MM
 *                                                                  (never cut deeper than that)
 *   - for each neck/shank/holder part wider than the cut: the part's and stock's shadow above
 *     z + its height, grown by its radius + BODY_CLEARANCE_MM      (no collision: levels.ts)
 *
 * The tool is treated as a cylinder of its diameter from the tip: exact for flat end mills,
 * on the safe side for bull and ball ends (their rounded corner is inside the cylinder).
 */
import type { Cutter } from "../types.ts";
import { BODY_CLEARANCE_MM, wideBodies } from "./levels.ts";
import { ARC_TOLERANCE_MM, difference, offset, offsetCoarse, union, type Paths64 } from "./polygons.ts";
import type { PartSlicer } from "./slicer.ts";
import type { InProcessStock } from "./stock.ts";

/** how far outside the stock (beyond touching it) the tool centre may go */
export const OUTSIDE_MM = 2;
/**
 * How far the tool keeps from stock it must not touch (taller than the depth of cut, or beside a
 * rapid): more than the material bookkeeping's error (polygons.ts, COARSE_TOLERANCE_MM), so the
 * simulation, which counts any cell centre inside the tool, finds no contact.
 */
export const CLEARANCE_MM = 0.015;

export interface CentreRegionSpec {
  part: PartSlicer;
  stock: InProcessStock;
  cutter: Cutter;
  z: number;
  allowance_xy: number;
  /** stock above z + this within the tool is out of bounds; null: no limit */
  depth_of_cut: number | null;
  /** the stock to read for the depth of cut, when not `stock` (walls.ts forgives its own cuts) */
  depth_stock?: InProcessStock;
}

export function toolCentreRegion(spec: CentreRegionSpec): Paths64 {
  const { part, stock, cutter, z } = spec;
  const radius = cutter.diameter / 2;
  const outline = offset(stock.rect, radius + OUTSIDE_MM);
  // grown by the arc tolerance too: the polygon's chords then stay at least the radius away
  const forbidden: Paths64[] = [offset(part.shadow(z), radius + spec.allowance_xy + ARC_TOLERANCE_MM)];
  if (spec.depth_of_cut !== null) {
    // the part above is kept out exactly by its shadow: only stock that could be cut counts here
    const h = z + spec.depth_of_cut + 1e-6;
    const above = difference((spec.depth_stock ?? stock).remainingAbove(h), part.shadow(h));
    if (above.length > 0) forbidden.push(offsetCoarse(above, radius + CLEARANCE_MM));
  }
  for (const body of wideBodies(cutter)) {
    const h = z + body.from;
    const material = union(part.shadow(h), stock.remainingAbove(h));
    if (material.length > 0) forbidden.push(offsetCoarse(material, body.radius + BODY_CLEARANCE_MM));
  }
  return difference(outline, union(...forbidden));
}
