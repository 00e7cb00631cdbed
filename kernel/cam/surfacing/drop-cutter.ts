/**
 * Drop-cutter over a triangle soup: the height of the cutter's tip at (x, y) when lowered along
 * -Z until it touches the part (the cutter-location point, CL). The answer is the highest of
 * the drops against every facet and edge under the cutter's disc (cutters.ts), exact for the
 * triangles; the grid (triangle-grid.ts) finds those, each cell's triangles highest first so a
 * cell is left as soon as none of its rest can lift the cutter any more.
 */
import type { TriangleSoup } from "../types.ts";
import type { DropPoint, SurfaceCutter } from "./cutters.ts";
import { type TriangleGrid, cellRange, triangleGrid } from "./triangle-grid.ts";
import { FACET_STRIDE, type TriangleRecords, triangleRecords } from "./triangle-records.ts";

export interface DropCutterOptions {
  /** where the tip rests when nothing is under it; default the soup's lowest z */
  floor?: number;
  /** the grid's cell in mm; default the cutter's radius */
  cell?: number;
}

export class DropCutter {
  readonly floor: number;
  readonly records: TriangleRecords;
  private readonly grid: TriangleGrid;
  /** per triangle: its highest corner, which no drop against it exceeds */
  private readonly tops: Float64Array;
  private readonly stamps: Uint32Array;
  private stamp = 0;
  /** the one query object the cutter reads, reused */
  private readonly query: DropPoint = { x: 0, y: 0, above: -Infinity };
  /** drops answered, for measuring */
  drops = 0;

  constructor(
    soup: TriangleSoup,
    readonly cutter: SurfaceCutter,
    options: DropCutterOptions = {},
  ) {
    this.records = triangleRecords(soup);
    const { facets, count } = this.records;
    this.tops = new Float64Array(count);
    let lowest = Infinity;
    for (let t = 0; t < count; t += 1) {
      const at = t * FACET_STRIDE;
      const zs = [facets[at + 2] as number, facets[at + 5] as number, facets[at + 8] as number];
      this.tops[t] = Math.max(...zs);
      lowest = Math.min(lowest, ...zs);
    }
    this.floor = options.floor ?? (count > 0 ? lowest : 0);
    this.grid = triangleGrid(this.records, options.cell ?? cutter.radius);
    const { starts, items } = this.grid;
    for (let c = 0; c + 1 < starts.length; c += 1) {
      const cellItems = items.subarray(starts[c] as number, starts[c + 1] as number);
      cellItems.sort((a, b) => (this.tops[b] as number) - (this.tops[a] as number));
    }
    this.stamps = new Uint32Array(count);
  }

  /** The tip's height at (x, y): touching the part, never below the floor. */
  dropAt(x: number, y: number): number {
    this.drops += 1;
    this.stamp += 1;
    if (this.stamp === 0xffffffff) {
      this.stamps.fill(0);
      this.stamp = 1;
    }
    const r = this.cutter.radius;
    const { starts, items, boxes, nx } = this.grid;
    const { facets } = this.records;
    const [i0, j0, i1, j1] = cellRange(this.grid, { minX: x - r, minY: y - r, maxX: x + r, maxY: y + r });
    let best = this.floor;
    const query = this.query;
    query.x = x;
    query.y = y;
    for (let j = j0; j <= j1; j += 1) {
      for (let i = i0; i <= i1; i += 1) {
        const c = j * nx + i;
        const end = starts[c + 1] as number;
        for (let k = starts[c] as number; k < end; k += 1) {
          const t = items[k] as number;
          if ((this.tops[t] as number) <= best) break;
          if (this.stamps[t] === this.stamp) continue;
          this.stamps[t] = this.stamp;
          const b = 4 * t;
          // how near the triangle's box comes: beyond the radius it is out of reach, and nearer
          // its highest corner less the cutter's height there bounds its drop
          const gapX = Math.max((boxes[b] as number) - x, x - (boxes[b + 2] as number), 0);
          const gapY = Math.max((boxes[b + 1] as number) - y, y - (boxes[b + 3] as number), 0);
          const gap = Math.sqrt(gapX * gapX + gapY * gapY);
          if (gap > r || (this.tops[t] as number) - this.cutter.height(gap) <= best) continue;
          query.above = best;
          best = Math.max(best, this.triangleDrop(query, facets, t * FACET_STRIDE));
        }
      }
    }
    return best;
  }

  /** The drop against one triangle: its interior and its three edges (which hold its corners). */
  private triangleDrop(cl: DropPoint, facets: Float64Array, at: number): number {
    const cutter = this.cutter;
    return Math.max(
      cutter.facetDrop(cl, facets, at),
      cutter.edgeDrop(cl, facets, at, at + 3),
      cutter.edgeDrop(cl, facets, at + 3, at + 6),
      cutter.edgeDrop(cl, facets, at + 6, at),
    );
  }
}

export interface LineSampling {
  /** the longest step between two CL points along the line */
  step: number;
  /** the largest distance in z from a sampled midpoint to the chord its neighbours make */
  tolerance: number;
  /** no refinement below this step; default step / 64 */
  minStep?: number;
}

/**
 * CL points along the segment from `from` to `to` (x, y each): samples at most `step` apart,
 * each interval halved while its midpoint's drop lies more than `tolerance` off the chord (a
 * feature narrower than `step` between two samples that agree can be missed, as with any
 * sampling: keep `step` below the narrowest feature to follow). Returns x, y, z per point.
 */
export function dropLine(
  drop: DropCutter,
  line: { from: readonly [number, number]; to: readonly [number, number] },
  sampling: LineSampling,
): Float64Array {
  const [x0, y0] = line.from;
  const [x1, y1] = line.to;
  const length = Math.hypot(x1 - x0, y1 - y0);
  const minStep = sampling.minStep ?? sampling.step / 64;
  const pieces = Math.max(1, Math.ceil(length / sampling.step));
  const out: number[] = [];
  const at = (u: number): [number, number, number] => {
    const x = x0 + (x1 - x0) * u;
    const y = y0 + (y1 - y0) * u;
    return [x, y, drop.dropAt(x, y)];
  };
  const refine = (ua: number, a: [number, number, number], ub: number, b: [number, number, number]) => {
    if ((ub - ua) * length > minStep) {
      const um = (ua + ub) / 2;
      const m = at(um);
      if (Math.abs(m[2] - (a[2] + b[2]) / 2) > sampling.tolerance) {
        refine(ua, a, um, m);
        out.push(...m);
        refine(um, m, ub, b);
      }
    }
  };
  let previous = at(0);
  out.push(...previous);
  for (let p = 1; p <= pieces; p += 1) {
    const next = at(p / pieces);
    refine((p - 1) / pieces, previous, p / pieces, next);
    out.push(...next);
    previous = next;
  }
  return Float64Array.from(out);
}
