/**
 * The material operations leave at given points of the part, measured: the operations run in
 * turn over a small patch round each point on a fine grid (the simulation's exact sweeps,
 * scallop-left.ts's cells), the material above the part's triangles at the cells within `within`
 * of the point (those the given faces top) taken along the surface's normal (the vertical height times the normal's z, from
 * the part's heights round the cell). What pencil finishing is judged by: the rest a finishing
 * ball leaves in a valley before and after the smaller ball's passes.
 */
import type { Operation, TriangleSoup, Vec2 } from "../types.ts";
import { leftAlongNormal, onFaces, runOverPatch } from "./patch-run.ts";
import { SCALLOP_CELL_MM } from "./scallop-left.ts";

/** a patch's half side beyond `within` and the largest tool's radius (mm): the sweeps' border cells stay out */
const PATCH_MARGIN_MM = 0.5;

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
  for (const centre of points) {
    const run = runOverPatch(operations, part, {
      centre,
      half,
      cellMm: SCALLOP_CELL_MM,
      ...(where.faces === undefined ? {} : { faces: where.faces }),
    });
    if (run === null) continue;
    const { nx, ny, dx, dy, x0, y0 } = run.grid;
    let thickest = -Infinity;
    for (let j = 1; j < ny - 1; j += 1)
      for (let i = 1; i < nx - 1; i += 1) {
        const x = x0 + (i + 0.5) * dx;
        const y = y0 + (j + 0.5) * dy;
        if (Math.hypot(x - centre[0], y - centre[1]) > within) continue;
        const c = j * nx + i;
        const surface = run.part[c] as number;
        if (!Number.isFinite(surface) || !onFaces(run, i, j)) continue;
        // where the heights round it do not tell the slope, the vertical height
        const left = leftAlongNormal(run, i, j) ?? Math.max(0, (run.left[c] as number) - surface);
        thickest = Math.max(thickest, left);
      }
    if (Number.isFinite(thickest)) each.push(thickest);
  }
  if (each.length === 0) return null;
  return { thickest_mm: Math.max(...each), mean_mm: each.reduce((a, b) => a + b, 0) / each.length };
}
