/**
 * A height field over the stock's XY footprint in a setup's frame: per cell, the top of the
 * material in that cell's column. Material fills each column from the stock's bottom up to the
 * stored height, which is exactly what a tool coming from +Z can see and remove.
 *
 * Cells are square or nearly: the footprint is divided into whole cells no larger than the cell
 * size asked for, so the cells tile the stock exactly and volumes need no edge corrections.
 */
import type { Box3 } from "../types.ts";

/** Where the cells are: cell (i, j) has its centre at x0 + (i + 0.5) dx, y0 + (j + 0.5) dy. */
export interface Grid {
  x0: number;
  y0: number;
  nx: number;
  ny: number;
  dx: number;
  dy: number;
}

export interface HeightField extends Grid {
  /** the stock's bottom and top: heights stay within them */
  bottom: number;
  top: number;
  /** row-major (index j * nx + i): the top of the material in each cell */
  heights: Float32Array;
}

export const DEFAULT_CELL_SIZE_MM = 0.1;

/** More cells than this is a wrong cell size, not a stock: 400 MB per height field. */
const MAX_CELLS = 100_000_000;

/** The grid of cells no larger than `cellSize` that tiles the stock's footprint. */
export function stockGrid(stock: Box3, cellSize = DEFAULT_CELL_SIZE_MM): Grid {
  if (!(cellSize > 0)) throw new RangeError(`the cell size must be positive, not ${cellSize}`);
  const width = stock.max[0] - stock.min[0];
  const depth = stock.max[1] - stock.min[1];
  if (!(width > 0 && depth > 0 && stock.max[2] > stock.min[2])) throw new RangeError("the stock box is empty");
  // the 1e-9 keeps 20 / 0.1 from becoming 201 cells through rounding
  const nx = Math.max(1, Math.ceil(width / cellSize - 1e-9));
  const ny = Math.max(1, Math.ceil(depth / cellSize - 1e-9));
  if (nx * ny > MAX_CELLS) throw new RangeError(`${nx} x ${ny} cells is too many; use a larger cell size`);
  return { x0: stock.min[0], y0: stock.min[1], nx, ny, dx: width / nx, dy: depth / ny };
}

/** The uncut stock: every cell full to the stock's top. */
export function stockHeightField(stock: Box3, cellSize = DEFAULT_CELL_SIZE_MM): HeightField {
  const grid = stockGrid(stock, cellSize);
  const heights = new Float32Array(grid.nx * grid.ny).fill(stock.max[2]);
  return { ...grid, bottom: stock.min[2], top: stock.max[2], heights };
}

export function cloneHeightField(field: HeightField): HeightField {
  return { ...field, heights: field.heights.slice() };
}

export function sameGrid(a: Grid, b: Grid): boolean {
  return a.nx === b.nx && a.ny === b.ny && a.x0 === b.x0 && a.y0 === b.y0 && a.dx === b.dx && a.dy === b.dy;
}

export function cellCentre(grid: Grid, index: number): [number, number] {
  const i = index % grid.nx;
  const j = (index - i) / grid.nx;
  return [grid.x0 + (i + 0.5) * grid.dx, grid.y0 + (j + 0.5) * grid.dy];
}

/** The index of the cell holding (x, y), or -1 outside the grid. */
export function cellAt(grid: Grid, x: number, y: number): number {
  const i = Math.floor((x - grid.x0) / grid.dx);
  const j = Math.floor((y - grid.y0) / grid.dy);
  if (i < 0 || j < 0 || i >= grid.nx || j >= grid.ny) return -1;
  return j * grid.nx + i;
}

/** The material's top at (x, y); -Infinity outside the stock, where there is no material. */
export function heightAt(field: HeightField, x: number, y: number): number {
  const index = cellAt(field, x, y);
  return index < 0 ? -Infinity : (field.heights[index] as number);
}

/** First and last cell index (inclusive, clamped to the grid) whose centres lie in [lo, hi] on an axis. */
export function centresWithin(lo: number, hi: number, origin: number, size: number, count: number): [number, number] {
  return [firstCentre(lo, origin, size), lastCentre(hi, origin, size, count)];
}

/** The first cell whose centre is at or after x (centresWithin's one end, for code that runs per row and makes no arrays). */
export function firstCentre(x: number, origin: number, size: number): number {
  return Math.max(0, Math.ceil((x - origin) / size - 0.5));
}

/** The last cell whose centre is at or before x (centresWithin's other end). */
export function lastCentre(x: number, origin: number, size: number, count: number): number {
  return Math.min(count - 1, Math.floor((x - origin) / size - 0.5));
}
