/**
 * The cutter-location runs of 3D finishing, before linking: parallel drop-cutter passes over the
 * shallow faces and waterline loops round the steep ones, each cut to the stretches where the
 * cutter touches the faces of its class (finish-regions.ts).
 */
import type { Vec3 } from "../types.ts";
import type { DropCutter, LineSampling } from "./drop-cutter.ts";
import { dropLine } from "./drop-cutter.ts";
import type { SlopeClass } from "./finish-regions.ts";
import type { BoxXY } from "./triangle-grid.ts";
import { WaterlineGrid } from "./waterline.ts";

/** a waterline's fibre ends within this of the contact, along the fibre (mm) */
const WATERLINE_TOLERANCE_MM = 0.0005;
/**
 * Waterline loops run this much farther from the part than the contact (mm, in XY): on a face
 * near upright a point a few micrometres inside it stands the face's whole rise into the part, as
 * the simulation measures a gouge (vertically); the fibre ends' tolerance and the chords' sag
 * stay within it.
 */
const WATERLINE_LEAVE_MM = 0.003;
/** the lowest waterline runs this far above the lowest drop round its faces, so the drop crosses it (mm) */
const LOWEST_LOOP_MM = 0.001;
/** consecutive loop points lie in neighbouring fibre cells: at most a diagonal apart (in steps) */
const CELL_DIAGONAL = Math.SQRT2 * 1.01;
/** a loop's segment whose middle the drop stands above z by more than this (mm) runs through the part */
const JOIN_MM = 0.002;

/** Parallel passes along X, `stepover` apart in Y, zig-zag, over the face's box. */
export function parallelRuns(drop: DropCutter, faces: SlopeClass, stepover: number, sampling: LineSampling): Vec3[][] {
  const runs: Vec3[][] = [];
  const { box } = faces;
  const lines = Math.max(1, Math.ceil((box.maxY - box.minY) / stepover));
  const spacing = (box.maxY - box.minY) / lines;
  for (let j = 0; j <= lines; j += 1) {
    const y = box.minY + j * spacing;
    const forward = j % 2 === 0;
    const from: [number, number] = [forward ? box.minX : box.maxX, y];
    const to: [number, number] = [forward ? box.maxX : box.minX, y];
    runs.push(...touching(dropLine(drop, { from, to }, sampling), faces).map((run) => squaredSteps(run, sampling)));
  }
  return runs;
}

/**
 * Waterline loops `stepdown` apart from the face's top down to a radius below its bottom, over
 * its box, and one more just above the lowest drop there when the levels stop short of it: where
 * a steep face meets a floor the cutter's lowest place touching it is on that floor, and the
 * level above it would leave the corner a stepdown high.
 */
export function waterlineRuns(
  drop: DropCutter,
  faces: SlopeClass,
  spacing: { stepdown: number; step: number },
  options: { band?: ZBand; grids?: WaterlineGrids } = {},
): Vec3[][] {
  const { stepdown, step } = spacing;
  const bottom = faces.low - drop.cutter.radius;
  const region = grown(faces.box, step);
  const grid = options.grids?.grid(drop, region, step) ?? new WaterlineGrid(drop, { step, region });
  // where the faces end on something below them, the lowest drop round them is where the cutter sits
  const floor = grid.heights.reduce((low, z) => Math.min(low, z), Infinity) + LOWEST_LOOP_MM;
  const lowest = Math.max(bottom, floor + stepdown / 4);
  const levels: number[] = [];
  for (let z = faces.high - stepdown / 2; z > lowest; z -= stepdown) levels.push(z);
  if (floor > bottom) levels.push(floor);
  const band = options.band ?? EVERY_Z;
  return levels
    .filter((z) => z >= band.low && z < band.high)
    .flatMap((z) =>
      grid.loops(z, WATERLINE_TOLERANCE_MM).flatMap((loop) => loopRuns(drop, faces, loop.points, z, step)),
    );
}

/** A range of the tip's heights an operation keeps to: low included, high not. */
export interface ZBand {
  low: number;
  high: number;
}

const EVERY_Z: ZBand = { low: -Infinity, high: Infinity };

/** Waterline grids kept by region and step: the bands of one face share its grid's drops. */
export class WaterlineGrids {
  private readonly made = new Map<string, WaterlineGrid>();

  grid(drop: DropCutter, region: BoxXY, step: number): WaterlineGrid {
    const key = [region.minX, region.minY, region.maxX, region.maxY, step, drop.cutter.radius].join(" ");
    let grid = this.made.get(key);
    if (grid === undefined || grid.drop !== drop) {
      grid = new WaterlineGrid(drop, { step, region });
      this.made.set(key, grid);
    }
    return grid;
  }
}

/** The stretches of CL points (x, y, z each) at which the cutter touches the class's faces. */
function touching(points: Float64Array, faces: SlopeClass): Vec3[][] {
  const all: Vec3[] = [];
  for (let i = 0; i < points.length; i += 3)
    all.push([points[i] as number, points[i + 1] as number, points[i + 2] as number]);
  return stretches(all, (p) => faces.touches(p[0], p[1], p[2]));
}

/** The stretches of two points or more of a run where `keep` holds. */
export function stretches(run: readonly Vec3[], keep: (p: Vec3) => boolean): Vec3[][] {
  const out: Vec3[][] = [];
  let piece: Vec3[] = [];
  for (const p of run) {
    if (keep(p)) {
      piece.push(p);
      continue;
    }
    if (piece.length > 1) out.push(piece);
    piece = [];
  }
  if (piece.length > 1) out.push(piece);
  return out;
}

/**
 * A loop's runs at z (x, y per point): the whole loop, closed again, when the cutter touches the
 * faces all round; else the stretches where it does, read from a break so none is split at the
 * loop's seam. A loop that meets the grid's border comes back open, its ends joined straight
 * through the part: a segment longer than a fibre cell's diagonal, or whose middle the drop
 * stands above z, breaks it.
 */
function loopRuns(drop: DropCutter, faces: SlopeClass, points: Float64Array, z: number, step: number): Vec3[][] {
  let n = points.length / 2;
  if (n > 1 && points[0] === points[2 * n - 2] && points[1] === points[2 * n - 1]) n -= 1;
  if (n < 2) return [];
  const x = (i: number) => points[2 * (i % n)] as number;
  const y = (i: number) => points[2 * (i % n) + 1] as number;
  // the loop lies where the drop crosses z; the drop itself says what the cutter touches there
  const touches: boolean[] = [];
  // whether the segment from point i to the next is a true piece of the loop
  const joined: boolean[] = [];
  for (let i = 0; i < n; i += 1) {
    touches.push(faces.touches(x(i), y(i), drop.dropAt(x(i), y(i))));
    // the middle as the loop runs it, held off the part (a jump through the part stays in it):
    // where the drop rises upright beside the loop, as at a fillet the ball fits, the ends' own
    // drop stands well above z within their tolerance along the fibre
    const dx = x(i + 1) - x(i);
    const dy = y(i + 1) - y(i);
    const length = Math.hypot(dx, dy);
    const out = length === 0 ? 0 : WATERLINE_LEAVE_MM / length;
    const mx = (x(i) + x(i + 1)) / 2 + dy * out;
    const my = (y(i) + y(i + 1)) / 2 - dx * out;
    joined.push(length <= step * CELL_DIAGONAL && drop.dropAt(mx, my) <= z + JOIN_MM);
  }
  const at = (i: number): Vec3 => {
    // the part lies on the loop's left: away from it is to the right of the way along the loop,
    // read over the segments either side that are the loop's own (a jump's direction means nothing)
    const before = joined[(i + n - 1) % n] ? i + n - 1 : i;
    const after = joined[i % n] ? i + 1 : i;
    const dx = x(after) - x(before);
    const dy = y(after) - y(before);
    const length = Math.hypot(dx, dy);
    const out = length === 0 ? 0 : WATERLINE_LEAVE_MM / length;
    return [x(i) + dy * out, y(i) - dx * out, z];
  };
  const points3 = Array.from({ length: n }, (_, i) => at(i));
  // a point the drop stands above (beside a jump, or where the contact turns sharply) is none to cut at
  for (let i = 0; i < n; i += 1) {
    const p = points3[i] as Vec3;
    if (touches[i] && drop.dropAt(p[0], p[1]) > z + JOIN_MM) touches[i] = false;
  }
  const breakAt = [...Array(n).keys()].find((i) => !touches[i] || !joined[i]);
  if (breakAt === undefined) return [[...points3, points3[0] as Vec3]];
  const runs: Vec3[][] = [];
  let run: Vec3[] = [];
  for (let k = 1; k <= n; k += 1) {
    const i = (breakAt + k) % n;
    if (touches[i]) run.push(points3[i] as Vec3);
    if (!touches[i] || !joined[i]) {
      if (run.length > 1) runs.push(run);
      run = [];
    }
  }
  if (run.length > 1) runs.push(run);
  return runs;
}

/**
 * A run with a corner put into each interval the drop's sampling could not refine further (a
 * step the cutter climbs or drops at once, beside a wall): up first and then across when it
 * rises, across and then down when it falls, so the cutter's side never cuts the step's edge.
 */
export function squaredSteps(run: readonly Vec3[], sampling: LineSampling): Vec3[] {
  const shortest = (sampling.minStep ?? sampling.step / 64) * 1.5;
  const out: Vec3[] = [];
  for (let i = 0; i < run.length; i += 1) {
    const p = run[i] as Vec3;
    const q = out.at(-1);
    if (
      q !== undefined &&
      Math.hypot(p[0] - q[0], p[1] - q[1]) <= shortest &&
      Math.abs(p[2] - q[2]) > sampling.tolerance
    )
      out.push(p[2] > q[2] ? [q[0], q[1], p[2]] : [p[0], p[1], q[2]]);
    out.push(p);
  }
  return out;
}

function grown(box: BoxXY, by: number): BoxXY {
  return { minX: box.minX - by, minY: box.minY - by, maxX: box.maxX + by, maxY: box.maxY + by };
}
