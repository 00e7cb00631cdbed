/**
 * The material operations leave at given points of the part, measured: the operations run in
 * turn over a small patch round each point on a fine grid (the simulation's exact sweeps,
 * scallop-left.ts's cells), the material above the part's triangles at the cells within `within`
 * of the point (those the given faces top) taken along the surface's normal (the vertical height times the normal's z, from
 * the part's heights round the cell). What pencil finishing is judged by: the rest a finishing
 * ball leaves in a valley before and after the smaller ball's passes.
 */
import type { Operation, TriangleSoup, Vec2 } from "../types.ts";
import { stockGrid } from "./height-field.ts";
import { partHeights } from "./part-heights.ts";
import { SCALLOP_CELL_MM } from "./scallop-left.ts";
import { simulateSetup } from "./simulate.ts";

/** a patch's half side beyond `within` and the largest tool's radius (mm): the sweeps' border cells stay out */
const PATCH_MARGIN_MM = 0.5;
/** a face's height within this of the part's at a cell: the face is the cell's top (mm) */
const TOP_MM = 1e-6;

export interface RestLeft {
  /** the thickest material left at any of the points (mm, along the normal) */
  thickest_mm: number;
  /** the mean over the points of the thickest at each (mm) */
  mean_mm: number;
}

export interface RestWhere {
  /** the points the rest is measured round (setup frame) */
  points: readonly Vec2[];
  /** how far round each (mm) */
  within: number;
  /** only cells these triangles top count (the finished faces); default every cell of the part */
  faces?: TriangleSoup;
}

/** See the header; null when no cell round the points lies on the part (or the faces). */
export function restLeft(operations: readonly Operation[], part: TriangleSoup, where: RestWhere): RestLeft | null {
  const { points, within } = where;
  const radius = Math.max(...operations.map((op) => op.tool.diameter / 2));
  const half = within + radius + PATCH_MARGIN_MM;
  const each: number[] = [];
  for (const [cx, cy] of points) {
    const grid = stockGrid({ min: [cx - half, cy - half, 0], max: [cx + half, cy + half, 1] }, SCALLOP_CELL_MM);
    const heights = partHeights(grid, part);
    const faces = where.faces === undefined ? heights.heights : partHeights(grid, where.faces).heights;
    const { nx, ny, dx, dy, x0, y0 } = grid;
    const finite = [...heights.heights].filter(Number.isFinite);
    if (finite.length === 0) continue;
    const top = Math.max(...finite) + 1;
    const run = simulateSetup({
      stock: { min: [x0, y0, Math.min(...finite) - 1], max: [x0 + nx * dx, y0 + ny * dy, top] },
      part,
      operations: [...operations],
      cellSize: SCALLOP_CELL_MM,
      partHeights: heights,
      maxDetails: 0,
    });
    const at = (i: number, j: number) => heights.heights[j * nx + i] as number;
    let thickest = -Infinity;
    for (let j = 1; j < ny - 1; j += 1)
      for (let i = 1; i < nx - 1; i += 1) {
        const x = x0 + (i + 0.5) * dx;
        const y = y0 + (j + 0.5) * dy;
        if (Math.hypot(x - cx, y - cy) > within) continue;
        const surface = at(i, j);
        if (!Number.isFinite(surface) || !((faces[j * nx + i] as number) >= surface - TOP_MM)) continue;
        const gx = (at(i + 1, j) - at(i - 1, j)) / (2 * dx);
        const gy = (at(i, j + 1) - at(i, j - 1)) / (2 * dy);
        const slope = Number.isFinite(gx) && Number.isFinite(gy) ? Math.hypot(1, gx, gy) : 1;
        const left = run.field.heights[j * nx + i] as number;
        thickest = Math.max(thickest, Math.max(0, left - surface) / slope);
      }
    if (Number.isFinite(thickest)) each.push(thickest);
  }
  if (each.length === 0) return null;
  return { thickest_mm: Math.max(...each), mean_mm: each.reduce((a, b) => a + b, 0) / each.length };
}
