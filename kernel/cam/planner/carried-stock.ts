/**
 * A setup starts from the stock the setups before it left (simulation/carried-stock.ts): the
 * milling generators get it as cleared layers of their in-process stock, the verification as
 * its starting height field. Both read the same column tops, so neither sees less material than
 * is there; the generators' layers are a little coarser still (CARRIED_LAYERS heights).
 */
import { columnTopAt, type ColumnTops } from "../simulation/carried-stock.ts";
import type { HeightField } from "../simulation/height-field.ts";
import type { PartHeights } from "../simulation/part-heights.ts";
import { InProcessStock, type ClearedLayer } from "../milling/stock.ts";
import { rectangle, smoothInside, union, type Paths64 } from "../milling/polygons.ts";
import type { Box3 } from "../types.ts";

/**
 * At most this many cleared layers describe the carried stock: every column top is rounded up to
 * the next of them. More layers follow the tops more closely (less air cut) and cost every
 * question the generators ask of the stock (what is left above a height unites the layers).
 */
export const CARRIED_LAYERS = 48;
/**
 * The cleared areas are made of columns: their edges are staircases of a column's step wherever
 * they run across the grid. Each is taken in by this many columns and its stairs cut to the
 * diagonal (polygons.ts: smoothInside), so it keeps a few vertices instead of two per column:
 * every offset of the stock (a tool's keep-out, its shank's and holder's) costs its vertex count
 * times the offset's length. The generators see that much more material than the simulation.
 */
const SMOOTHING = 0.75;

/**
 * The setup's starting height field: `field` lowered to the carried tops, never below the part.
 * A cell takes the column its centre lies in, as the generators' layers do (carriedStock): the
 * simulation reads a cell as material at its centre, so a cell straddling two columns that took
 * the higher would stand up to half a cell beyond what the generators keep their tools from.
 * (The columns' tops already hold a voxel's margin round the truth.)
 */
export function carriedField(columns: ColumnTops, field: HeightField, part: PartHeights): HeightField {
  const heights = field.heights.slice();
  for (let j = 0; j < field.ny; j += 1) {
    const y = field.y0 + (j + 0.5) * field.dy;
    for (let i = 0; i < field.nx; i += 1) {
      const cell = j * field.nx + i;
      const x = field.x0 + (i + 0.5) * field.dx;
      const top = Math.max(columnTopAt(columns, x, y), part.heights[cell] as number, field.bottom);
      heights[cell] = Math.min(heights[cell] as number, top);
    }
  }
  return { ...field, heights };
}

/** The generators' starting stock: the box with, per height, the columns whose top is below it cleared. */
export function carriedStock(box: Box3, columns: ColumnTops): InProcessStock {
  const bottom = box.min[2];
  const top = box.max[2];
  const step = Math.max(columns.dx, (top - bottom) / CARRIED_LAYERS);
  // each column's top rounded up to the layer heights: bottom, bottom + step, ...
  const level = (t: number): number => (t <= bottom ? 0 : Math.ceil((t - bottom) / step - 1e-9));
  const levels = Array.from(columns.tops, level);
  const highest = Math.ceil((top - bottom) / step - 1e-9);
  const smoothing = SMOOTHING * Math.max(columns.dx, columns.dy);
  const layers: ClearedLayer[] = [];
  for (let k = 0; k < highest; k += 1) {
    const z = bottom + k * step;
    const area = smoothInside(
      rowRuns(columns, (cell) => (levels[cell] as number) <= k, 2 * smoothing),
      smoothing,
    );
    if (area.length > 0) layers.push({ z, area });
  }
  return new InProcessStock(box).withCleared(layers);
}

/**
 * The columns where `inside` holds, as a region (Clipper units): rectangles of runs along each
 * row, united. Runs at the grid's edge reach `beyond` past it, so that taking the region in
 * (smoothInside) leaves no band of stock along the stock's sides.
 */
function rowRuns(columns: ColumnTops, inside: (cell: number) => boolean, beyond: number): Paths64 {
  const rects: Paths64 = [];
  const edgeX = (i: number) => columns.x0 + i * columns.dx + (i === 0 ? -beyond : i === columns.nx ? beyond : 0);
  for (let j = 0; j < columns.ny; j += 1) {
    const y0 = columns.y0 + j * columns.dy - (j === 0 ? beyond : 0);
    const y1 = columns.y0 + (j + 1) * columns.dy + (j === columns.ny - 1 ? beyond : 0);
    let start = -1;
    for (let i = 0; i <= columns.nx; i += 1) {
      const on = i < columns.nx && inside(j * columns.nx + i);
      if (on && start < 0) start = i;
      if (!on && start >= 0) {
        rects.push(...rectangle([edgeX(start), y0], [edgeX(i), y1]));
        start = -1;
      }
    }
  }
  return rects.length === 0 ? [] : union(rects);
}
