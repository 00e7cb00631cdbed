/**
 * A square grid of cells over a rectangle (mm), and regions filled onto it by their cells'
 * centres: the 2D model adaptive clearing measures its cuts on. A cell is "in" a region when its
 * centre is (NonZero rule, as Clipper's regions are), so a filled region is exact at the centres
 * and off by at most half a cell's diagonal anywhere else.
 */
import type { Vec2 } from "../../types.ts";
import { SCALE, type Paths64, type Rect64 } from "../polygons.ts";

export class CellGrid {
  /** the corner of cell (0, 0), mm */
  readonly x0: number;
  readonly y0: number;
  readonly cell: number;
  readonly nx: number;
  readonly ny: number;

  constructor(rect: Rect64, cell: number) {
    this.cell = cell;
    this.x0 = rect.left / SCALE;
    this.y0 = rect.top / SCALE;
    this.nx = Math.max(1, Math.ceil((rect.right - rect.left) / SCALE / cell));
    this.ny = Math.max(1, Math.ceil((rect.bottom - rect.top) / SCALE / cell));
  }

  get size(): number {
    return this.nx * this.ny;
  }

  centreX(ix: number): number {
    return this.x0 + (ix + 0.5) * this.cell;
  }

  centreY(iy: number): number {
    return this.y0 + (iy + 0.5) * this.cell;
  }

  /** The index of the cell holding p, or -1 outside the grid. */
  indexOf(p: Vec2): number {
    const ix = Math.floor((p[0] - this.x0) / this.cell);
    const iy = Math.floor((p[1] - this.y0) / this.cell);
    if (ix < 0 || iy < 0 || ix >= this.nx || iy >= this.ny) return -1;
    return iy * this.nx + ix;
  }

  centreOf(index: number): Vec2 {
    return [this.centreX(index % this.nx), this.centreY(Math.floor(index / this.nx))];
  }

  /** The rows a disc of radius r round c reaches, each with the first and last column whose centre is in it (clipped to the grid). */
  discRows(c: Vec2, r: number, visit: (iy: number, first: number, last: number) => void): void {
    const { cell, x0, y0 } = this;
    const low = Math.max(0, Math.ceil((c[1] - r - y0) / cell - 0.5));
    const high = Math.min(this.ny - 1, Math.floor((c[1] + r - y0) / cell - 0.5));
    for (let iy = low; iy <= high; iy += 1) {
      const dy = y0 + (iy + 0.5) * cell - c[1];
      const w = Math.sqrt(Math.max(0, r * r - dy * dy));
      const first = Math.max(0, Math.ceil((c[0] - w - x0) / cell - 0.5));
      const last = Math.min(this.nx - 1, Math.floor((c[0] + w - x0) / cell - 0.5));
      if (first <= last) visit(iy, first, last);
    }
  }

  /** 1 for every cell whose centre is inside `region` (NonZero), else 0. */
  fill(region: Paths64): Uint8Array {
    const out = new Uint8Array(this.size);
    const crossings: { x: number; w: number }[][] = Array.from({ length: this.ny }, () => []);
    for (const path of region) {
      const n = path.length;
      for (let i = 0; i < n; i += 1) {
        const a = path[i] as { x: number; y: number };
        const b = path[(i + 1) % n] as { x: number; y: number };
        const ay = a.y / SCALE;
        const by = b.y / SCALE;
        if (ay === by) continue;
        const [lo, hi] = ay < by ? [ay, by] : [by, ay];
        // rows whose centre line lies in [lo, hi): each crossing counted once where edges meet
        const first = Math.max(0, Math.ceil((lo - this.y0) / this.cell - 0.5));
        const last = Math.min(this.ny - 1, Math.ceil((hi - this.y0) / this.cell - 0.5) - 1);
        const ax = a.x / SCALE;
        const slope = (b.x / SCALE - ax) / (by - ay);
        const winding = by > ay ? 1 : -1;
        for (let iy = first; iy <= last; iy += 1) {
          const y = this.centreY(iy);
          (crossings[iy] as { x: number; w: number }[]).push({ x: ax + (y - ay) * slope, w: winding });
        }
      }
    }
    for (let iy = 0; iy < this.ny; iy += 1) {
      const row = (crossings[iy] as { x: number; w: number }[]).sort((p, q) => p.x - q.x);
      let winding = 0;
      for (let k = 0; k < row.length; k += 1) {
        const { x, w } = row[k] as { x: number; w: number };
        const before = winding;
        winding += w;
        if (before !== 0 || winding === 0) continue;
        // entering: fill to where the winding comes back to zero
        let end = k + 1;
        let inside = winding;
        for (; end < row.length; end += 1) {
          inside += (row[end] as { x: number; w: number }).w;
          if (inside === 0) break;
        }
        const to = (row[Math.min(end, row.length - 1)] as { x: number; w: number }).x;
        const first = Math.max(0, Math.ceil((x - this.x0) / this.cell - 0.5));
        const last = Math.min(this.nx - 1, Math.ceil((to - this.x0) / this.cell - 0.5) - 1);
        if (first <= last) out.fill(1, iy * this.nx + first, iy * this.nx + last + 1);
        winding = 0;
        k = end;
      }
    }
    return out;
  }
}
