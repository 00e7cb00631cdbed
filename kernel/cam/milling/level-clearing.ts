/**
 * The level loop roughing and floor finishing share. At each level: the material still there,
 * the work windows round what this tool can take (regions.ts), where the tool centre may go
 * within them; then the pieces the caller picks from that are cleared nearest first, each from
 * its entry outwards (clearing.ts). What the tool swept at the level becomes a cleared layer of
 * the stock, so the next level knows what is left.
 */
import type { Vec2 } from "../types.ts";
import { clearRegionAdaptive } from "./adaptive/clear-adaptive.ts";
import { levelLoad } from "./adaptive/parameters.ts";
import { clearRegion, LINK_TOLERANCE_MM, type ClearResult, type ClearSpec } from "./clearing.ts";
import { materialHeights, xy, type ToolpathWriter } from "./linking.ts";
import type { MillingRequest, SkippedRegion } from "./operation.ts";
import {
  contains,
  difference,
  distanceToBoundary,
  intersection,
  isEmpty,
  offset,
  union,
  type Paths64,
  type Rect64,
} from "./polygons.ts";
import { regionWithin, ShadowsAhead, workWindows } from "./regions.ts";
import type { ClearedLayer } from "./stock.ts";

/** One level as the loop sees it before anything is cleared. */
export interface Level {
  index: number;
  z: number;
  /** the stock at or above the level that can be cut (the part's own volume is not) */
  material: Paths64;
  /** the work windows; null when the region was computed whole */
  windows: Rect64[] | null;
  /** where the tool centre may go */
  allowed: Paths64;
}

/** The pieces to clear at a level; "skip" passes the level by, "stop" ends the loop. */
export type LevelPieces = Paths64[] | "skip" | "stop";

/**
 * Clears the levels in order on request.stock, appending the cuts to `writer`. `piecesOf` picks
 * what to clear at each level; `afterLevel` runs after each level that was not passed by.
 */
export function clearLevels(
  request: MillingRequest,
  levels: readonly number[],
  writer: ToolpathWriter,
  piecesOf: (level: Level) => LevelPieces,
  afterLevel?: () => void,
): { cleared: ClearedLayer[]; skipped: SkippedRegion[]; stopped: boolean } {
  const { part, tool, parameters } = request;
  let stock = request.stock;
  const cleared: ClearedLayer[] = [];
  const skipped: SkippedRegion[] = [];
  const adaptive = request.adaptive;
  // each adaptive level takes the load of the depth it cuts: below the level before (the stock's top for the first)
  const clearAt = (depth: number): ((spec: ClearSpec) => ClearResult) => {
    if (adaptive === undefined) return clearRegion;
    const load =
      adaptive.section_mm2 === undefined
        ? { engagement_mm: adaptive.engagement_mm, feed_mm_min: parameters.feed_mm_min }
        : levelLoad(adaptive, tool.diameter, depth);
    return (spec) =>
      clearRegionAdaptive({
        ...spec,
        parameters: { ...spec.parameters, feed_mm_min: load.feed_mm_min },
        engagement_mm: load.engagement_mm,
        base_feed_mm_min: adaptive.base_feed_mm_min,
        ...(request.budget === undefined ? {} : { budget: request.budget }),
      });
  };
  let above = stock.highest();
  const shadows = new ShadowsAhead(part, tool, levels, parameters.allowance_xy_mm, parameters.stepdown_mm);
  for (const [index, z] of levels.entries()) {
    if (request.budget?.exhausted) return { cleared, skipped, stopped: true };
    shadows.before(index);
    const inside = request.within?.(z) ?? null;
    // a level that is not this roughing's (another region's): nothing to read there
    if (inside !== null && inside.length === 0) {
      shadows.decided(index, false);
      continue;
    }
    const material = difference(stock.remainingAbove(z), part.shadow(z));
    // only round what this tool can take beyond its allowance (a rest tool: the corners and
    // narrow places the larger ones left)
    const windows = workWindows(part, stock, tool, material, z, parameters.allowance_xy_mm, request.focus);
    shadows.decided(index, windows === null || windows.length > 0);
    if (windows !== null && windows.length === 0) continue;
    const reachable = regionWithin(
      { part, stock, cutter: tool, z, allowance_xy: parameters.allowance_xy_mm, depth_of_cut: parameters.stepdown_mm },
      windows,
    );
    const allowed = inside === null ? reachable : intersection(reachable, inside);
    // room elsewhere, none within: another region's, not a level nothing below reaches
    if (inside !== null && isEmpty(allowed) && !isEmpty(reachable)) continue;
    const pieces = piecesOf({ index, z, material, windows, allowed });
    if (pieces === "stop") break;
    if (pieces === "skip") continue;
    writer.beginLevel(materialHeights(part, stock), z);
    const clear = clearAt(above - z);
    above = z;
    const allowedGrown = offset(allowed, LINK_TOLERANCE_MM);
    const sweeps: Paths64[] = [];
    while (pieces.length > 0) {
      if (request.budget?.exhausted) return { cleared, skipped, stopped: true };
      const at = nearest(pieces, writer.position === null ? null : xy(writer.position));
      const region = pieces.splice(at, 1)[0] as Paths64;
      const result = clear({
        z,
        region,
        allowedGrown,
        material,
        cutter: tool,
        parameters,
        heights: writer.heights,
        from: writer.position === null ? null : xy(writer.position),
        ...(request.thin_chip_max_feed_mm_min === undefined
          ? {}
          : { max_feed_mm_min: request.thin_chip_max_feed_mm_min }),
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
    afterLevel?.();
  }
  return { cleared, skipped, stopped: false };
}

/** Index of the region nearest a point (the first when there is no point). */
function nearest(regions: Paths64[], from: Vec2 | null): number {
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
