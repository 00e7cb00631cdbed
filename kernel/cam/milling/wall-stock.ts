/**
 * Where a wall pass has stock to take. The larger tools finish every wall they reach; what a
 * smaller finisher after them is for is the rest: corners tighter than them, slots narrower,
 * depths below their reach. Running it along the walls they finished is time at the small tool's
 * feed for nothing (and a small tool is often one the spindle cannot turn at its recommended
 * speed: planner/spindle-limited.ts). Its passes are cut down to where the stock left on the
 * walls is thicker than its allowance + REST_MARGIN_MM, with a run-in at each end along the
 * finished wall.
 *
 * partC from its +Z side with the starter library (vmc-850, aluminium): the 3 mm long-neck end
 * mill's wall finishing after the 16, 10, 6 and 3 mm ones ran 3,136 mm of feed (417 s), 89 mm of
 * it in stock; cut down, 1,755 mm (207 s). docs/cam-planning.md (Tools a spindle can turn) has the
 * whole part's numbers.
 */
import type { PartSlicer } from "./slicer.ts";
import {
  COARSE_TOLERANCE_MM,
  clipOpen,
  components,
  difference,
  isEmpty,
  offset,
  pathLength,
  type Paths64,
} from "./polygons.ts";
import { REST_MARGIN_MM } from "./regions.ts";

/**
 * A pass starts a tool radius before the stock left on its wall and ends a radius after it (the
 * lead arcs, of at most 0.75 radius, need free space beside the wall), at least this far (mm).
 */
export const RUN_IN_MM = 0.25;
/** stock pieces smaller than this (mm²) are what the grown shadow's chords leave at convex corners, not stock */
const STOCK_PIECE_MM2 = 1e-4;
/** wall left out of the passes under this length (mm) is not worth cutting them for */
const BARE_WALL_MM = 0.05;

/**
 * The wall passes (open or closed polylines of the tool centre at level z) cut down to where they
 * come within a run-in of the stock left on the walls beyond `allowance`; `material` is the stock
 * at and above z outside the part's shadow. The passes are returned as they are when they have
 * stock along all their length (a first finisher after roughing).
 */
export function passesOverStock(
  passes: Paths64,
  part: PartSlicer,
  material: Paths64,
  z: number,
  allowance: number,
  radius: number,
): Paths64 {
  if (passes.length === 0) return passes;
  const left = difference(material, part.grownShadow(z, allowance + REST_MARGIN_MM, COARSE_TOLERANCE_MM));
  const stock = components(left).filter((piece) => !isEmpty(piece, STOCK_PIECE_MM2));
  if (stock.length === 0) return [];
  const near = offset(stock.flat(), radius + Math.max(radius, RUN_IN_MM), COARSE_TOLERANCE_MM);
  const bare = clipOpen(passes, near, "outside").reduce((sum, path) => sum + pathLength(path), 0);
  return bare < BARE_WALL_MM ? passes : clipOpen(passes, near, "inside");
}
