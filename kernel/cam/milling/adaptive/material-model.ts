/**
 * The material adaptive clearing still has to take at one level, as cells (grid.ts): what a tool
 * step would cut is counted on it, and what the tool passes is cleared from it as it goes.
 *
 * The tool is cleared round every position it stands at, so a step from there cuts only the
 * cells of its new disc outside the old one: the crescent, counted row by row without the
 * cells in between (a 10 mm tool's 0.5 mm step at 0.1 mm cells: some 1,000 cells instead of
 * 7,900).
 */
import type { Vec2 } from "../../types.ts";
import type { CellGrid } from "./grid.ts";

export class MaterialModel {
  readonly grid: CellGrid;
  /** 1 where material is */
  readonly cells: Uint8Array;
  readonly radius: number;

  constructor(grid: CellGrid, cells: Uint8Array, radius: number) {
    this.grid = grid;
    this.cells = cells;
    this.radius = radius;
  }

  /** The material (mm²) the tool's disc at `to` holds beyond its disc at `from`, which is cleared. */
  cutArea(from: Vec2, to: Vec2): number {
    const { grid, cells, radius } = this;
    const { cell, x0, y0, nx } = grid;
    const r2 = radius * radius;
    let count = 0;
    grid.discRows(to, radius, (iy, first, last) => {
      const base = iy * nx;
      const dy = y0 + (iy + 0.5) * cell - from[1];
      let skipFrom = last + 1;
      let skipTo = last;
      if (dy * dy <= r2) {
        const w = Math.sqrt(r2 - dy * dy);
        skipFrom = Math.ceil((from[0] - w - x0) / cell - 0.5);
        skipTo = Math.floor((from[0] + w - x0) / cell - 0.5);
      }
      for (let ix = first; ix <= last; ix += 1) {
        if (ix === skipFrom && skipTo >= skipFrom) {
          ix = skipTo;
          continue;
        }
        count += cells[base + ix] as number;
      }
    });
    return count * cell * cell;
  }

  /**
   * The radial engagement (mm) of the tool at `at` heading `heading` (radians): the arc φ of the
   * leading half of its edge (points half a cell inside it) that lies in material, as the width
   * of a straight side cut with that arc, R·(1 - cos φ) (2R from φ = π on). Measured after a
   * step from a position whose disc is cleared: the leading half's points lie beyond that disc
   * when the step is longer than sqrt(R·cell).
   */
  engagementAt(at: Vec2, heading: number): number {
    const { grid, cells, radius } = this;
    const edge = radius - grid.cell / 2;
    const samples = Math.max(16, Math.ceil((Math.PI * edge) / (grid.cell / 2)));
    let inside = 0;
    for (let k = 0; k < samples; k += 1) {
      const a = heading - Math.PI / 2 + (Math.PI * (k + 0.5)) / samples;
      const index = grid.indexOf([at[0] + edge * Math.cos(a), at[1] + edge * Math.sin(a)]);
      if (index >= 0) inside += cells[index] as number;
    }
    const phi = (Math.PI * inside) / samples;
    return phi >= Math.PI ? 2 * radius : radius * (1 - Math.cos(phi));
  }

  /** The material (mm²) in the tool's disc at `at`. */
  areaAt(at: Vec2): number {
    const { grid, cells } = this;
    let count = 0;
    grid.discRows(at, this.radius, (iy, first, last) => {
      const base = iy * grid.nx;
      for (let ix = first; ix <= last; ix += 1) count += cells[base + ix] as number;
    });
    return count * grid.cell * grid.cell;
  }

  /** Clears the tool's disc at `at`. */
  clearAt(at: Vec2): void {
    const { grid, cells } = this;
    grid.discRows(at, this.radius, (iy, first, last) => {
      cells.fill(0, iy * grid.nx + first, iy * grid.nx + last + 1);
    });
  }

  /** Clears what the tool sweeps along a polyline, by discs at most half a cell apart. */
  clearAlong(points: readonly Vec2[]): void {
    const spacing = this.grid.cell / 2;
    for (let i = 0; i < points.length; i += 1) {
      const b = points[i] as Vec2;
      const a = points[i - 1] ?? b;
      const n = Math.max(1, Math.ceil(Math.hypot(b[0] - a[0], b[1] - a[1]) / spacing));
      for (let k = 1; k <= n; k += 1) this.clearAt([a[0] + ((b[0] - a[0]) * k) / n, a[1] + ((b[1] - a[1]) * k) / n]);
    }
  }

  /** Cells still holding material. */
  count(): number {
    let n = 0;
    for (const value of this.cells) n += value;
    return n;
  }
}
