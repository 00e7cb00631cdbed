/**
 * The in-process stock as 2.5D milling leaves it: the stock box with prisms taken out. Every
 * flat-bottomed cut at a level z removes, within the area the tool swept, everything from z up:
 * a ClearedLayer. What is left at a height h is then the stock rectangle minus the layers at or
 * below h. Toolpaths read it to know where material is (what to cut, where to enter, how high to
 * rapid) and hand back the layers they cleared, which the caller adds for the next operation.
 *
 * It never sees the part: the part is inside the stock, and the region a tool may go is decided
 * by the slicer. Slivers thinner than 2 x SLIVER_MM are not material (what rounding leaves between
 * two cuts that meet), well under the 0.01 mm the simulation counts as touching.
 */
import type { Box3 } from "../types.ts";
import { bounds, clipToRect, difference, intersection, isEmpty, open, rectangle, union, SCALE, type Paths64 } from "./polygons.ts";

export const SLIVER_MM = 0.002;
/** heights closer than this are the same layer */
const SAME_HEIGHT_MM = 1e-6;

/** Within `area` (Clipper units, polygons.ts), the stock above z has been removed. */
export interface ClearedLayer {
  z: number;
  area: Paths64;
}

export class InProcessStock {
  readonly box: Box3;
  /** the stock's XY rectangle */
  readonly rect: Paths64;
  /** lowest first, one per height */
  readonly layers: readonly ClearedLayer[];
  private readonly remaining = new Map<number, Paths64>();

  constructor(box: Box3, layers: readonly ClearedLayer[] = []) {
    this.box = box;
    this.rect = rectangle([box.min[0], box.min[1]], [box.max[0], box.max[1]]);
    this.layers = mergeLayers(layers);
  }

  /** A new stock with more layers cleared (this one is unchanged). */
  withCleared(layers: readonly ClearedLayer[]): InProcessStock {
    return layers.length === 0 ? this : new InProcessStock(this.box, [...this.layers, ...layers]);
  }

  /** The stock's top face (z of the untouched stock). */
  get top_z(): number {
    return this.box.max[2];
  }

  /** The highest stock left anywhere, -Infinity when none is left. */
  highest(): number {
    return this.topOver(this.rect);
  }

  /** XY shadow of the stock still there at heights >= z. */
  remainingAbove(z: number): Paths64 {
    if (z > this.box.max[2] - SAME_HEIGHT_MM) return [];
    const key = Math.round(z * 1e6) / 1e6;
    const cached = this.remaining.get(key);
    if (cached) return cached;
    const cleared = this.layers.filter((layer) => layer.z <= key + SAME_HEIGHT_MM).map((layer) => layer.area);
    const result = cleared.length === 0 ? this.rect : open(difference(this.rect, union(...cleared)), SLIVER_MM);
    this.remaining.set(key, result);
    return result;
  }

  /** The highest stock left over a region, -Infinity when none. */
  topOver(region: Paths64): number {
    let left = intersection(region, this.rect);
    if (isEmpty(left)) return -Infinity;
    for (const layer of this.layers) {
      const box = bounds(left);
      const margin = Math.round(SCALE * 0.01);
      const near = clipToRect(layer.area, { left: box.left - margin, top: box.top - margin, right: box.right + margin, bottom: box.bottom + margin });
      if (near.length === 0) continue;
      left = difference(left, near);
      if (isEmpty(left, 1e-5)) return layer.z;
    }
    return this.box.max[2];
  }
}

function mergeLayers(layers: readonly ClearedLayer[]): ClearedLayer[] {
  const sorted = [...layers].filter((layer) => layer.area.length > 0).sort((a, b) => a.z - b.z);
  const merged: ClearedLayer[] = [];
  for (const layer of sorted) {
    const last = merged[merged.length - 1];
    if (last && layer.z - last.z <= SAME_HEIGHT_MM) merged[merged.length - 1] = { z: last.z, area: union(last.area, layer.area) };
    else merged.push(layer);
  }
  return merged;
}
