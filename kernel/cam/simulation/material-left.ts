/**
 * Material left over the part, and how much of it there was to remove.
 *
 * Removable, per cell: the stock's top down to the part's top there, or down to the part's lowest
 * z in this frame where the part is lower or absent. Material below the part's bottom (a base
 * held in the vice, what a later setup or the saw takes) is not this setup's to remove, and is
 * counted neither as removable nor as left.
 */
import type { Vec2 } from "../types.ts";
import type { HeightField } from "./height-field.ts";
import type { PartHeights } from "./part-heights.ts";

export interface MaterialLeft {
  left_mm3: number;
  removable_mm3: number;
  /** left of removable, in percent (0 when nothing was removable) */
  left_pct: number;
}

/** Within `region` (cells whose centres lie in it) or over the whole stock. */
export function materialLeft(field: HeightField, part: PartHeights, region?: { min: Vec2; max: Vec2 }): MaterialLeft {
  // without a part, the whole stock is removable
  const floor = Number.isFinite(part.lowest) ? Math.max(part.lowest, field.bottom) : field.bottom;
  let i0 = 0,
    i1 = field.nx - 1,
    j0 = 0,
    j1 = field.ny - 1;
  if (region) {
    i0 = Math.max(i0, Math.ceil((region.min[0] - field.x0) / field.dx - 0.5));
    i1 = Math.min(i1, Math.floor((region.max[0] - field.x0) / field.dx - 0.5));
    j0 = Math.max(j0, Math.ceil((region.min[1] - field.y0) / field.dy - 0.5));
    j1 = Math.min(j1, Math.floor((region.max[1] - field.y0) / field.dy - 0.5));
  }
  let left = 0,
    removable = 0;
  for (let j = j0; j <= j1; j++) {
    for (let k = j * field.nx + i0, end = j * field.nx + i1; k <= end; k++) {
      const p = part.heights[k] as number;
      const under = Math.max(p, floor);
      const h = field.heights[k] as number;
      if (h > under) left += h - under;
      if (field.top > under) removable += field.top - under;
    }
  }
  const area = field.dx * field.dy;
  const left_mm3 = left * area,
    removable_mm3 = removable * area;
  return { left_mm3, removable_mm3, left_pct: removable_mm3 > 0 ? (100 * left_mm3) / removable_mm3 : 0 };
}
