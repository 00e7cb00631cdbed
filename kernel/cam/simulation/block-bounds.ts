/**
 * Upper bounds of the material and the part over square blocks of cells, so that a move far
 * above everything under it (most rapids, and the holder on nearly every move) is dismissed
 * without visiting its cells.
 *
 * Heights only ever go down, so a block's stored maximum stays an upper bound after a cut; it
 * is recomputed (lazily, when asked for fresh bounds) only for the blocks a cut has touched.
 *
 * Cuts can also be undone back to a mark: after mark(), each row of blocks (BLOCK rows of cells,
 * one stretch of memory) is saved before a cut first lowers one of its heights, and undo() puts
 * them back. The planner's verification simulates each operation on the stock the kept ones left
 * and keeps it only without a violation; a copy of the whole field for each operation, and
 * bounds made anew over it, took 2.2 s of NIST STC-06's simulation, where most operations touch
 * a few rows of blocks.
 */
import type { Grid } from "./height-field.ts";

const BLOCK_SHIFT = 5;
/** per part height field (one grid each), its blocks' maxima */
const PART_MAXIMA = new WeakMap<Float32Array, Float32Array>();
const BLOCK = 1 << BLOCK_SHIFT;

export class BlockBounds {
  private readonly bx: number;
  private readonly by: number;
  private readonly stockMax: Float32Array;
  private readonly partMax: Float32Array;
  private readonly dirty: Uint8Array;
  /** per row of blocks: the mark it was last saved under (0: none) */
  private readonly savedAt: Uint32Array;
  private mark_ = 0;
  /** the rows of blocks saved since the mark, and their heights, one after another */
  private saved: number[] = [];
  private savedHeights = new Float32Array(0);
  private savedCells = 0;

  constructor(
    private readonly grid: Grid,
    private readonly stock: Float32Array,
    part: Float32Array,
  ) {
    this.bx = Math.ceil(grid.nx / BLOCK);
    this.by = Math.ceil(grid.ny / BLOCK);
    this.stockMax = new Float32Array(this.bx * this.by);
    this.dirty = new Uint8Array(this.bx * this.by);
    this.savedAt = new Uint32Array(this.by);
    for (let b = 0; b < this.stockMax.length; b++) this.stockMax[b] = this.blockMax(stock, b);
    // the part's are the same for every operation of a setup (each one a simulation of its own);
    // heights only go down (carved holes), so the first ones stay upper bounds
    let partMax = PART_MAXIMA.get(part);
    if (partMax === undefined) {
      partMax = new Float32Array(this.bx * this.by);
      for (let b = 0; b < partMax.length; b++) partMax[b] = this.blockMax(part, b);
      PART_MAXIMA.set(part, partMax);
    }
    this.partMax = partMax;
  }

  /** A cut is about to lower cell (i, j). */
  touched(i: number, j: number): void {
    const bj = j >> BLOCK_SHIFT;
    this.dirty[bj * this.bx + (i >> BLOCK_SHIFT)] = 1;
    if (this.mark_ !== 0 && this.savedAt[bj] !== this.mark_) this.save(bj);
  }

  /**
   * From here on, cuts can be undone (undo) back to the heights as they are now. The bounds of
   * the blocks cut since the last mark are made tight again: an operation starts with the bounds
   * a new simulation of its own would have, which dismiss more of its moves unswept.
   */
  mark(): void {
    for (let b = 0; b < this.dirty.length; b++) {
      if (this.dirty[b] !== 1) continue;
      this.stockMax[b] = this.blockMax(this.stock, b);
      this.dirty[b] = 0;
    }
    this.mark_ += 1;
    this.saved = [];
    this.savedCells = 0;
  }

  /** The heights, and their bounds, as they were at the last mark (which stays). */
  undo(): void {
    let o = 0;
    for (const bj of this.saved) {
      const [start, end] = this.rowCells(bj);
      this.stock.set(this.savedHeights.subarray(o, o + end - start), start);
      o += end - start;
      for (let b = bj * this.bx; b < (bj + 1) * this.bx; b++) {
        this.stockMax[b] = this.blockMax(this.stock, b);
        this.dirty[b] = 0;
      }
    }
    this.mark();
  }

  /**
   * An upper bound of the material (and, with `part`, of the part) over the cells whose centres
   * lie in [xlo, xhi] x [ylo, yhi]; -Infinity when none do. `fresh` recomputes the blocks cut
   * since they were last asked for, for a tight bound.
   */
  above(xlo: number, xhi: number, ylo: number, yhi: number, fresh: boolean, part: boolean): number {
    const g = this.grid;
    const i0 = Math.max(0, Math.ceil((xlo - g.x0) / g.dx - 0.5)),
      i1 = Math.min(g.nx - 1, Math.floor((xhi - g.x0) / g.dx - 0.5));
    const j0 = Math.max(0, Math.ceil((ylo - g.y0) / g.dy - 0.5)),
      j1 = Math.min(g.ny - 1, Math.floor((yhi - g.y0) / g.dy - 0.5));
    if (i0 > i1 || j0 > j1) return -Infinity;
    let bound = -Infinity;
    for (let bj = j0 >> BLOCK_SHIFT; bj <= j1 >> BLOCK_SHIFT; bj++) {
      for (let bi = i0 >> BLOCK_SHIFT; bi <= i1 >> BLOCK_SHIFT; bi++) {
        const b = bj * this.bx + bi;
        if (fresh && this.dirty[b] === 1) {
          this.stockMax[b] = this.blockMax(this.stock, b);
          this.dirty[b] = 0;
        }
        bound = Math.max(bound, this.stockMax[b] as number, part ? (this.partMax[b] as number) : -Infinity);
      }
    }
    return bound;
  }

  /** An upper bound of the material (and, with `part`, of the part) over cells i0..i1 of row j. */
  rowAbove(j: number, i0: number, i1: number, part: boolean): number {
    const base = (j >> BLOCK_SHIFT) * this.bx;
    let bound = -Infinity;
    for (let bi = i0 >> BLOCK_SHIFT, end = i1 >> BLOCK_SHIFT; bi <= end; bi++) {
      const stock = this.stockMax[base + bi] as number;
      if (stock > bound) bound = stock;
      if (part && (this.partMax[base + bi] as number) > bound) bound = this.partMax[base + bi] as number;
    }
    return bound;
  }

  /** Row of blocks bj's heights, saved after those saved before it. */
  private save(bj: number): void {
    this.savedAt[bj] = this.mark_;
    const [start, end] = this.rowCells(bj);
    const used = this.savedCells;
    if (this.savedHeights.length < used + end - start) {
      const grown = new Float32Array(Math.max(2 * this.savedHeights.length, used + end - start));
      grown.set(this.savedHeights.subarray(0, used));
      this.savedHeights = grown;
    }
    this.savedHeights.set(this.stock.subarray(start, end), used);
    this.saved.push(bj);
    this.savedCells = used + end - start;
  }

  /** The cells of row of blocks bj: [first, after the last). */
  private rowCells(bj: number): [number, number] {
    const g = this.grid;
    return [bj * BLOCK * g.nx, Math.min(g.ny, (bj + 1) * BLOCK) * g.nx];
  }

  private blockMax(values: Float32Array, b: number): number {
    const g = this.grid;
    const bi = b % this.bx,
      bj = (b - bi) / this.bx;
    const i0 = bi * BLOCK,
      i1 = Math.min(g.nx, i0 + BLOCK);
    const j0 = bj * BLOCK,
      j1 = Math.min(g.ny, j0 + BLOCK);
    let max = -Infinity;
    for (let j = j0; j < j1; j++) {
      for (let k = j * g.nx + i0, end = j * g.nx + i1; k < end; k++) {
        const v = values[k] as number;
        if (v > max) max = v;
      }
    }
    return max;
  }
}
