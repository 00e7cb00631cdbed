/**
 * Where a finishing ball leaves material a smaller ball would remove: the concave valleys it
 * cannot reach into (a fillet tighter than it, a sharp corner between a dome and a floor).
 *
 * Each ball's swept envelope over the finished faces on a grid: its centre at every cell
 * (drop-cutter.ts), and the material it leaves above a cell the lowest of the balls' bottoms
 * over it, `min_q (c(q) - sqrt(R² - |p - q|²))` (a morphological opening of the part by the
 * ball). The rest is the finishing ball's envelope above the pencil ball's, taken along the
 * surface's normal (the pencil ball's envelope's slope). Comparing the drops at one cell instead
 * flags every steep face: a ball touches a steep face from beside it, not above it.
 *
 * Only cells whose top is one of the finished faces count: what the ball leaves beside a wall
 * on a floor is the 2.5D finishing's.
 */
import { partHeights } from "../simulation/part-heights.ts";
import type { Grid } from "../simulation/height-field.ts";
import type { TriangleSoup, Vec2 } from "../types.ts";
import type { DropCutter } from "./drop-cutter.ts";
import type { BoxXY } from "./triangle-grid.ts";

/** a face's height within this of the part's at a cell: the face is the cell's top (mm) */
const TOP_MM = 1e-6;

/** One valley: its cells' centres and the thickest rest on them. */
export interface RestArea {
  cells: Vec2[];
  /** the thickest rest material among the cells, along the surface's normal (mm) */
  thickest_mm: number;
  /** the steepest slope among the cells (degrees from level), of the smaller ball's envelope */
  steepest_deg: number;
}

export interface RestSearch {
  /** drops of the finishing ball and of the smaller (pencil) ball over the same soup */
  finishing: DropCutter;
  pencil: DropCutter;
  /** the finished faces' triangles (setup frame): only cells they top count */
  faces: TriangleSoup;
  /** the part's triangles (setup frame) */
  part: TriangleSoup;
  /** where to look (the faces' box) */
  box: BoxXY;
  /** the grid's cell (mm) */
  cell: number;
  /** a valley's cells: rest thicker than this (mm), the target scallop */
  threshold_mm: number;
  /** a valley counts when its thickest rest exceeds this (mm) */
  least_mm: number;
}

/**
 * See the header: the valleys, each a connected piece of cells where the rest exceeds the
 * threshold and somewhere `least_mm` (two thresholds, so a valley the grid reads unevenly stays whole).
 */
export function restAreas(search: RestSearch): RestArea[] {
  const { finishing, pencil, cell } = search;
  const margin = finishing.cutter.radius + cell;
  const { box } = search;
  const nx = Math.max(1, Math.ceil((box.maxX - box.minX + 2 * margin) / cell));
  const ny = Math.max(1, Math.ceil((box.maxY - box.minY + 2 * margin) / cell));
  const grid: Grid = { x0: box.minX - margin, y0: box.minY - margin, nx, ny, dx: cell, dy: cell };
  const part = partHeights(grid, search.part).heights;
  const faces = partHeights(grid, search.faces).heights;
  const onFaces = (c: number) => Number.isFinite(faces[c]) && (faces[c] as number) >= (part[c] as number) - TOP_MM;
  const wide = envelope(grid, finishing, onFaces);
  // the smaller ball leaves no less than the part: where the larger leaves no more than the
  // threshold above it (vertically, more than along the normal) there is no rest to find
  const rough = (c: number) => onFaces(c) && (wide[c] as number) - (part[c] as number) > search.threshold_mm;
  const around = grownByOne(grid, rough);
  const narrow = envelope(grid, pencil, (c) => around[c] === 1 && onFaces(c));
  const rest = new Float32Array(nx * ny);
  // per cell, the cosine of the slope
  const level = new Float32Array(nx * ny).fill(1);
  for (let j = 1; j < ny - 1; j += 1)
    for (let i = 1; i < nx - 1; i += 1) {
      const c = j * nx + i;
      if (!rough(c)) continue;
      const gx = ((narrow[c + 1] as number) - (narrow[c - 1] as number)) / (2 * cell);
      const gy = ((narrow[c + nx] as number) - (narrow[c - nx] as number)) / (2 * cell);
      const slope = Number.isFinite(gx) && Number.isFinite(gy) ? Math.hypot(1, gx, gy) : 1;
      rest[c] = ((wide[c] as number) - (narrow[c] as number)) / slope;
      level[c] = 1 / slope;
    }
  return components(grid, { rest, level }, search.threshold_mm).filter((area) => area.thickest_mm > search.least_mm);
}

/** The cells where `keep` holds and their eight neighbours, as 1s. */
function grownByOne(grid: Grid, keep: (c: number) => boolean): Uint8Array {
  const { nx, ny } = grid;
  const out = new Uint8Array(nx * ny);
  for (let c = 0; c < nx * ny; c += 1) {
    if (!keep(c)) continue;
    const i = c % nx;
    const j = (c - i) / nx;
    for (let b = Math.max(0, j - 1); b <= Math.min(ny - 1, j + 1); b += 1)
      for (let a = Math.max(0, i - 1); a <= Math.min(nx - 1, i + 1); a += 1) out[b * nx + a] = 1;
  }
  return out;
}

/** The lowest ball bottom over each cell the faces top (+Infinity elsewhere): see the header. */
function envelope(grid: Grid, drop: DropCutter, onFaces: (c: number) => boolean): Float64Array {
  const { nx, ny, x0, y0, dx } = grid;
  const radius = drop.cutter.radius;
  const reach = Math.floor(radius / dx);
  const centres = new Float64Array(nx * ny).fill(Number.NaN);
  const wanted = new Uint8Array(nx * ny);
  for (let c = 0; c < nx * ny; c += 1) {
    if (!onFaces(c)) continue;
    const i0 = c % nx;
    const j0 = (c - i0) / nx;
    for (let j = Math.max(0, j0 - reach); j <= Math.min(ny - 1, j0 + reach); j += 1)
      for (let i = Math.max(0, i0 - reach); i <= Math.min(nx - 1, i0 + reach); i += 1) wanted[j * nx + i] = 1;
  }
  for (let c = 0; c < nx * ny; c += 1) {
    if (wanted[c] === 0) continue;
    const i = c % nx;
    const j = (c - i) / nx;
    centres[c] = drop.dropAt(x0 + (i + 0.5) * dx, y0 + (j + 0.5) * dx) + radius;
  }
  // the ball's underside over the cells within its radius of its centre
  const disc: { di: number; dj: number; below: number }[] = [];
  for (let dj = -reach; dj <= reach; dj += 1)
    for (let di = -reach; di <= reach; di += 1) {
      const d2 = (di * di + dj * dj) * dx * dx;
      if (d2 <= radius * radius) disc.push({ di, dj, below: Math.sqrt(radius * radius - d2) });
    }
  const left = new Float64Array(nx * ny).fill(Infinity);
  for (let c = 0; c < nx * ny; c += 1) {
    if (!onFaces(c)) continue;
    const i = c % nx;
    const j = (c - i) / nx;
    let low = Infinity;
    for (const { di, dj, below } of disc) {
      const a = i + di;
      const b = j + dj;
      if (a < 0 || b < 0 || a >= nx || b >= ny) continue;
      const centre = centres[b * nx + a] as number;
      if (centre - below < low) low = centre - below;
    }
    left[c] = low;
  }
  return left;
}

/** The 8-connected pieces of cells whose rest exceeds `threshold`. */
function components(grid: Grid, cells: { rest: Float32Array; level: Float32Array }, threshold: number): RestArea[] {
  const { rest, level } = cells;
  const { nx, ny, x0, y0, dx } = grid;
  const seen = new Uint8Array(nx * ny);
  const areas: RestArea[] = [];
  for (let start = 0; start < nx * ny; start += 1) {
    if (seen[start] === 1 || !((rest[start] as number) > threshold)) continue;
    const stack = [start];
    seen[start] = 1;
    const centres: Vec2[] = [];
    let thickest = 0;
    let flattest = 1;
    while (stack.length > 0) {
      const c = stack.pop() as number;
      const i = c % nx;
      const j = (c - i) / nx;
      centres.push([x0 + (i + 0.5) * dx, y0 + (j + 0.5) * dx]);
      thickest = Math.max(thickest, rest[c] as number);
      flattest = Math.min(flattest, level[c] as number);
      for (let b = Math.max(0, j - 1); b <= Math.min(ny - 1, j + 1); b += 1)
        for (let a = Math.max(0, i - 1); a <= Math.min(nx - 1, i + 1); a += 1) {
          const n = b * nx + a;
          if (seen[n] === 1 || !((rest[n] as number) > threshold)) continue;
          seen[n] = 1;
          stack.push(n);
        }
    }
    areas.push({ cells: centres, thickest_mm: thickest, steepest_deg: (Math.acos(flattest) * 180) / Math.PI });
  }
  return areas;
}
