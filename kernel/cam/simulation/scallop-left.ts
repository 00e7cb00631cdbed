/**
 * The largest scallop an operation leaves on the faces it finished, measured: the operation run
 * alone over small patches of the faces on a fine grid (the simulation's exact sweeps, SCALLOP_CELL_MM
 * cells; the setup's 0.1 mm field is too coarse for a 0.01 mm scallop), each cell's material left
 * above what the tool could reach there taken along the surface's normal (the vertical height
 * times the normal's z, read from the part's heights round the cell).
 *
 * What the tool could reach: the lowest of its lower envelope over every cutter location whose
 * disc covers the cell, each location's tip on the drop there and its bodies clear (a
 * morphological opening of the part by the tool, on locations REACH_STEP_MM apart). It lies on
 * the part wherever the tool fits, so a fillet narrower than the tool's radius is measured like
 * any face; in a concave corner tighter than the tool, or where its shank keeps it from the face,
 * it stands above the part and the material there is rest for pencil finishing, not scallop: a
 * cell counts only where it lies within REST_MM of the part. Only cells whose top is one of the
 * finished faces and which the operation cut count.
 */
import type { Move, Operation, TriangleSoup, Vec2, Vec3 } from "../types.ts";
import { onFaces, runOverPatch } from "./patch-run.ts";

/** the patches' cells (mm): a 0.01 mm scallop between passes 0.3 mm apart spans six of them */
export const SCALLOP_CELL_MM = 0.05;
/** a patch's side (mm) */
export const SCALLOP_PATCH_MM = 2;
/**
 * The cutter locations of the reach surface, this far apart (two cells, so every cell centre
 * sits at one of four places between them): between two locations a ball's envelope dips at
 * most step² / 8R below the one the grid sees (0.0004 mm for a 3 mm radius).
 */
const REACH_STEP_MM = 2 * SCALLOP_CELL_MM;
/**
 * Where the reach surface stands more than this above the part (mm), the tool does not reach the
 * face there: the part's chordal error, which a ball in a fillet of its own radius stands above
 * the fillet's chords.
 */
const REST_MM = 0.01;

/** The tool as the reach surface needs it. */
export interface ToolReach {
  /** the tip's height touching the part at (x, y) (drop-cutter) */
  drop: (x: number, y: number) => number;
  /** the cutter's radius and lower envelope (the height above the tip at rho, up to the radius) */
  radius: number;
  height: (rho: number) => number;
  /** whether the tool may stand with its tip at p (its neck, shank and holder clear) */
  allowed: (p: Vec3) => boolean;
}

export interface ScallopPatches {
  operation: Operation;
  /** the part's triangles and, of them, the finished faces' (setup frame) */
  part: TriangleSoup;
  faces: TriangleSoup;
  centres: readonly Vec2[];
  reach: ToolReach;
}

/** The largest scallop (mm) over the patches; null when no cell of them was finished within reach. */
export function largestScallop(patches: ScallopPatches): number | null {
  const { operation, part, faces, reach } = patches;
  let largest: number | null = null;
  const half = SCALLOP_PATCH_MM / 2 + reach.radius;
  const border = Math.ceil(reach.radius / SCALLOP_CELL_MM);
  for (const centre of patches.centres) {
    const near = { ...operation, moves: movesNear(operation, centre, half + reach.radius) };
    const run = runOverPatch([near], part, { centre, half, cellMm: SCALLOP_CELL_MM, faces });
    if (run === null) continue;
    const { nx, ny, dx, dy, x0, y0 } = run.grid;
    const surface = reachSurface(reach, { x0: x0 + dx / 2, y0: y0 + dy / 2, nx, ny, cell: dx });
    const at = (i: number, j: number) => run.part[j * nx + i] as number;
    // the patch itself: the cells a radius in from the grid's border
    for (let j = border; j < ny - border; j += 1) {
      for (let i = border; i < nx - border; i += 1) {
        const c = j * nx + i;
        const part = at(i, j);
        const left = run.left[c] as number;
        if (!Number.isFinite(part) || !onFaces(run, i, j) || !(left < run.top - 1e-6)) continue;
        const floor = surface(i, j);
        if (floor > part + REST_MM) continue;
        const gx = (at(i + 1, j) - at(i - 1, j)) / (2 * dx);
        const gy = (at(i, j + 1) - at(i, j - 1)) / (2 * dy);
        if (!Number.isFinite(gx) || !Number.isFinite(gy)) continue;
        const scallop = Math.max(0, left - Math.max(part, floor)) / Math.hypot(1, gx, gy);
        largest = Math.max(largest ?? 0, scallop);
      }
    }
  }
  return largest;
}

/**
 * The reach surface (the header) over a grid of cell centres (x0, y0 the first's, `cell` apart),
 * read per cell: the locations REACH_STEP_MM apart from the first centre, dropped once.
 */
function reachSurface(
  reach: ToolReach,
  grid: { x0: number; y0: number; nx: number; ny: number; cell: number },
): (i: number, j: number) => number {
  const per = Math.round(REACH_STEP_MM / grid.cell);
  const step = per * grid.cell;
  const mx = Math.ceil((grid.nx - 1) / per) + 1;
  const my = Math.ceil((grid.ny - 1) / per) + 1;
  const tips = new Float64Array(mx * my);
  for (let b = 0; b < my; b += 1)
    for (let a = 0; a < mx; a += 1) {
      const x = grid.x0 + a * step;
      const y = grid.y0 + b * step;
      const z = reach.drop(x, y);
      tips[b * mx + a] = reach.allowed([x, y, z]) ? z : Infinity;
    }
  const span = Math.ceil(reach.radius / step) + 1;
  const side = 2 * span + 1;
  // the envelope's height at each location round a cell, per the cell's place between locations
  const tables = new Map<number, Float64Array>();
  const table = (fi: number, fj: number) => {
    const key = fj * per + fi;
    let made = tables.get(key);
    if (made === undefined) {
      made = new Float64Array(side * side);
      for (let db = -span; db <= span; db += 1)
        for (let da = -span; da <= span; da += 1) {
          const rho = Math.hypot(da * step - fi * grid.cell, db * step - fj * grid.cell);
          made[(db + span) * side + da + span] = rho > reach.radius ? Infinity : reach.height(rho);
        }
      tables.set(key, made);
    }
    return made;
  };
  return (i, j) => {
    const a0 = Math.floor(i / per);
    const b0 = Math.floor(j / per);
    const heights = table(i - a0 * per, j - b0 * per);
    let lowest = Infinity;
    for (let db = -span; db <= span; db += 1) {
      const b = b0 + db;
      if (b < 0 || b >= my) continue;
      for (let da = -span; da <= span; da += 1) {
        const a = a0 + da;
        if (a < 0 || a >= mx) continue;
        const z = (tips[b * mx + a] as number) + (heights[(db + span) * side + da + span] as number);
        if (z < lowest) lowest = z;
      }
    }
    return lowest;
  };
}

/**
 * The operation's moves that pass within `reach` of the square round `centre` in XY (a patch sees
 * only those: a NIST dome's operation has 30,000 moves), each run of them entered straight down
 * from the operation's clearance at the point it starts from: in a height field the tool
 * standing at a point has cut what is above it, however it came there.
 */
function movesNear(operation: Operation, centre: Vec2, reach: number): Move[] {
  const [minX, minY, maxX, maxY] = [centre[0] - reach, centre[1] - reach, centre[0] + reach, centre[1] + reach];
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
