/**
 * Where the next adaptive path starts: on the front, a tool position no material touches but
 * within the target engagement of some (so the path's first steps reach the target), nearest
 * the tool; headed along the front with the material on the right. Distances to the material
 * come from an exact distance transform of its cells (distance.ts), made again after each path.
 */
import type { Vec2 } from "../../types.ts";
import { squaredDistances } from "./distance.ts";
import type { CellGrid } from "./grid.ts";
import type { MaterialModel } from "./material-model.ts";

export interface Front {
  grid: CellGrid;
  /** mm from each cell's centre to the nearest material cell's centre */
  distances: Float64Array;
  /** 1 where the tool centre may be */
  allowed: Uint8Array;
  radius: number;
}

export function frontOf(model: MaterialModel, allowed: Uint8Array): Front {
  const { grid } = model;
  const distances = squaredDistances(model.cells, grid.nx, grid.ny);
  for (let i = 0; i < distances.length; i += 1) distances[i] = Math.sqrt(distances[i] as number) * grid.cell;
  return { grid, distances, allowed, radius: model.radius };
}

/** Cell index bounds (inclusive). */
export interface CellBox {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/**
 * The front again after material went away within `cut` only, exact up to `horizon` mm: a cell
 * whose distance changed and matters (at most `horizon`) is within `horizon` of the cut, and its
 * nearest material within `horizon` of it, so the transform runs over the cut grown twice by the
 * horizon instead of the whole grid. Beyond the horizon the distances it writes may be too large,
 * never too small; the front and the free cells are decided below it.
 */
export function refreshFront(front: Front, model: MaterialModel, cut: CellBox, horizon: number): void {
  const { grid, distances } = front;
  const m = Math.ceil(horizon / grid.cell) + 1;
  const write = clampBox(grid, { x0: cut.x0 - m, y0: cut.y0 - m, x1: cut.x1 + m, y1: cut.y1 + m });
  const read = clampBox(grid, { x0: write.x0 - m, y0: write.y0 - m, x1: write.x1 + m, y1: write.y1 + m });
  const w = read.x1 - read.x0 + 1;
  const h = read.y1 - read.y0 + 1;
  const window = new Uint8Array(w * h);
  for (let y = 0; y < h; y += 1) {
    const from = (read.y0 + y) * grid.nx + read.x0;
    window.set(model.cells.subarray(from, from + w), y * w);
  }
  const local = squaredDistances(window, w, h);
  for (let y = write.y0; y <= write.y1; y += 1)
    for (let x = write.x0; x <= write.x1; x += 1)
      distances[y * grid.nx + x] = Math.sqrt(local[(y - read.y0) * w + (x - read.x0)] as number) * grid.cell;
}

function clampBox(grid: CellGrid, box: CellBox): CellBox {
  return {
    x0: Math.max(0, box.x0),
    y0: Math.max(0, box.y0),
    x1: Math.min(grid.nx - 1, box.x1),
    y1: Math.min(grid.ny - 1, box.y1),
  };
}

/** The tool at a cell's centre, or anywhere in the cell, touches no material's cell centre. */
export function freeCell(front: Front, index: number): boolean {
  return front.allowed[index] === 1 && (front.distances[index] as number) > front.radius + 0.75 * front.grid.cell;
}

export interface Start {
  point: Vec2;
  /** radians */
  heading: number;
  index: number;
}

/**
 * The free cell nearest `from` (any when null) within `engagement` of touching material, not
 * `blocked`; null when there is none.
 */
export function nextStart(front: Front, engagement: number, blocked: Uint8Array, from: Vec2 | null): Start | null {
  const { grid, distances, radius } = front;
  const reach = radius + engagement + grid.cell;
  let best = -1;
  let bestD2 = Infinity;
  for (let i = 0; i < distances.length; i += 1) {
    if ((distances[i] as number) > reach || blocked[i] === 1 || !freeCell(front, i)) continue;
    if (from === null) {
      best = i;
      break;
    }
    const ix = i % grid.nx;
    const iy = (i - ix) / grid.nx;
    const d2 = (grid.centreX(ix) - from[0]) ** 2 + (grid.centreY(iy) - from[1]) ** 2;
    if (d2 < bestD2) {
      bestD2 = d2;
      best = i;
    }
  }
  if (best < 0) return null;
  return { point: grid.centreOf(best), heading: alongFront(front, best), index: best };
}

/** The heading along the front at a cell: across the distance's gradient, the material on the right. */
function alongFront(front: Front, index: number): number {
  const { grid, distances } = front;
  const ix = index % grid.nx;
  const iy = (index - ix) / grid.nx;
  const at = (x: number, y: number): number =>
    distances[Math.min(grid.ny - 1, Math.max(0, y)) * grid.nx + Math.min(grid.nx - 1, Math.max(0, x))] as number;
  // the gradient points away from the material: turned clockwise it keeps the material on the right
  const gx = at(ix + 1, iy) - at(ix - 1, iy);
  const gy = at(ix, iy + 1) - at(ix, iy - 1);
  return Math.atan2(-gx, gy);
}

/** Marks the cells within `radius` of a cell: no path starts there again. */
export function block(grid: CellGrid, blocked: Uint8Array, index: number, radius: number): void {
  grid.discRows(grid.centreOf(index), radius, (iy, first, last) => {
    blocked.fill(1, iy * grid.nx + first, iy * grid.nx + last + 1);
  });
}
