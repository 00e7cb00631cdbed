/**
 * What a move does to the cells its envelopes reach: the flutes cut (and may gouge the part),
 * a rapid must find nothing above its envelope, and the neck, shank and holder must find
 * nothing above theirs. Each keeps the worst cell of the current move, so a move is counted once
 * however many cells it offends.
 */
import type { BodyName } from "./cutter-profile.ts";
import type { BlockBounds } from "./block-bounds.ts";
import { visitEachCell, type CellVisitor } from "./sweep.ts";

/** A cut into the part deeper than this is a gouge; material this far into a tool's path is touched. */
export const DEFAULT_TOLERANCE_MM = 0.01;

/** The worst cell of one kind within one move: how deep, where, and the tool's z there. */
export class Worst {
  depth = 0;
  cell = -1;
  z = 0;
  body: BodyName | null = null;
  /** the drill cycle's hole the offending motion belongs to, -1 for other moves */
  hole = -1;
  /** the hole of the motion now running */
  currentHole = -1;

  offer(depth: number, cell: number, z: number, body: BodyName | null): void {
    if (depth > this.depth) {
      this.depth = depth;
      this.cell = cell;
      this.z = z;
      this.body = body;
      this.hole = this.currentHole;
    }
  }

  clear(): void {
    this.depth = 0;
    this.cell = -1;
    this.body = null;
    this.hole = -1;
  }
}

/**
 * The flutes: every cell lowered to the envelope, unless its material reaches higher than the
 * flutes ever are over it (that material stays: the flutes cannot take it, and whatever is above
 * them will say so as a collision). A cell of the part cut below its height by more than the
 * tolerance is a gouge.
 */
export class Cutting implements CellVisitor {
  fluteLength = 0;
  readonly gouge = new Worst();

  constructor(
    private readonly heights: Float32Array,
    private readonly part: Float32Array,
    private readonly bounds: BlockBounds,
    private readonly bottom: number,
    private readonly tolerance: number,
  ) {}

  visit(i: number, j: number, k: number, low: number, highTip: number): void {
    const h = this.heights[k] as number;
    // compared as stored: a cell cut to this envelope before may hold it rounded up
    if (!(h > Math.fround(low)) || h > highTip + this.fluteLength + this.tolerance) return;
    // told before the cut: it may save the heights as they are (block-bounds.ts: undo)
    this.bounds.touched(i, j);
    // below the stock's bottom there is nothing to cut (a profile through to the table)
    this.heights[k] = Math.max(low, this.bottom);
    const depth = (this.part[k] as number) - low;
    if (depth > this.tolerance) this.gouge.offer(depth, k, low, null);
  }

  visitRow(j: number, i0: number, i1: number, row: number, low: number, highTip: number): void {
    const stored = Math.fround(low);
    const ceiling = highTip + this.fluteLength + this.tolerance;
    const cut = Math.max(low, this.bottom);
    for (let i = i0; i <= i1; i++) {
      const k = row + i;
      const h = this.heights[k] as number;
      if (!(h > stored) || h > ceiling) continue;
      this.bounds.touched(i, j);
      this.heights[k] = cut;
      const depth = (this.part[k] as number) - low;
      if (depth > this.tolerance) this.gouge.offer(depth, k, low, null);
    }
  }

  threshold(k: number): number {
    return this.heights[k] as number;
  }

  rowThreshold(j: number, i0: number, i1: number): number {
    return this.bounds.rowAbove(j, i0, i1, false);
  }
}

/**
 * A rapid: the envelope below the material's top by more than the tolerance. Rapids never cut.
 * A column cut down to the stock's bottom is empty, whatever is below it.
 */
export class RapidCheck implements CellVisitor {
  readonly through = new Worst();

  constructor(
    private readonly heights: Float32Array,
    private readonly bounds: BlockBounds,
    private readonly bottom: number,
    private readonly tolerance: number,
  ) {}

  visit(_i: number, _j: number, k: number, low: number): void {
    const h = this.heights[k] as number;
    if (h > this.bottom && h - low > this.tolerance) this.through.offer(h - low, k, low, null);
  }

  visitRow(_j: number, i0: number, i1: number, row: number, low: number): void {
    for (let k = row + i0, end = row + i1; k <= end; k++) {
      const h = this.heights[k] as number;
      if (h > this.bottom && h - low > this.tolerance) this.through.offer(h - low, k, low, null);
    }
  }

  threshold(k: number): number {
    const h = this.heights[k] as number;
    return h > this.bottom ? h - this.tolerance : -Infinity;
  }

  rowThreshold(j: number, i0: number, i1: number): number {
    return this.bounds.rowAbove(j, i0, i1, false) - this.tolerance;
  }
}

/** A neck, shank or holder: below the top of the material or of the part by more than the tolerance. */
export class BodyCheck implements CellVisitor {
  body: BodyName = "shank";
  readonly touch = new Worst();

  constructor(
    private readonly heights: Float32Array,
    private readonly part: Float32Array,
    private readonly bounds: BlockBounds,
    private readonly bottom: number,
    private readonly tolerance: number,
  ) {}

  visit(_i: number, _j: number, k: number, low: number): void {
    const h = this.heights[k] as number;
    const depth = Math.max(h > this.bottom ? h : -Infinity, this.part[k] as number) - low;
    if (depth > this.tolerance) this.touch.offer(depth, k, low, this.body);
  }

  visitRow(j: number, i0: number, i1: number, row: number, low: number, highTip: number): void {
    visitEachCell(this, j, i0, i1, row, low, highTip);
  }

  threshold(k: number): number {
    const h = this.heights[k] as number;
    return Math.max(h > this.bottom ? h : -Infinity, this.part[k] as number) - this.tolerance;
  }

  rowThreshold(j: number, i0: number, i1: number): number {
    return this.bounds.rowAbove(j, i0, i1, true) - this.tolerance;
  }
}

/**
 * The workholding (fixtures.ts): the flutes or a body below the height of a jaw, parallel or
 * clamp grown by its clearance, by more than the tolerance. It reads only the fixtures' static
 * heights, never the stock: a vise is hit whether or not material stands in front of it, and a
 * rapid is as bad as a cut there.
 */
export class FixtureCheck implements CellVisitor {
  /** the envelope swept: a body, or null for the flutes */
  body: BodyName | null = null;
  readonly touch = new Worst();

  constructor(
    private readonly heights: Float32Array,
    /** per row, the highest of its heights (-Infinity where the row meets no fixture) */
    private readonly rowTops: Float32Array,
    private readonly tolerance: number,
  ) {}

  visit(_i: number, _j: number, k: number, low: number): void {
    const depth = (this.heights[k] as number) - low;
    if (depth > this.tolerance) this.touch.offer(depth, k, low, this.body);
  }

  visitRow(j: number, i0: number, i1: number, row: number, low: number, highTip: number): void {
    visitEachCell(this, j, i0, i1, row, low, highTip);
  }

  threshold(k: number): number {
    return (this.heights[k] as number) - this.tolerance;
  }

  rowThreshold(j: number): number {
    return (this.rowTops[j] as number) - this.tolerance;
  }
}
