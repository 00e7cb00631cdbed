/**
 * The stock as the viewer colours it against the part: per cell of a setup's height field, its
 * height and one of four classes, the convention a CAM user knows from Fusion: material left
 * beyond the finishing tolerance (blue), within it (green), the part cut into (red), no part
 * under the cell (the stock beside the part, drawn plain).
 *
 * "Within" is the planner's finishing tolerance (planner/completeness.ts finishingTolerance:
 * 0.1 mm, more on coarse grids), the margin the plan's own completeness allows; "cut into" is the
 * simulation's gouge tolerance (0.01 mm), the depth its verification counts as a gouge.
 */
import type { HeightField } from "../simulation/height-field.ts";
import { materialLeft } from "../simulation/material-left.ts";
import type { PartHeights } from "../simulation/part-heights.ts";
import type { Box3, Frame } from "../types.ts";

/** A cell's class, as the Uint8 per cell holds it. */
export const STOCK_CLASS = { left: 0, within: 1, cut_into: 2, no_part: 3 } as const;

/** The grid's longer side has at most this many cells: a quarter of a million cells, 1.3 MB on the wire. */
export const STOCK_VIEW_MAX_SIDE = 512;

export interface StockView {
  x0: number;
  y0: number;
  nx: number;
  ny: number;
  dx: number;
  dy: number;
  /** the stock's bottom and top in the setup's frame */
  bottom: number;
  top: number;
  /** row-major (j * nx + i): the top of the material over each cell */
  heights: Float32Array;
  /** row-major: STOCK_CLASS */
  classes: Uint8Array;
  /** material left over the part on this grid, mm³ (simulation/material-left.ts) */
  material_left_mm3: number;
  /** cells higher than the part by more than this are left */
  tolerance_mm: number;
  /** cells lower than the part by more than this cut into it */
  cut_tolerance_mm: number;
  /** the setup's frame in the workpiece's coordinates */
  frame: Frame;
}

/** The cell size for the viewer: the planner's, or coarser where the stock would need more than STOCK_VIEW_MAX_SIDE cells a side. */
export function stockViewCellSize(stock: Box3, plannerCellMm: number): number {
  const side = Math.max(stock.max[0] - stock.min[0], stock.max[1] - stock.min[1]);
  return Math.max(plannerCellMm, side / STOCK_VIEW_MAX_SIDE);
}

/** Each cell of `field` classed against `part` (the same grid). */
export function classifyStock(
  field: HeightField,
  part: PartHeights,
  options: { toleranceMm: number; cutToleranceMm: number; frame: Frame },
): StockView {
  const classes = new Uint8Array(field.heights.length);
  for (let k = 0; k < classes.length; k += 1) {
    const p = part.heights[k] as number;
    const h = field.heights[k] as number;
    if (!Number.isFinite(p)) classes[k] = STOCK_CLASS.no_part;
    else if (h - p > options.toleranceMm) classes[k] = STOCK_CLASS.left;
    else if (p - h > options.cutToleranceMm) classes[k] = STOCK_CLASS.cut_into;
    else classes[k] = STOCK_CLASS.within;
  }
  return {
    x0: field.x0,
    y0: field.y0,
    nx: field.nx,
    ny: field.ny,
    dx: field.dx,
    dy: field.dy,
    bottom: field.bottom,
    top: field.top,
    heights: field.heights.slice(),
    classes,
    material_left_mm3: materialLeft(field, part).left_mm3,
    tolerance_mm: options.toleranceMm,
    cut_tolerance_mm: options.cutToleranceMm,
    frame: options.frame,
  };
}
