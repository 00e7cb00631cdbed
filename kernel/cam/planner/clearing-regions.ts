/**
 * The regions a roughing clears on its own: each closed pocket or slot (walled all round from
 * some level down), and the open rest (the outside of the profile, open slots and steps, and
 * everything above the pockets' tops). Each is where the tool centre stays (Clipper units, the
 * setup's XY), so the roughing can be made for each apart (MillingRequest.within) and its clearing
 * chosen per region (region-clearing.ts).
 *
 *
 * Seen from above the part's shadow only grows downwards (slicer.ts: shadow(z) is the material
 * above z), so the free space at a level holds the free space of every level below it. Reading
 * the levels top down, a component of the free space that does not reach the stock's outside is
 * a closed region from that level down; one within a region already found belongs to it. The
 * open region is what is left: the frame round the stock less the closed regions below their
 * tops, and everything above them (regionCentres): a closed region's roughing starts at its top,
 * on the stock the open region's left.
 */
import { zLevels } from "../milling/levels.ts";
import {
  area,
  bounds,
  boundsOverlap,
  components,
  difference,
  intersection,
  isEmpty,
  offset,
  rectangle,
  SCALE,
  union,
  type Paths64,
} from "../milling/polygons.ts";
import type { PartSlicer } from "../milling/slicer.ts";
import type { InProcessStock } from "../milling/stock.ts";
import type { Cutter, CuttingParameters, Vec2 } from "../types.ts";

export interface ClearingRegion {
  /** where the tool centre may go at and below `top_z` (Clipper units); the open region's: the frame round the stock */
  within: Paths64;
  /** walled all round from `top_z` down; false for the open region */
  closed: boolean;
  /** the highest level it is closed at; the stock's top for the open region */
  top_z: number;
  /** the free area at `top_z` (mm²); the open region's: the stock's outline less the closed ones' */
  area_mm2: number;
  /** a point of it (mm, the setup's XY) */
  at: Vec2;
}

/** levels this close to a closed region's top are its own (mm) */
const LEVEL_TOLERANCE_MM = 1e-6;
/** the frame round the stock the open region's tool centre may use: the tool's diameter and this */
const FRAME_MARGIN_MM = 5;

/**
 * The regions of a roughing with `tool` on `stock`, the open one first, then the closed ones top
 * down; one (the open region) where nothing is closed. Levels at `parameters`' stepdown; a closed
 * component the tool cannot enter (nothing left of it shrunk by the radius and the allowance)
 * is no region of its own.
 */
export function clearingRegions(spec: {
  part: PartSlicer;
  stock: InProcessStock;
  tool: Cutter;
  parameters: CuttingParameters;
}): ClearingRegion[] {
  const { part, stock, tool, parameters } = spec;
  const { box } = stock;
  const margin = tool.diameter + FRAME_MARGIN_MM;
  const frame = rectangle([box.min[0] - margin, box.min[1] - margin], [box.max[0] + margin, box.max[1] + margin]);
  const edge = bounds(frame);
  // open: reaching the frame's edge (a corner of it may be a jaw's, in the shadow)
  const reachesEdge = (piece: Paths64): boolean => {
    const b = bounds(piece);
    return b.left <= edge.left || b.top <= edge.top || b.right >= edge.right || b.bottom >= edge.bottom;
  };
  const top = stock.highest();
  const closed: ClearingRegion[] = [];
  if (Number.isFinite(top)) {
    const levels = zLevels({
      top,
      bottom: part.bottom_z,
      floors: part.floors,
      stepdown: parameters.stepdown_mm,
      allowance_z: parameters.allowance_z_mm,
    });
    const inset = tool.diameter / 2 + parameters.allowance_xy_mm;
    for (const z of levels) {
      for (const piece of components(difference(frame, part.shadow(z)))) {
        if (reachesEdge(piece)) continue;
        if (isEmpty(offset(piece, -inset))) continue;
        const box = bounds(piece);
        const known = closed.some(
          (region) => boundsOverlap(bounds(region.within), box) && !isEmpty(intersection(region.within, piece)),
        );
        if (known) continue;
        closed.push({ within: piece, closed: true, top_z: z, area_mm2: area(piece), at: pointIn(piece) });
      }
    }
  }
  const outline = rectangle([box.min[0], box.min[1]], [box.max[0], box.max[1]]);
  const pockets = union(...closed.map((region) => region.within));
  const open: ClearingRegion = {
    within: frame,
    closed: false,
    top_z: top,
    area_mm2: area(difference(outline, pockets)),
    at: [box.min[0], box.min[1]],
  };
  return [open, ...closed];
}

/** A point of a region: the first vertex of its outer loop, moved a little inside. */
function pointIn(region: Paths64): Vec2 {
  const inner = offset(region, -0.01);
  const loop = (isEmpty(inner) ? region : inner)[0] ?? [];
  const p = loop[0] ?? { x: 0, y: 0 };
  return [p.x / SCALE, p.y / SCALE];
}

/**
 * Where the tool centre of regions[index]'s roughing may go at each level: a closed region's
 * within it at and below its top, nowhere above; the open region's everywhere but in the closed
 * regions below their tops (null: anywhere).
 */
export function regionCentres(regions: readonly ClearingRegion[], index: number): (z: number) => Paths64 | null {
  const region = regions[index] as ClearingRegion;
  if (region.closed) return (z) => (z <= region.top_z + LEVEL_TOLERANCE_MM ? region.within : []);
  const closed = regions.filter((r) => r.closed);
  // the closed regions below z change only at their tops: one difference per set of them
  const known = new Map<string, Paths64 | null>();
  return (z) => {
    const below = closed.filter((r) => z <= r.top_z + LEVEL_TOLERANCE_MM);
    const key = below.map((r) => closed.indexOf(r)).join(",");
    let centres = known.get(key);
    if (centres === undefined) {
      centres = below.length === 0 ? null : difference(region.within, union(...below.map((r) => r.within)));
      known.set(key, centres);
    }
    return centres;
  };
}
