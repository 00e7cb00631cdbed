/**
 * The largest scallop an operation leaves on the faces it finished, measured: the operation run
 * alone over small patches of the faces on a fine grid (the simulation's exact sweeps, SCALLOP_CELL_MM
 * cells; the setup's 0.1 mm field is too coarse for a 0.01 mm scallop), each cell's material left
 * above the part's triangles there taken along the surface's normal (the vertical height times
 * the normal's z, read from the part's heights round the cell). Only cells whose top is one of
 * the finished faces and which the tool cut count, and of those only the ones with no other face
 * on top within the tool's radius: what a ball leaves in the corner where a dome meets a floor is
 * rest material, not a scallop.
 */
import type { Operation, TriangleSoup, Vec2 } from "../types.ts";
import { leftAlongNormal, onFaces, runOverPatch } from "./patch-run.ts";

/** the patches' cells (mm): a 0.01 mm scallop between passes 0.3 mm apart spans six of them */
export const SCALLOP_CELL_MM = 0.05;
/** a patch's side (mm) */
export const SCALLOP_PATCH_MM = 2;

/** The largest scallop (mm) over patches centred at `centres`; null when no cell of them was finished. */
export function largestScallop(
  operation: Operation,
  part: TriangleSoup,
  faces: TriangleSoup,
  centres: readonly Vec2[],
): number | null {
  let largest: number | null = null;
  const radius = operation.tool.diameter / 2;
  const half = SCALLOP_PATCH_MM / 2 + radius;
  for (const centre of centres) {
    const run = runOverPatch([operation], part, { centre, half, cellMm: SCALLOP_CELL_MM, faces });
    if (run === null) continue;
    const { nx, ny, dx, dy } = run.grid;
    const other = (i: number, j: number) => !onFaces(run, i, j);
    const ri = Math.ceil(radius / dx);
    const rj = Math.ceil(radius / dy);
    const near = othersNear({ nx, ny }, other, ri, rj);
    // the patch itself: the cells a radius in from the grid's border
    for (let j = rj; j < ny - rj; j += 1) {
      for (let i = ri; i < nx - ri; i += 1) {
        const c = j * nx + i;
        if (!Number.isFinite(run.part[c] as number) || other(i, j) || !((run.left[c] as number) < run.top - 1e-6))
          continue;
        if (near(i, j)) continue;
        const scallop = leftAlongNormal(run, i, j);
        if (scallop !== null) largest = Math.max(largest ?? 0, scallop);
      }
    }
  }
  return largest;
}

/**
 * Whether another face's cell lies within `ri` x `rj` cells of (i, j) (a box round it, a little
 * more than the tool's disc), by a summed-area table of the other faces' cells.
 */
function othersNear(
  grid: { nx: number; ny: number },
  other: (i: number, j: number) => boolean,
  ri: number,
  rj: number,
): (i: number, j: number) => boolean {
  const { nx, ny } = grid;
  const sums = new Int32Array((nx + 1) * (ny + 1));
  for (let j = 0; j < ny; j += 1)
    for (let i = 0; i < nx; i += 1)
      sums[(j + 1) * (nx + 1) + i + 1] =
        (other(i, j) ? 1 : 0) +
        (sums[j * (nx + 1) + i + 1] as number) +
        (sums[(j + 1) * (nx + 1) + i] as number) -
        (sums[j * (nx + 1) + i] as number);
  return (i, j) => {
    const i0 = Math.max(0, i - ri);
    const i1 = Math.min(nx, i + ri + 1);
    const j0 = Math.max(0, j - rj);
    const j1 = Math.min(ny, j + rj + 1);
    const at = (a: number, b: number) => sums[b * (nx + 1) + a] as number;
    return at(i1, j1) - at(i0, j1) - at(i1, j0) + at(i0, j0) > 0;
  };
}
