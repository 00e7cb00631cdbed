/**
 * The stock's heights on a grid of square cells: bounds that answer most of the linking's "how
 * high is the stock over this corridor" without Clipper (stock.ts: topOver).
 *
 * The stock's top at a point is the lowest cleared layer holding it, or the box's top where none
 * does. For every cell the grid keeps two heights from the layers:
 * - `covered`: the lowest layer covering the whole cell: no point of the cell is higher;
 * - `centre`: the lowest layer holding the cell's centre, or coming within CENTRE_MM of it: every
 *   point within CENTRE_MM of the centre is at least this high.
 * Over a region, the stock's top is then at most the highest `covered` of the cells it touches,
 * and at least the highest `centre` of the cells whose centre it holds with CENTRE_MM to spare.
 * Where the two meet, that is the answer, and the one the polygons give (stock.ts walks the
 * layers until what is left of the region is under 1e-5 mm²): the disk of CENTRE_MM round that
 * centre is larger than that. Where they do not meet, stock.ts works it out on the polygons.
 *
 * Whether a region holds a cell, or a cell's centre, is decided only where no edge of the region
 * comes near (EDGE_MARGIN, CENTRE_MM); every doubt goes to the side that widens the bounds. Cells
 * the stock's rectangle ends in (its last column and row) hold points with no stock at all: they
 * give no lower bound.
 */
import type { Box3 } from "../types.ts";
import { bounds, SCALE, type Paths64, type Rect64 } from "./polygons.ts";

/** the cell's side, mm */
const CELL_MM = 1;
const CELL = CELL_MM * SCALE;
/** an edge this close to a cell (Clipper units) makes it partial: rounding never decides a cell */
const EDGE_MARGIN = 2;
/** a disk of this radius has more area (1.26e-5 mm²) than the polygons' walk leaves as nothing (1e-5) */
const CENTRE_MM = 0.002;
const CENTRE = CENTRE_MM * SCALE;

/** A region over one cell: */
export enum Cover {
  /** none of the cell */
  None = 0,
  /** some of it, not its centre */
  EdgeOut = 1,
  /** some of it and its centre, with no edge within CENTRE_MM of the centre */
  EdgeIn = 2,
  /** some of it, and an edge passes within CENTRE_MM of the centre */
  EdgeNear = 3,
  /** all of it */
  Full = 4,
}

/** The grid: cell (i, j) spans [x0 + i·CELL, x0 + (i + 1)·CELL) by the same in y. */
export interface Grid {
  x0: number;
  y0: number;
  nx: number;
  ny: number;
}

/** A region's Cover of the cells in the window of the grid its bounds reach. */
export interface RegionCells {
  i0: number;
  j0: number;
  width: number;
  height: number;
  cover: Uint8Array;
}

/** The grid over a stock box (Clipper units). */
export function gridOver(box: Box3): Grid {
  const x0 = Math.round(box.min[0] * SCALE);
  const y0 = Math.round(box.min[1] * SCALE);
  const nx = Math.max(1, Math.ceil((Math.round(box.max[0] * SCALE) - x0) / CELL));
  const ny = Math.max(1, Math.ceil((Math.round(box.max[1] * SCALE) - y0) / CELL));
  return { x0, y0, nx, ny };
}

/**
 * The cells of a region (NonZero, as Clipper's): partial where an edge passes within EDGE_MARGIN,
 * the rest full or none by the winding at the cell's centre, which no edge is near; a partial
 * cell's centre by the same winding where no edge comes within CENTRE_MM of it.
 */
export function regionCells(region: Paths64, grid: Grid): RegionCells | null {
  if (!region.some((path) => path.length > 0)) return null;
  // Clipper's bounds: top is the least y
  const box = bounds(region);
  const i0 = Math.max(0, column(grid, box.left - EDGE_MARGIN));
  const i1 = Math.min(grid.nx - 1, column(grid, box.right + EDGE_MARGIN));
  const j0 = Math.max(0, row(grid, box.top - EDGE_MARGIN));
  const j1 = Math.min(grid.ny - 1, row(grid, box.bottom + EDGE_MARGIN));
  if (i0 > i1 || j0 > j1) return null;
  const window: RegionCells = {
    i0,
    j0,
    width: i1 - i0 + 1,
    height: j1 - j0 + 1,
    cover: new Uint8Array((i1 - i0 + 1) * (j1 - j0 + 1)),
  };
  for (const path of region) {
    const n = path.length;
    for (let k = 0; k < n; k += 1) {
      const a = path[k] as { x: number; y: number };
      const b = path[(k + 1) % n] as { x: number; y: number };
      markEdge(a.x, a.y, b.x, b.y, grid, window);
    }
  }
  fillByWinding(region, grid, window);
  return window;
}

function column(grid: Grid, x: number): number {
  return Math.floor((x - grid.x0) / CELL);
}

function row(grid: Grid, y: number): number {
  return Math.floor((y - grid.y0) / CELL);
}

/** The window's cells within EDGE_MARGIN of the segment a-b: EdgeNear where it passes within CENTRE of the centre, else at least EdgeOut. */
function markEdge(ax: number, ay: number, bx: number, by: number, grid: Grid, window: RegionCells): void {
  const { i0, j0, width, height, cover } = window;
  const lowY = Math.min(ay, by);
  const highY = Math.max(ay, by);
  const rowFrom = Math.max(j0, row(grid, lowY - EDGE_MARGIN));
  const rowTo = Math.min(j0 + height - 1, row(grid, highY + EDGE_MARGIN));
  const dx = bx - ax;
  const dy = by - ay;
  const length2 = dx * dx + dy * dy;
  for (let r = rowFrom; r <= rowTo; r += 1) {
    // the segment's x extent within the row's band, widened by the margin
    const bandLow = Math.max(grid.y0 + r * CELL - EDGE_MARGIN, lowY);
    const bandHigh = Math.min(grid.y0 + (r + 1) * CELL + EDGE_MARGIN, highY);
    const xa = dy === 0 ? ax : ax + ((bandLow - ay) / dy) * dx;
    const xb = dy === 0 ? bx : ax + ((bandHigh - ay) / dy) * dx;
    const from = Math.max(i0, column(grid, Math.min(xa, xb) - EDGE_MARGIN));
    const to = Math.min(i0 + width - 1, column(grid, Math.max(xa, xb) + EDGE_MARGIN));
    const yc = grid.y0 + (r + 0.5) * CELL;
    const base = (r - j0) * width - i0;
    for (let i = from; i <= to; i += 1) {
      if (cover[base + i] === Cover.EdgeNear) continue;
      // the centre's distance to the segment
      const xc = grid.x0 + (i + 0.5) * CELL;
      const t = length2 > 0 ? Math.max(0, Math.min(1, ((xc - ax) * dx + (yc - ay) * dy) / length2)) : 0;
      const ex = ax + t * dx - xc;
      const ey = ay + t * dy - yc;
      cover[base + i] = ex * ex + ey * ey < CENTRE * CENTRE ? Cover.EdgeNear : Cover.EdgeOut;
    }
  }
}

/** Cells no edge comes near: Full where the winding at their centre is not zero; partial ones: EdgeIn where their centre is inside. */
function fillByWinding(region: Paths64, grid: Grid, window: RegionCells): void {
  const { i0, j0, width, height, cover } = window;
  const xs: number[] = [];
  const turns: number[] = [];
  const order: number[] = [];
  for (let j = 0; j < height; j += 1) {
    const yc = grid.y0 + (j0 + j + 0.5) * CELL;
    xs.length = 0;
    turns.length = 0;
    for (const path of region) {
      const n = path.length;
      for (let k = 0; k < n; k += 1) {
        const a = path[k] as { x: number; y: number };
        const b = path[(k + 1) % n] as { x: number; y: number };
        if (a.y <= yc === b.y <= yc) continue;
        xs.push(a.x + ((yc - a.y) / (b.y - a.y)) * (b.x - a.x));
        turns.push(a.y <= yc ? 1 : -1);
      }
    }
    if (xs.length === 0) continue;
    order.length = 0;
    for (let k = 0; k < xs.length; k += 1) order.push(k);
    order.sort((p, q) => (xs[p] as number) - (xs[q] as number));
    let winding = 0;
    let c = 0;
    const base = j * width;
    for (let i = 0; i < width; i += 1) {
      const xc = grid.x0 + (i0 + i + 0.5) * CELL;
      while (c < order.length && (xs[order[c] as number] as number) < xc)
        winding += turns[order[c++] as number] as number;
      if (winding === 0) continue;
      const at = base + i;
      if (cover[at] === Cover.None) cover[at] = Cover.Full;
      else if (cover[at] === Cover.EdgeOut) cover[at] = Cover.EdgeIn;
    }
  }
}

/** Per cell of the whole grid: the heights described in the header. */
export interface StockHeights {
  covered: Float64Array;
  centre: Float64Array;
}

/** A stock no layer has cut: the box's top everywhere (no lower bound where the rectangle ends inside a cell). */
export function uncutHeights(grid: Grid, box: Box3): StockHeights {
  const top = box.max[2];
  const covered = new Float64Array(grid.nx * grid.ny).fill(top);
  const centre = new Float64Array(grid.nx * grid.ny).fill(top);
  const xEnd = Math.round(box.max[0] * SCALE);
  const yEnd = Math.round(box.max[1] * SCALE);
  for (let j = 0; j < grid.ny; j += 1) {
    for (let i = 0; i < grid.nx; i += 1) {
      if (grid.x0 + (i + 1) * CELL > xEnd || grid.y0 + (j + 1) * CELL > yEnd) centre[j * grid.nx + i] = -Infinity;
    }
  }
  return { covered, centre };
}

/** Calls `visit` for each cell of the region's window the region covers at all: its Cover, its index in the grid, its column and row in the window. */
function forCovered(
  grid: Grid,
  region: RegionCells,
  visit: (cover: Cover, k: number, i: number, j: number) => void,
): void {
  for (let j = 0; j < region.height; j += 1) {
    const base = (region.j0 + j) * grid.nx + region.i0;
    const at = j * region.width;
    for (let i = 0; i < region.width; i += 1) {
      const cover = region.cover[at + i] as Cover;
      if (cover !== Cover.None) visit(cover, base + i, i, j);
    }
  }
}

/** The heights of a stock with one more layer cleared at z (in place). */
export function clearCells(heights: StockHeights, grid: Grid, layer: RegionCells, z: number): void {
  const { covered, centre } = heights;
  forCovered(grid, layer, (cover, k) => {
    if (cover === Cover.EdgeOut) return;
    if (z < (centre[k] as number)) centre[k] = z;
    if (cover === Cover.Full && z < (covered[k] as number)) covered[k] = z;
  });
}

/** What the cells tell of the stock's top over a region: it lies between `atLeast` and `atMost`. */
export interface CellBounds {
  atLeast: number;
  atMost: number;
  /** the box (Clipper units) of the cells that may be higher than `atLeast`, where the polygons must look */
  undecided: Rect64 | null;
}

/** The bounds over a region's cells; -Infinity for both when the region lies beside the stock. */
export function boundsFromCells(heights: StockHeights, grid: Grid, region: RegionCells | null): CellBounds {
  const beside: CellBounds = { atLeast: -Infinity, atMost: -Infinity, undecided: null };
  if (region === null) return beside;
  let atLeast = -Infinity;
  let atMost = -Infinity;
  const { covered, centre } = heights;
  forCovered(grid, region, (cover, k) => {
    if ((covered[k] as number) > atMost) atMost = covered[k] as number;
    if ((cover === Cover.Full || cover === Cover.EdgeIn) && (centre[k] as number) > atLeast)
      atLeast = centre[k] as number;
  });
  if (atMost === -Infinity) return beside;
  if (atLeast >= atMost) return { atLeast, atMost, undecided: null };
  // the box of the cells that may be higher than the lower bound
  let i0 = Infinity;
  let i1 = -Infinity;
  let j0 = Infinity;
  let j1 = -Infinity;
  forCovered(grid, region, (_cover, k, i, j) => {
    if ((covered[k] as number) <= atLeast) return;
    if (i < i0) i0 = i;
    if (i > i1) i1 = i;
    if (j < j0) j0 = j;
    if (j > j1) j1 = j;
  });
  const undecided = {
    left: grid.x0 + (region.i0 + i0) * CELL,
    right: grid.x0 + (region.i0 + i1 + 1) * CELL,
    top: grid.y0 + (region.j0 + j0) * CELL,
    bottom: grid.y0 + (region.j0 + j1 + 1) * CELL,
  };
  return { atLeast, atMost, undecided };
}
