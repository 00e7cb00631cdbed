/**
 * Waterline: the closed loops the cutter's tip follows at height z while touching the part, for
 * constant-Z finishing of steep walls.
 *
 * Fibres run in x and in y, `step` apart, over a region. Where along a fibre the cutter at z
 * would enter the part is where the drop (drop-cutter.ts) rises above z: the nodes where fibres
 * meet are dropped once (the grid serves every z), and each fibre interval's ends are found
 * between a node in and a node out by bisecting the drop to `tolerance`. The intervals' ends
 * are then woven into loops cell by cell of the fibre grid (marching squares: in each cell the
 * ends are joined in order around it; where all four corners alternate, the drop at the cell's
 * centre says which pairs belong together). Loops keep the part on their left: counter-clockwise
 * round a boss, clockwise round a pocket. A loop the region's border cuts comes back as one open
 * chain, from where it enters the region to where it leaves.
 *
 * Measuring against the drop sees the part from +Z, as a 3-axis tool does: an overhang above z
 * pushes the loop out as the shank would be pushed. A fibre interval shorter than `step` that
 * falls between two nodes (a peak just above z, a slit narrower than the cutter would be none)
 * is missed; keep `step` below the smallest feature the loops must follow.
 */
import type { DropCutter } from "./drop-cutter.ts";
import type { BoxXY } from "./triangle-grid.ts";

export interface WaterlineGridOptions {
  /** fibre spacing in x and y, mm */
  step: number;
  /** the fibres' extent; default the part's XY box grown by the cutter's radius and a step */
  region?: BoxXY;
}

export interface WaterlineLoop {
  z: number;
  /** x, y per point; closed (the last point joins the first) unless the region's border cut it */
  points: Float64Array;
}

/** The drops at the fibres' crossings, once for every height asked. */
export class WaterlineGrid {
  readonly x0: number;
  readonly y0: number;
  readonly step: number;
  /** nodes in x and in y */
  readonly nx: number;
  readonly ny: number;
  readonly heights: Float64Array;

  constructor(
    readonly drop: DropCutter,
    options: WaterlineGridOptions,
  ) {
    if (!(options.step > 0)) throw new RangeError(`a waterline's step must be positive, not ${options.step}`);
    const region = options.region ?? grownPartBox(drop, drop.cutter.radius + options.step);
    this.step = options.step;
    this.x0 = region.minX;
    this.y0 = region.minY;
    this.nx = Math.max(2, Math.ceil((region.maxX - region.minX) / options.step) + 1);
    this.ny = Math.max(2, Math.ceil((region.maxY - region.minY) / options.step) + 1);
    this.heights = new Float64Array(this.nx * this.ny);
    for (let j = 0; j < this.ny; j += 1)
      for (let i = 0; i < this.nx; i += 1) this.heights[j * this.nx + i] = drop.dropAt(this.x(i), this.y(j));
  }

  x(i: number): number {
    return this.x0 + i * this.step;
  }
  y(j: number): number {
    return this.y0 + j * this.step;
  }

  /** The loops at height z, fibre ends within `tolerance` (mm along the fibre) of the contact. */
  loops(z: number, tolerance: number): WaterlineLoop[] {
    return weave(this, z, tolerance);
  }
}

function grownPartBox(drop: DropCutter, margin: number): BoxXY {
  const { facets, count } = drop.records;
  const box = { minX: Infinity, minY: Infinity, maxX: -Infinity, maxY: -Infinity };
  for (let k = 0; k < count * 12; k += 3) {
    if (k % 12 === 9) continue; // the normal
    box.minX = Math.min(box.minX, facets[k] as number);
    box.maxX = Math.max(box.maxX, facets[k] as number);
    box.minY = Math.min(box.minY, facets[k + 1] as number);
    box.maxY = Math.max(box.maxY, facets[k + 1] as number);
  }
  if (count === 0) return { minX: 0, minY: 0, maxX: 0, maxY: 0 };
  return { minX: box.minX - margin, minY: box.minY - margin, maxX: box.maxX + margin, maxY: box.maxY + margin };
}

/**
 * A cell's edges counter-clockwise from its lower-left corner: bottom, right, top, left, each
 * from the corner it starts at (corners 0..3 counter-clockwise) to the next.
 */
const CORNERS: readonly (readonly [number, number])[] = [
  [0, 0],
  [1, 0],
  [1, 1],
  [0, 1],
];

function weave(grid: WaterlineGrid, z: number, tolerance: number): WaterlineLoop[] {
  const { nx, ny, heights } = grid;
  const inside = (i: number, j: number) => (heights[j * nx + i] as number) > z;
  // edge ids: x-fibre pieces (i, j)-(i + 1, j) first, then y-fibre pieces (i, j)-(i, j + 1)
  const xPieces = (nx - 1) * ny;
  const edgeOf = (i: number, j: number, side: number): number => {
    if (side === 0) return j * (nx - 1) + i;
    if (side === 2) return (j + 1) * (nx - 1) + i;
    if (side === 1) return xPieces + j * nx + i + 1;
    return xPieces + j * nx + i;
  };
  const next = new Map<number, number>();
  for (let j = 0; j + 1 < ny; j += 1) {
    for (let i = 0; i + 1 < nx; i += 1) {
      const corner = CORNERS.map(([di, dj]) => inside(i + di, j + dj));
      // crossings counter-clockwise, each marked whether the walk leaves the part there
      const crossings: { edge: number; leaves: boolean }[] = [];
      for (let side = 0; side < 4; side += 1) {
        if (corner[side] !== corner[(side + 1) % 4])
          crossings.push({ edge: edgeOf(i, j, side), leaves: corner[side] as boolean });
      }
      if (crossings.length === 0) continue;
      // two crossings join each other; four join by whether the centre is in the part
      const centreIn =
        crossings.length === 4 && grid.drop.dropAt(grid.x(i) + grid.step / 2, grid.y(j) + grid.step / 2) > z;
      const n = crossings.length;
      crossings.forEach((crossing, k) => {
        if (!crossing.leaves) return;
        const to = crossings[centreIn ? (k + 1) % n : (k + n - 1) % n] as { edge: number };
        next.set(crossing.edge, to.edge);
      });
    }
  }
  // a chain the region's border cuts open is walked from its head, the crossing no other leads
  // to: walked from any key in the map's order it fell into pieces of a point or two, which the
  // passes dropped (NIST STC-06's side setups: a dome's flank left 2 mm high)
  const led = new Set(next.values());
  const heads = [...next.keys()].filter((edge) => !led.has(edge));
  const loops: WaterlineLoop[] = [];
  const done = new Set<number>();
  for (const start of [...heads, ...next.keys()]) {
    if (done.has(start)) continue;
    const points: number[] = [];
    let edge: number | undefined = start;
    while (edge !== undefined && !done.has(edge)) {
      done.add(edge);
      points.push(...crossingPoint(grid, { edge, xPieces, z, tolerance }));
      edge = next.get(edge);
    }
    loops.push({ z, points: Float64Array.from(points) });
  }
  return loops;
}

/** Where along the fibre piece `edge` the drop passes z, between its in and out ends (see the body). */
function crossingPoint(
  grid: WaterlineGrid,
  at: { edge: number; xPieces: number; z: number; tolerance: number },
): [number, number] {
  const { nx, heights } = grid;
  const alongX = at.edge < at.xPieces;
  const i = alongX ? at.edge % (nx - 1) : (at.edge - at.xPieces) % nx;
  const j = alongX ? Math.floor(at.edge / (nx - 1)) : Math.floor((at.edge - at.xPieces) / nx);
  const [di, dj] = alongX ? [1, 0] : [0, 1];
  const x0 = grid.x(i);
  const y0 = grid.y(j);
  const dropAt = (t: number) => grid.drop.dropAt(x0 + di * t * grid.step, y0 + dj * t * grid.step) - at.z;
  // s in [0, 1] along the piece from (i, j), the drop less z changing sign between lo and hi:
  // false position where the drop is smooth (Illinois: the end kept twice has its value halved),
  // halving where a step (a wall) makes it stall, until the bracket is within the tolerance
  let lo = 0;
  let hi = 1;
  let flo = (heights[j * nx + i] as number) - at.z;
  let fhi = (heights[(j + dj) * nx + i + di] as number) - at.z;
  const precision = at.tolerance / grid.step;
  let side = 0;
  while (hi - lo > precision) {
    const secant = (lo * fhi - hi * flo) / (fhi - flo);
    const width = hi - lo;
    // a false-position point too near an end (a stalled end, a wall) gives way to the middle
    const mid =
      Number.isFinite(secant) && secant > lo + width / 16 && secant < hi - width / 16 ? secant : (lo + hi) / 2;
    const f = dropAt(mid);
    if (f > 0 === flo > 0) {
      lo = mid;
      flo = f;
      if (side === -1) fhi /= 2;
      side = -1;
    } else {
      hi = mid;
      fhi = f;
      if (side === 1) flo /= 2;
      side = 1;
    }
  }
  const s = (lo + hi) / 2;
  return [x0 + di * s * grid.step, y0 + dj * s * grid.step];
}
