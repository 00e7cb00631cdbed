/**
 * The largest scallop an operation leaves on the faces it finished, measured: the operation run
 * alone over small patches of the faces on a fine grid (the simulation's exact sweeps, SCALLOP_CELL_MM
 * cells; the setup's 0.1 mm field is too coarse for a 0.01 mm scallop), each cell's material left
 * above what the tool swept everywhere would leave there (the caller's `swept`, at least the
 * part's triangles) taken along the surface's normal (the vertical height times the normal's z,
 * read from the part's heights round the cell). Only cells whose top is one of the finished
 * faces, which the tool cut and where the swept surface lies on the part count: in a corner
 * tighter than the tool (where a fillet meets a floor), or where the tool's shank keeps it from
 * the face, the swept surface stands above the part, and what is left there is rest material,
 * not a scallop; the scallop beside it is counted.
 */
import type { Move, Operation, TriangleSoup, Vec2, Vec3 } from "../types.ts";
import { type Grid, stockGrid } from "./height-field.ts";
import { partHeights } from "./part-heights.ts";
import { simulateSetup } from "./simulate.ts";

/** the patches' cells (mm): a 0.01 mm scallop between passes 0.3 mm apart spans six of them */
export const SCALLOP_CELL_MM = 0.05;
/**
 * Where the swept surface stands more than this above the part (mm), the tool does not reach
 * the face: rest material, not counted. The part's chordal error: the swept surface of a ball
 * in a fillet of its own radius lies that far above the fillet's chords.
 */
const REST_MM = 0.01;
/** a patch's side (mm) */
export const SCALLOP_PATCH_MM = 2;

export interface ScallopPatches {
  operation: Operation;
  /** the part and, of it, the finished faces' triangles (setup frame) */
  part: TriangleSoup;
  faces: TriangleSoup;
  /** the patches' centres */
  centres: readonly Vec2[];
  /** the surface the operation's tool leaves swept everywhere over a box (surfacing/swept-surface.ts) */
  swept: (box: { minX: number; minY: number; maxX: number; maxY: number }) => (x: number, y: number) => number;
}

/** The largest scallop (mm) over the patches; null when no cell of them was finished. */
export function largestScallop(patches: ScallopPatches): number | null {
  const { operation, part, faces, centres } = patches;
  let largest: number | null = null;
  const radius = operation.tool.diameter / 2;
  const half = SCALLOP_PATCH_MM / 2 + radius;
  for (const [cx, cy] of centres) {
    const box = { min: [cx - half, cy - half, 0] as const, max: [cx + half, cy + half, 1] as const };
    const grid = stockGrid({ min: [...box.min], max: [...box.max] }, SCALLOP_CELL_MM);
    const heights = partHeights(grid, part);
    const faceHeights = partHeights(grid, faces).heights;
    let high = -Infinity;
    let low = Infinity;
    for (const h of heights.heights)
      if (Number.isFinite(h)) {
        high = Math.max(high, h);
        low = Math.min(low, h);
      }
    if (!Number.isFinite(high)) continue;
    const top = high + 1;
    const run = simulateSetup({
      stock: { min: [box.min[0], box.min[1], low - 1], max: [box.max[0], box.max[1], top] },
      part,
      operations: [{ ...operation, moves: movesNear(operation, grid, radius) }],
      cellSize: SCALLOP_CELL_MM,
      partHeights: heights,
      maxDetails: 0,
    });
    const { nx, ny, dx, dy } = grid;
    const at = (i: number, j: number) => heights.heights[j * nx + i] as number;
    const other = (i: number, j: number) => !((faceHeights[j * nx + i] as number) >= at(i, j) - 1e-6);
    const ri = Math.ceil(radius / dx);
    const rj = Math.ceil(radius / dy);
    const swept = patches.swept({
      minX: grid.x0 + ri * dx,
      minY: grid.y0 + rj * dy,
      maxX: grid.x0 + (nx - ri) * dx,
      maxY: grid.y0 + (ny - rj) * dy,
    });
    // the patch itself: the cells a radius in from the grid's border
    for (let j = rj; j < ny - rj; j += 1) {
      for (let i = ri; i < nx - ri; i += 1) {
        const c = j * nx + i;
        const surface = at(i, j);
        const left = run.field.heights[c] as number;
        if (!Number.isFinite(surface) || other(i, j) || !(left < top - 1e-6)) continue;
        const floor = swept(grid.x0 + (i + 0.5) * dx, grid.y0 + (j + 0.5) * dy);
        if (floor > surface + REST_MM) continue;
        const gx = (at(i + 1, j) - at(i - 1, j)) / (2 * dx);
        const gy = (at(i, j + 1) - at(i, j - 1)) / (2 * dy);
        if (!Number.isFinite(gx) || !Number.isFinite(gy)) continue;
        const scallop = Math.max(0, left - Math.max(surface, floor)) / Math.hypot(1, gx, gy);
        largest = Math.max(largest ?? 0, scallop);
      }
    }
  }
  return largest;
}

/**
 * The operation's moves that pass within `margin` of the grid's box in XY (a patch sees only
 * those: a NIST part's 3D finishing has 80,000 moves), each run of them entered straight down
 * from the operation's clearance at the point it starts from: in a height field the tool
 * standing at a point has cut what is above it, however it came there.
 */
function movesNear(operation: Operation, grid: Grid, margin: number): Move[] {
  const minX = grid.x0 - margin;
  const minY = grid.y0 - margin;
  const maxX = grid.x0 + grid.nx * grid.dx + margin;
  const maxY = grid.y0 + grid.ny * grid.dy + margin;
  const out: Move[] = [];
  let at: Vec3 | null = null;
  let kept = true;
  for (const move of operation.moves) {
    if (move.kind === "drill") return [...operation.moves];
    const from = at ?? move.to;
    const near =
      move.kind === "arc" ||
      (Math.max(from[0], move.to[0]) >= minX &&
        Math.min(from[0], move.to[0]) <= maxX &&
        Math.max(from[1], move.to[1]) >= minY &&
        Math.min(from[1], move.to[1]) <= maxY);
    if (near) {
      if (!kept && at !== null)
        out.push({ kind: "rapid", to: [at[0], at[1], operation.clearance_z] }, { kind: "linear", to: at, feed: 1 });
      out.push(move);
    }
    kept = near;
    at = move.to;
  }
  return out;
}
