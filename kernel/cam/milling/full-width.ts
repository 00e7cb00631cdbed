/**
 * Where a pass would cut at full width: its centre path read on the material it is about to
 * cut, as cells (adaptive/grid.ts, adaptive/material-model.ts), as the stock simulation reads
 * engagement (../simulation/engagement.ts): at points at most half a radius apart, the arc of
 * the tool's leading edge in material, each move (between two of the path's own points) read on
 * the material as it was before the move and its sweep cleared after it. The points engaging at
 * least FULL_WIDTH of the diameter make the stretches where slotting.ts cuts loops or shallower
 * runs instead; the rest of a pass keeps its path, each move fed for the engagement read on it
 * (thin-chip.ts), so a pass that never slots costs only this reading. A stretch is any run of such points, however short: in offset clearing most are the
 * step a pass takes into the material ahead of a narrow place, a stepover or so long.
 *
 * The cells are about CELLS_PER_DIAMETER to the tool's diameter (a full-width cut differs from a
 * side cut by far more than that); a long pass is read in pieces of at most MAX_CELLS cells, each
 * first cleared along the path's last diameter before it, so nothing the tool has just cut reads
 * as material.
 */
import type { Vec2 } from "../types.ts";
import { CellGrid } from "./adaptive/grid.ts";
import { MaterialModel } from "./adaptive/material-model.ts";
import { clipToRect, isEmpty, SCALE, type Paths64, type Rect64 } from "./polygons.ts";

/**
 * a cut engaging at least this share of the diameter is read as a full-width one: under the
 * simulation's 90 % (../simulation/engagement.ts FULL_WIDTH_SHARE) by what the cells may miss,
 * so a stretch the simulation finds at 90 % is not read at 88 % here and left
 */
export const FULL_WIDTH = 0.85;
const CELLS_PER_DIAMETER = 24;
const MIN_CELL_MM = 0.02;
const MAX_CELLS = 400_000;

/** A stretch of a resampled path: its points `from` to `to` (indices, inclusive). */
export interface Stretch {
  from: number;
  to: number;
}

/** A path with points inserted: `vertex` is 1 at the path's own points. */
export interface Resampled {
  points: Vec2[];
  vertex: Uint8Array;
}

/** The path with points inserted so that none is more than `step` from the next (its own points kept). */
export function resample(path: readonly Vec2[], step: number): Resampled {
  const points: Vec2[] = [];
  const own: number[] = [];
  for (let i = 0; i < path.length; i += 1) {
    const b = path[i] as Vec2;
    const a = path[i - 1];
    if (a !== undefined) {
      const n = Math.ceil(Math.hypot(b[0] - a[0], b[1] - a[1]) / step);
      for (let k = 1; k < n; k += 1) points.push([a[0] + ((b[0] - a[0]) * k) / n, a[1] + ((b[1] - a[1]) * k) / n]);
    }
    own.push(points.length);
    points.push(b);
  }
  const vertex = new Uint8Array(points.length);
  for (const k of own) vertex[k] = 1;
  return { points, vertex };
}

/** The spacing of the reading: at most half the radius, as the stock simulation's. */
export function readingStep(radius: number): number {
  return Math.max(cellSize(radius), radius / 2);
}

function cellSize(radius: number): number {
  return Math.max(MIN_CELL_MM, (2 * radius) / CELLS_PER_DIAMETER);
}

/** A pass's centre path, resampled, and the engagement (mm) the tool takes at each of its points. */
export interface PassReading extends Resampled {
  /** mm at each point (the first: 0), as read: up to a cell (`cell`) low */
  engagement: Float64Array;
  /** the cells' size (mm) */
  cell: number;
}

/**
 * The engagement of a tool of `radius` along a centre path (resampled: readingStep apart at
 * most) cut through `material`. As in the stock simulation, each move of the path (between two
 * of its own points) is read on the material as it is before the move, and what it swept is
 * cleared after it: the leading half of the tool's edge never lies in what the same straight
 * move cut before.
 */
export function readPass(path: Resampled, material: Paths64, radius: number): PassReading {
  const { points, vertex } = path;
  const cell = cellSize(radius);
  const engagement = new Float64Array(points.length);
  const reading = { points, vertex, engagement, cell };
  if (points.length < 2 || isEmpty(material, 1e-6)) return reading;
  // pieces of the path whose boxes hold at most MAX_CELLS cells
  let first = 1;
  while (first < points.length) {
    let box = boxOf(points[first - 1] as Vec2, radius + 2 * cell);
    let last = first;
    for (; last < points.length; last += 1) {
      const grown = growBox(box, points[last] as Vec2, radius + 2 * cell);
      if (last > first && cells(grown, cell) > MAX_CELLS) break;
      box = grown;
    }
    // cleared first: the path's last diameter before the piece
    let preroll = first - 1;
    for (let walked = 0; preroll > 0 && walked < 2 * radius; preroll -= 1)
      walked += distance(points[preroll] as Vec2, points[preroll - 1] as Vec2);
    for (let k = preroll; k < first - 1; k += 1) box = growBox(box, points[k] as Vec2, radius + 2 * cell);
    const rect: Rect64 = {
      left: Math.floor(box.x0 * SCALE),
      top: Math.floor(box.y0 * SCALE),
      right: Math.ceil(box.x1 * SCALE),
      bottom: Math.ceil(box.y1 * SCALE),
    };
    const grid = new CellGrid(rect, cell);
    const model = new MaterialModel(grid, grid.fill(clipToRect(material, rect)), radius);
    model.clearAlong(points.slice(preroll, first));
    // the move being read began here
    let moveStart = first - 1;
    for (let k = first; k < last; k += 1) {
      const a = points[k - 1] as Vec2;
      const b = points[k] as Vec2;
      engagement[k] = model.engagementAt(b, Math.atan2(b[1] - a[1], b[0] - a[0]));
      if (vertex[k] !== 1 && k < last - 1) continue;
      model.clearAlong(points.slice(moveStart, k + 1));
      moveStart = k;
    }
    first = last;
  }
  return reading;
}

/** The stretches of a read pass where the tool engages at least FULL_WIDTH of its diameter, in path order. */
export function fullWidthStretches(reading: PassReading, radius: number): Stretch[] {
  const { points, engagement } = reading;
  const full = FULL_WIDTH * 2 * radius;
  const stretches: Stretch[] = [];
  for (let k = 1; k < points.length; k += 1) {
    if (!((engagement[k] as number) >= full)) continue;
    // the stretch begins where the tool was before its first full-width point
    const from = k - 1;
    while (k + 1 < points.length && (engagement[k + 1] as number) >= full) k += 1;
    stretches.push({ from, to: k });
  }
  return stretches;
}

interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

function boxOf(p: Vec2, margin: number): Box {
  return { x0: p[0] - margin, y0: p[1] - margin, x1: p[0] + margin, y1: p[1] + margin };
}

function growBox(box: Box, p: Vec2, margin: number): Box {
  return {
    x0: Math.min(box.x0, p[0] - margin),
    y0: Math.min(box.y0, p[1] - margin),
    x1: Math.max(box.x1, p[0] + margin),
    y1: Math.max(box.y1, p[1] + margin),
  };
}

function cells(box: Box, cell: number): number {
  return ((box.x1 - box.x0) / cell) * ((box.y1 - box.y0) / cell);
}

function distance(a: Vec2, b: Vec2): number {
  return Math.hypot(b[0] - a[0], b[1] - a[1]);
}
