/**
 * Roughing and rest roughing in Z levels.
 *
 * At each level (levels.ts: stepdown apart, on every floor + allowance_z) the tool centre's
 * allowed region (regions.ts: stock grown by the radius, minus the part shadow grown by radius +
 * allowance_xy, minus where stock deeper than the stepdown or the shank and holder would be hit)
 * is split into its connected pieces, nearest first, and each is cleared from its entry outwards
 * (clearing.ts). What the tool swept at the level becomes a cleared layer of the stock, so the
 * next level, and the next operation, knows what is left.
 *
 * Rest roughing is the same with a smaller tool on the stock a larger one left: only where
 * material is still there gets cut (the free area, where the tool touches nothing, is nearly
 * everything, and the passes grow from it into the corners).
 */
import type { OperationKind, Vec2 } from "../types.ts";
import { clearRegion, LINK_TOLERANCE_MM } from "./clearing.ts";
import { zLevels } from "./levels.ts";
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
  contains,
  difference,
  distanceToBoundary,
  isEmpty,
  offset,
  union,
  type Paths64,
} from "./polygons.ts";
import { regionWithin, ShadowsAhead, workWindows } from "./regions.ts";
import type { ClearedLayer } from "./stock.ts";

export function roughing(request: MillingRequest): MillingOutcome {
  return roughInLevels(request, "roughing");
}

/** Roughing on what an earlier (larger) tool left: request.stock must hold its cleared layers. */
export function restRoughing(request: MillingRequest): MillingOutcome {
  if (request.stock.layers.length === 0)
    return refusal("rest roughing needs the stock an earlier roughing left (the stock has no cleared layers)");
  return roughInLevels(request, "rest_roughing");
}

function roughInLevels(request: MillingRequest, kind: OperationKind): MillingOutcome {
  const { part, tool, parameters } = request;
  const unusable = unusableTool(tool, parameters);
  if (unusable) return refusal(unusable);
  const top = request.stock.highest();
  if (!Number.isFinite(top)) return refusal("no stock is left to rough");
  const bottom = request.bottom_z ?? part.bottom_z;
  const levels = zLevels({
    top,
    bottom,
    floors: part.floors,
    stepdown: parameters.stepdown_mm,
    allowance_z: parameters.allowance_z_mm,
  });
  if (levels.length === 0)
    return refusal(`nothing lies between the stock's top (${top.toFixed(3)}) and the bottom (${bottom.toFixed(3)})`);

  const clearance = request.stock.top_z + CLEARANCE_ABOVE_STOCK_MM;
  let stock = request.stock;
  const writer = new ToolpathWriter(
    tool,
    clearance,
    { feed: parameters.feed_mm_min, plunge: parameters.plunge_feed_mm_min },
    materialHeights(part, stock),
  );
  const label = kind === "roughing" ? "Roughing" : "Rest roughing";
  // the writer's moves, as they grow: what is written stays as it is
  const operation = makeOperation(request, kind, `${label} with ${tool.name}`, clearance, writer.moves);
  const cleared: ClearedLayer[] = [];
  const skipped: SkippedRegion[] = [];
  const notes: string[] = [];
  const unreachable: number[] = [];
  if (parameters.stepover_mm > 0.95 * tool.diameter)
    notes.push(`stepover ${parameters.stepover_mm} mm reduced to 95 % of the diameter`);

  const shadows = new ShadowsAhead(part, tool, levels, parameters.allowance_xy_mm, parameters.stepdown_mm);
  for (const [i, z] of levels.entries()) {
    shadows.before(i);
    // the stock at or above the level that can be cut (the part's own volume is not)
    const material = difference(stock.remainingAbove(z), part.shadow(z));
    // only round what this tool can take beyond its allowance (a rest tool: the corners and
    // narrow places the larger ones left)
    const windows = workWindows(part, stock, tool, material, z, parameters.allowance_xy_mm, request.focus);
    shadows.decided(i, windows === null || windows.length > 0);
    if (windows !== null && windows.length === 0) continue;
    const allowed = regionWithin(
      { part, stock, cutter: tool, z, allowance_xy: parameters.allowance_xy_mm, depth_of_cut: parameters.stepdown_mm },
      windows,
    );
    if (isEmpty(allowed)) {
      // computed whole and empty: no level below has room either (regions.ts: belowNothing)
      if (windows === null) {
        unreachable.push(...levels.slice(i));
        break;
      }
      unreachable.push(z);
      continue;
    }
    writer.heights = materialHeights(part, stock);
    const allowedGrown = offset(allowed, LINK_TOLERANCE_MM);
    const sweeps: Paths64[] = [];
    const pieces = components(allowed);
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
    request.onMoves?.(operation);
  }
  if (unreachable.length > 0) {
    const range =
      unreachable.length === 1
        ? `z ${fmt(unreachable[0])}`
        : `${unreachable.length} levels from z ${fmt(unreachable[0])} to ${fmt(unreachable[unreachable.length - 1])}`;
    notes.push(
      `${range}: stock left but no position within reach (stock deeper than the stepdown above it, or the neck, shank or holder would touch)`,
    );
  }
  const moves = writer.finish();
  if (!moves.some((move) => move.kind === "linear" || move.kind === "arc")) {
    const why =
      skipped.length > 0
        ? `every region with material was skipped: ${skipped[0]?.reason}`
        : "no material is within the tool's reach";
    return refusal(`nothing to ${kind === "roughing" ? "rough" : "rest rough"}: ${why}`, skipped, notes);
  }
  return { operation, reason: null, cleared, skipped, notes };
}

function fmt(z: number | undefined): string {
  return (z ?? NaN).toFixed(3);
}

/** Index of the region nearest a point (the first when there is no point). */
export function nearest(regions: Paths64[], from: Vec2 | null): number {
  if (from === null) return 0;
  let best = 0;
  let bestDistance = Infinity;
  regions.forEach((region, index) => {
    const d = contains(region, from) ? 0 : distanceToBoundary(region, from);
    if (d < bestDistance) {
      bestDistance = d;
      best = index;
    }
  });
  return best;
}
