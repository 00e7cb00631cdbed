/**
 * How near a rapid comes to the material of a height field: the tool as a cylinder of its radius
 * from its tip up, swept along a straight move, against each cell as a square column of material
 * from the stock's bottom up to the cell's height. The distance is the gap between the two solids:
 * sideways from the cylinder's side to the column's square, up from the column's top to the tip,
 * both where both apply. A cell at the stock's edge is the stock box's face there, so a rapid
 * beside the stock is measured to the box's face, not to a cell centre half a cell inside it.
 */
import type { Vec3 } from "../../kernel/cam/types.ts";
import type { HeightField } from "../../kernel/cam/simulation/height-field.ts";

/** The nearest material to a swept tool: the gap and the cell's centre and top. */
export interface Nearest {
  distance_mm: number;
  /** the nearest cell's centre, at its material's top */
  at: Vec3;
}

/** Distance from (px, py) to the square [x0, x1] x [y0, y1] in XY. */
function toSquare(px: number, py: number, x0: number, x1: number, y0: number, y1: number): number {
  const dx = Math.max(0, x0 - px, px - x1);
  const dy = Math.max(0, y0 - py, py - y1);
  return Math.hypot(dx, dy);
}

/** Distance from (px, py) to the XY segment a-b. */
function toSegment(px: number, py: number, ax: number, ay: number, bx: number, by: number): number {
  const [ux, uy] = [bx - ax, by - ay];
  const length2 = ux * ux + uy * uy;
  const t = length2 === 0 ? 0 : Math.min(1, Math.max(0, ((px - ax) * ux + (py - ay) * uy) / length2));
  return Math.hypot(px - ax - t * ux, py - ay - t * uy);
}

/** Whether the XY segment a-b crosses the square (Liang-Barsky clipping). */
function crossesSquare(ax: number, ay: number, bx: number, by: number, square: readonly number[]): boolean {
  const [x0, x1, y0, y1] = square as [number, number, number, number];
  let [t0, t1] = [0, 1];
  const edges: [number, number][] = [
    [-(bx - ax), ax - x0],
    [bx - ax, x1 - ax],
    [-(by - ay), ay - y0],
    [by - ay, y1 - ay],
  ];
  for (const [p, q] of edges) {
    if (p === 0) {
      if (q < 0) return false;
      continue;
    }
    const r = q / p;
    if (p < 0) t0 = Math.max(t0, r);
    else t1 = Math.min(t1, r);
    if (t0 > t1) return false;
  }
  return true;
}

/** XY distance from a segment to a square: 0 when they meet, else the nearest of ends and corners. */
function segmentToSquare(ax: number, ay: number, bx: number, by: number, square: readonly number[]): number {
  const [x0, x1, y0, y1] = square as [number, number, number, number];
  if (crossesSquare(ax, ay, bx, by, square)) return 0;
  return Math.min(
    toSquare(ax, ay, x0, x1, y0, y1),
    toSquare(bx, by, x0, x1, y0, y1),
    toSegment(x0, y0, ax, ay, bx, by),
    toSegment(x1, y0, ax, ay, bx, by),
    toSegment(x0, y1, ax, ay, bx, by),
    toSegment(x1, y1, ax, ay, bx, by),
  );
}

const GOLDEN = (Math.sqrt(5) - 1) / 2;

/**
 * The gap along a move whose height changes as it goes sideways: convex in the move's parameter
 * (the sideways gap is a convex function less a constant clipped at 0, the vertical one linear
 * clipped at 0, and their Euclidean norm is convex), so a golden-section search finds it.
 */
function obliqueGap(from: Vec3, to: Vec3, radius: number, square: readonly number[], top: number): number {
  const [x0, x1, y0, y1] = square as [number, number, number, number];
  const gap = (t: number): number => {
    const px = from[0] + t * (to[0] - from[0]);
    const py = from[1] + t * (to[1] - from[1]);
    const pz = from[2] + t * (to[2] - from[2]);
    return Math.hypot(Math.max(0, toSquare(px, py, x0, x1, y0, y1) - radius), Math.max(0, pz - top));
  };
  let [lo, hi] = [0, 1];
  for (let k = 0; k < 40 && hi - lo > 1e-7; k += 1) {
    const a = hi - GOLDEN * (hi - lo);
    const b = lo + GOLDEN * (hi - lo);
    if (gap(a) <= gap(b)) hi = b;
    else lo = a;
  }
  return Math.min(gap(0), gap(1), gap((lo + hi) / 2));
}

/** The x range of the move's XY points with y in [ya, yb] (empty: lo > hi). */
function rowStretch(from: Vec3, to: Vec3, ya: number, yb: number): [number, number] {
  const dy = to[1] - from[1];
  let [t0, t1] = [0, 1];
  if (Math.abs(dy) < 1e-12) {
    if (from[1] < ya || from[1] > yb) return [Infinity, -Infinity];
  } else {
    const [ta, tb] = [(ya - from[1]) / dy, (yb - from[1]) / dy];
    t0 = Math.max(0, Math.min(ta, tb));
    t1 = Math.min(1, Math.max(ta, tb));
    if (t0 > t1) return [Infinity, -Infinity];
  }
  const [xa, xb] = [from[0] + t0 * (to[0] - from[0]), from[0] + t1 * (to[0] - from[0])];
  return [Math.min(xa, xb), Math.max(xa, xb)];
}

/**
 * The nearest material within `reach` of the swept tool (null: none that near). Cells whose top
 * is `reach` or more below the move's lowest tip are passed over before anything is computed.
 */
export function nearestMaterial(
  field: HeightField,
  move: { from: Vec3; to: Vec3; radius: number },
  reach: number,
): Nearest | null {
  const { from, to, radius } = move;
  const low = Math.min(from[2], to[2]);
  const level = Math.abs(to[2] - from[2]) < 1e-9;
  const bottom = Math.fround(field.bottom);
  const around = radius + reach;
  const i0 = Math.max(0, Math.floor((Math.min(from[0], to[0]) - around - field.x0) / field.dx));
  const i1 = Math.min(field.nx - 1, Math.floor((Math.max(from[0], to[0]) + around - field.x0) / field.dx));
  const j0 = Math.max(0, Math.floor((Math.min(from[1], to[1]) - around - field.y0) / field.dy));
  const j1 = Math.min(field.ny - 1, Math.floor((Math.max(from[1], to[1]) + around - field.y0) / field.dy));
  let best: Nearest | null = null;
  const square = [0, 0, 0, 0];
  for (let j = j0; j <= j1; j += 1) {
    square[2] = field.y0 + j * field.dy;
    square[3] = square[2] + field.dy;
    // only the stretch of the move within reach of this row: a long diagonal rapid's box is mostly far from it
    const [xa, xb] = rowStretch(from, to, (square[2] as number) - around, (square[3] as number) + around);
    const ia = Math.max(i0, Math.floor((xa - around - field.x0) / field.dx));
    const ib = Math.min(i1, Math.floor((xb + around - field.x0) / field.dx));
    for (let i = ia; i <= ib; i += 1) {
      const top = field.heights[j * field.nx + i] as number;
      if (top <= bottom || low - top >= reach) continue;
      square[0] = field.x0 + i * field.dx;
      square[1] = square[0] + field.dx;
      let gap: number;
      if (level || (from[0] === to[0] && from[1] === to[1])) {
        const sideways = Math.max(0, segmentToSquare(from[0], from[1], to[0], to[1], square) - radius);
        gap = Math.hypot(sideways, Math.max(0, low - top));
      } else gap = obliqueGap(from, to, radius, square, top);
      if (gap < reach && (best === null || gap < best.distance_mm))
        best = { distance_mm: gap, at: [square[0] + field.dx / 2, (square[2] as number) + field.dy / 2, top] };
    }
  }
  return best;
}
