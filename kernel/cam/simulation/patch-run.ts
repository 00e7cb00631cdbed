/**
 * Operations run over a small square patch of the part on a fine grid, alone: the simulation's
 * exact sweeps on cells far finer than the setup's 0.1 mm field, from a stock 1 mm above the
 * part's highest point there. What the scallop measure (scallop-left.ts) and the rest measure
 * (rest-left.ts) read: per cell the part's height, the material left and whether a given set of
 * faces is the cell's top, and the material left taken along the surface's normal.
 */
import type { Operation, TriangleSoup, Vec2 } from "../types.ts";
import { type Grid, stockGrid } from "./height-field.ts";
import { partHeights } from "./part-heights.ts";
import { simulateSetup } from "./simulate.ts";

/** a face's height within this of the part's at a cell: the face is the cell's top (mm) */
const TOP_MM = 1e-6;

export interface PatchRun {
  grid: Grid;
  /** the part's height per cell (-Infinity off the part) */
  part: Float32Array;
  /** the stock's height per cell after the operations */
  left: Float32Array;
  /** the stock's top before them */
  top: number;
  /** the given faces' height per cell (the part's when none were given) */
  faces: Float32Array;
}

/**
 * `operations` in turn over the square of half side `half` round `centre` on `cellMm` cells;
 * null when no cell of it lies on the part. `faces`: the triangles whose cells `onFaces` tells.
 */
export function runOverPatch(
  operations: readonly Operation[],
  part: TriangleSoup,
  patch: { centre: Vec2; half: number; cellMm: number; faces?: TriangleSoup },
): PatchRun | null {
  const [cx, cy] = patch.centre;
  const { half } = patch;
  const grid = stockGrid({ min: [cx - half, cy - half, 0], max: [cx + half, cy + half, 1] }, patch.cellMm);
  const heights = partHeights(grid, part);
  let high = -Infinity;
  let low = Infinity;
  for (const h of heights.heights)
    if (Number.isFinite(h)) {
      high = Math.max(high, h);
      low = Math.min(low, h);
    }
  if (!Number.isFinite(high)) return null;
  const top = high + 1;
  const run = simulateSetup({
    stock: { min: [cx - half, cy - half, low - 1], max: [cx + half, cy + half, top] },
    part,
    operations: [...operations],
    cellSize: patch.cellMm,
    partHeights: heights,
    maxDetails: 0,
  });
  const faces = patch.faces === undefined ? heights.heights : partHeights(grid, patch.faces).heights;
  return { grid, part: heights.heights, left: run.field.heights, top, faces };
}

/** Whether the run's faces are cell (i, j)'s top. */
export function onFaces(run: PatchRun, i: number, j: number): boolean {
  const c = j * run.grid.nx + i;
  return (run.faces[c] as number) >= (run.part[c] as number) - TOP_MM;
}

/**
 * The material left over cell (i, j) along the surface's normal: the vertical height times the
 * normal's z, read from the part's heights round the cell (an interior cell); null where they do
 * not tell the slope (a neighbour off the part).
 */
export function leftAlongNormal(run: PatchRun, i: number, j: number): number | null {
  const { nx, dx, dy } = run.grid;
  const at = (a: number, b: number) => run.part[b * nx + a] as number;
  const gx = (at(i + 1, j) - at(i - 1, j)) / (2 * dx);
  const gy = (at(i, j + 1) - at(i, j - 1)) / (2 * dy);
  if (!Number.isFinite(gx) || !Number.isFinite(gy)) return null;
  return Math.max(0, (run.left[j * nx + i] as number) - at(i, j)) / Math.hypot(1, gx, gy);
}
