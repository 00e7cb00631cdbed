/**
 * Finishing: walls and floors.
 *
 * Wall finishing runs wall passes (walls.ts) at exactly the tool radius + allowance_xy from every
 * wall (allowance 0: the flank touches the wall), level by level from the part's top down to
 * each floor, climb milling, with lead-in and lead-out arcs.
 *
 * Floor finishing takes each floor (an up-facing horizontal face) at its own height with no axial
 * allowance, over the positions where the tool touches the floor, while the walls keep
 * allowance_xy (so the wall passes, run afterwards, finish them without a step): each floor is
 * cleared like a roughing level (clearing.ts), so it is entered from air or with a helix, ramp or
 * short plunge through the floor stock roughing left.
 */
import { clearRegion, LINK_TOLERANCE_MM } from "./clearing.ts";
import { materialHeights, ToolpathWriter, xy } from "./linking.ts";
import {
  CLEARANCE_ABOVE_STOCK_MM,
  makeOperation,
  refusal,
  unusableTool,
  type MillingOutcome,
  type MillingRequest,
  type SkippedRegion,
} from "./operation.ts";
import {
  components,
  difference,
  intersection,
  isEmpty,
  offset,
  offsetCovering,
  union,
  type Paths64,
} from "./polygons.ts";
import { CLEARANCE_MM, nearWindows, regionWithin, ShadowsAhead, workWindows } from "./regions.ts";
import { nearest } from "./roughing.ts";
import type { ClearedLayer } from "./stock.ts";
import { wallPasses } from "./walls.ts";

/** how far beyond touching the floor floor finishing goes */
const FLOOR_REACH_MM = 1;

export function wallFinishing(request: MillingRequest): MillingOutcome {
  return wallPasses(request, "wall_finishing", false);
}

export function floorFinishing(request: MillingRequest): MillingOutcome {
  const { part, tool, parameters } = request;
  const unusable = unusableTool(tool, parameters);
  if (unusable) return refusal(unusable);
  const radius = tool.diameter / 2;
  const bottom = request.bottom_z ?? part.bottom_z;
  const top = request.stock.highest();
  const floors = part.floors.filter((z) => z >= bottom - 1e-9 && z <= top + 1e-9);
  if (floors.length === 0) return refusal("the part has no floor (up-facing horizontal face) below the stock's top");

  const clearance = request.stock.top_z + CLEARANCE_ABOVE_STOCK_MM;
  let stock = request.stock;
  const writer = new ToolpathWriter(
    tool,
    clearance,
    { feed: parameters.feed_mm_min, plunge: parameters.plunge_feed_mm_min },
    materialHeights(part, stock),
  );
  const cleared: ClearedLayer[] = [];
  const skipped: SkippedRegion[] = [];
  const shadows = new ShadowsAhead(part, tool, floors, parameters.allowance_xy_mm, parameters.stepdown_mm);
  for (const [i, z] of floors.entries()) {
    shadows.before(i);
    const material = difference(stock.remainingAbove(z), part.shadow(z));
    const windows = workWindows(part, stock, tool, material, z, parameters.allowance_xy_mm, request.focus);
    shadows.decided(i, windows === null || windows.length > 0);
    if (windows !== null && windows.length === 0) continue;
    const allowed = regionWithin(
      { part, stock, cutter: tool, z, allowance_xy: parameters.allowance_xy_mm, depth_of_cut: parameters.stepdown_mm },
      windows,
    );
    // where the tool's end touches the floor, and FLOOR_REACH_MM more to take in the wall
    // stock's foot (roughing's allowance_xy) and meet the air around, to come in from there
    const onFloor = intersection(allowed, offset(part.floorArea(z), radius + FLOOR_REACH_MM));
    if (isEmpty(onFloor)) continue;
    const air = difference(allowed, offsetCovering(nearWindows(material, windows, radius + 1), radius + CLEARANCE_MM));
    const target = union(onFloor, air);
    writer.heights = materialHeights(part, stock);
    const allowedGrown = offset(allowed, LINK_TOLERANCE_MM);
    const sweeps: Paths64[] = [];
    const pieces = components(target).filter((piece) => !isEmpty(intersection(piece, onFloor)));
    while (pieces.length > 0) {
      const index = nearest(pieces, writer.position === null ? null : xy(writer.position));
      const region = pieces.splice(index, 1)[0] as Paths64;
      const result = clearRegion({
        z,
        region,
        allowedGrown,
        material,
        cutter: tool,
        parameters,
        heights: writer.heights,
        from: writer.position === null ? null : xy(writer.position),
      });
      for (const cut of result.cuts) writer.append(cut);
      if (result.skipped) skipped.push(result.skipped);
      if (result.swept.length > 0) sweeps.push(result.swept);
    }
    if (sweeps.length > 0) {
      const layer = { z, area: union(...sweeps) };
      cleared.push(layer);
      stock = stock.withCleared([layer]);
    }
  }
  const moves = writer.finish();
  if (!moves.some((move) => move.kind === "linear" || move.kind === "arc")) {
    return refusal(
      skipped[0]
        ? `no floor could be finished: ${skipped[0].reason}`
        : "no floor has stock left on it within the tool's reach",
      skipped,
    );
  }
  return {
    operation: makeOperation(request, "floor_finishing", `Finishing floors with ${tool.name}`, clearance, moves),
    reason: null,
    cleared,
    skipped,
    notes: [],
  };
}
