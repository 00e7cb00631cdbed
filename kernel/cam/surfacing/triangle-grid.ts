/**
 * A uniform XY grid over the triangles' boxes: which triangles a cutter's disc at (x, y) may
 * touch. Each triangle is listed in every cell its XY box overlaps (compressed rows: cell starts,
 * then triangle numbers), so a query reads the few cells under the disc and skips a triangle it
 * met in an earlier cell by a stamp per triangle.
 */
import { FACET_STRIDE, type TriangleRecords } from "./triangle-records.ts";

export interface TriangleGrid {
  x0: number;
  y0: number;
  cell: number;
  nx: number;
  ny: number;
  /** cell c's triangles are items[starts[c] .. starts[c + 1]) */
  starts: Int32Array;
  items: Int32Array;
  /** per triangle: its XY box (min x, min y, max x, max y) */
  boxes: Float64Array;
}

/** cells a grid may have: past this the cells grow rather than the memory */
const MAX_CELLS = 4_000_000;

/**
 * The grid with cells about `cell` mm wide (the cutter's radius suits a drop: a query then reads
 * 3 x 3 cells), grown as needed to stay under MAX_CELLS.
 */
export function triangleGrid(records: TriangleRecords, cell: number): TriangleGrid {
  const { facets, count } = records;
  const boxes = new Float64Array(count * 4);
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (let t = 0; t < count; t += 1) {
    const at = t * FACET_STRIDE;
    const xs = [facets[at] as number, facets[at + 3] as number, facets[at + 6] as number];
    const ys = [facets[at + 1] as number, facets[at + 4] as number, facets[at + 7] as number];
    const box = [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)] as const;
    boxes.set(box, 4 * t);
    minX = Math.min(minX, box[0]);
    minY = Math.min(minY, box[1]);
    maxX = Math.max(maxX, box[2]);
    maxY = Math.max(maxY, box[3]);
  }
  if (count === 0) {
    minX = 0;
    minY = 0;
    maxX = 0;
    maxY = 0;
  }
  let size = Math.max(cell, 1e-6);
  while (Math.ceil((maxX - minX) / size + 1e-9) * Math.ceil((maxY - minY) / size + 1e-9) > MAX_CELLS) size *= 2;
  const nx = Math.max(1, Math.ceil((maxX - minX) / size + 1e-9));
  const ny = Math.max(1, Math.ceil((maxY - minY) / size + 1e-9));
  const grid = { x0: minX, y0: minY, cell: size, nx, ny };
  const starts = new Int32Array(nx * ny + 1);
  forEachCell(grid, boxes, count, (c) => {
    starts[c + 1] = (starts[c + 1] as number) + 1;
  });
  for (let c = 0; c < nx * ny; c += 1) starts[c + 1] = (starts[c + 1] as number) + (starts[c] as number);
  const items = new Int32Array(starts[nx * ny] as number);
  const fill = starts.slice(0, nx * ny);
  forEachCell(grid, boxes, count, (c, t) => {
    items[fill[c] as number] = t;
    fill[c] = (fill[c] as number) + 1;
  });
  return { ...grid, starts, items, boxes };
}

type GridFrame = Pick<TriangleGrid, "x0" | "y0" | "cell" | "nx" | "ny">;

function forEachCell(grid: GridFrame, boxes: Float64Array, count: number, visit: (cell: number, t: number) => void) {
  for (let t = 0; t < count; t += 1) {
    const [i0, j0, i1, j1] = cellRange(grid, {
      minX: boxes[4 * t] as number,
      minY: boxes[4 * t + 1] as number,
      maxX: boxes[4 * t + 2] as number,
      maxY: boxes[4 * t + 3] as number,
    });
    for (let j = j0; j <= j1; j += 1) for (let i = i0; i <= i1; i += 1) visit(j * grid.nx + i, t);
  }
}

export interface BoxXY {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

/** The cells (first i, first j, last i, last j) a box overlaps, clamped to the grid; empty when i0 > i1. */
export function cellRange(grid: GridFrame, box: BoxXY): [number, number, number, number] {
  const i0 = Math.max(0, Math.floor((box.minX - grid.x0) / grid.cell));
  const j0 = Math.max(0, Math.floor((box.minY - grid.y0) / grid.cell));
  const i1 = Math.min(grid.nx - 1, Math.floor((box.maxX - grid.x0) / grid.cell));
  const j1 = Math.min(grid.ny - 1, Math.floor((box.maxY - grid.y0) / grid.cell));
  return [i0, j0, i1, j1];
}
