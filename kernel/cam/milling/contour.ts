/**
 * Outer profile contouring: wall passes (walls.ts) around the part's outer silhouette only, the
 * shadow's outer loops with its holes filled at each level, clockwise (climb) with the lead-in
 * arcs from outside, from the part's top down to the bottom (default the part's lowest z).
 */
import type { MillingOutcome, MillingRequest } from "./operation.ts";
import { wallPasses } from "./walls.ts";

export function contour(request: MillingRequest): MillingOutcome {
  return wallPasses(request, "contour", true);
}
