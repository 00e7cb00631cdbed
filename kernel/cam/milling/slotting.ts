/**
 * No full-width slotting deeper than half the diameter: a clearing pass (clearing.ts) read on
 * the material it is about to cut (full-width.ts), and each stretch where the tool would engage
 * 85 % of its diameter or more over material deeper than SLOT_DEPTH_D of it cut otherwise:
 *
 * - by trochoidal loops (trochoids.ts) along the stretch, when loops of at least MIN_LOOP_D of
 *   the diameter fit round it in the region the tool centre may take (the slot is that much
 *   wider than the tool and its allowances), advancing so the engagement stays at the pass's
 *   stepover, unless they take over LOOPS_LONGER times the runs' length;
 * - else in as many runs at most SLOT_DEPTH_D of the diameter deep as the depth needs, each back
 *   to the stretch's start through the cut just made (the material tables carry no slotting
 *   depth: half the diameter is the usual limit for slotting with an end mill).
 *
 * Full width within SLOT_DEPTH_D of the top is left, and a pass that never slots is cut as it
 * was.
 */
import type { Move, Vec2 } from "../types.ts";
import { fullWidthStretches, resample, type PassReading, type Stretch } from "./full-width.ts";
import type { Heights } from "./linking.ts";
import {
  bounds,
  clipToRect,
  contains,
  distanceToBoundary,
  expandRect,
  pathOf,
  sweepCoarse,
  type Path64,
  type Paths64,
} from "./polygons.ts";
import { loopAdvance, MAX_LOOP_D, MIN_LOOP_D, trochoidLoops } from "./trochoids.ts";

/** a full-width stretch deeper than this share of the diameter is cut in shallower runs */
export const SLOT_DEPTH_D = 0.5;
/**
 * Loops are cut where they fit unless their path is more than this many times as long as the
 * shallower runs' (short stretches, where a pass steps into the material ahead, take several
 * loops for a run's length): partC's rest roughings took up to a quarter longer with loops
 * wherever they fit, 5 % in all at this limit, against 3.5 % with shallower runs alone.
 */
const LOOPS_LONGER = 3;
/** a stretch this little deeper than SLOT_DEPTH_D of the diameter is left (levels split evenly land on it) */
const DEPTH_TOLERANCE_MM = 0.05;
/** loops are kept this far inside the region the tool centre may take (mm) */
const LOOP_MARGIN_MM = 0.005;
/** loops advancing less than this share of the diameter a loop are not worth their time: shallower runs instead */
const MIN_ADVANCE_D = 0.01;

export interface SlotSpec {
  /** the pass's centre path, read on `material` (full-width.ts readPass) */
  reading: PassReading;
  /** what the pass cuts: the material at the level before it */
  material: Paths64;
  /** where the tool centre may be, grown by the links' tolerance */
  allowed: Paths64;
  radius: number;
  /** the engagement the loops hold: the pass's stepover */
  engagement: number;
  z: number;
  feed: number;
  /** the deepest the level cuts (its stepdown) */
  depth: number;
  heights: Heights;
}

export interface SlotCut {
  /** the pass's moves from its first point */
  moves: Move[];
  /** the centre paths the tool sweeps, for the material model */
  swept: Path64[];
  /** the centre path through them all (back links walk it) */
  path: Path64;
  loops: number;
  shallower: number;
}

/** The pass cut without full-width slotting at full depth; null when it does not slot. */
export function withoutSlotting(spec: SlotSpec): SlotCut | null {
  const { radius, z, feed } = spec;
  const { points } = spec.reading;
  const stretches = fullWidthStretches(spec.reading, radius);
  if (stretches.length === 0) return null;
  const moves: Move[] = [];
  const swept: Vec2[][] = [];
  const through: Vec2[] = [points[0] as Vec2];
  let run: Vec2[] = [points[0] as Vec2];
  const along = (from: number, to: number): void => {
    for (let k = from + 1; k <= to; k += 1) {
      const p = points[k] as Vec2;
      moves.push({ kind: "linear", to: [p[0], p[1], z], feed });
      run.push(p);
      through.push(p);
    }
  };
  let at = 0;
  let loops = 0;
  let shallower = 0;
  for (const stretch of stretches) {
    // full width no deeper than SLOT_DEPTH_D of the diameter is how a slot is cut: left
    const depth = stretchDepth(spec, points, stretch);
    if (!(depth > SLOT_DEPTH_D * 2 * radius + DEPTH_TOLERANCE_MM)) continue;
    along(at, stretch.from);
    at = stretch.from;
    const runs = shallowerRuns(spec, points, stretch, depth);
    const looped = loopsAlong(spec, points, stretch);
    if (
      looped !== null &&
      polylineLength(looped.path) <= LOOPS_LONGER * movesLength(runs, points[stretch.from] as Vec2, z)
    ) {
      swept.push(run);
      moves.push(...looped.moves);
      swept.push(looped.path);
      through.push(...looped.path.slice(1));
      run = [points[stretch.to] as Vec2];
      at = stretch.to;
      loops += 1;
      continue;
    }
    moves.push(...runs);
    // the last run ends at the stretch's end at the level
    for (let k = stretch.from + 1; k <= stretch.to; k += 1) {
      run.push(points[k] as Vec2);
      through.push(points[k] as Vec2);
    }
    at = stretch.to;
    shallower += 1;
  }
  along(at, points.length - 1);
  swept.push(run);
  if (loops === 0 && shallower === 0) return null;
  return {
    moves: withoutCollinear(moves, points[0] as Vec2, z),
    swept: swept.filter((p) => p.length > 0).map((p) => pathOf(p)),
    path: pathOf(through),
    loops,
    shallower,
  };
}

/**
 * Loops along a stretch when loops of at least MIN_LOOP_D of the diameter fit round it in the
 * allowed region: centred on it, or beside it (a pass along the region's edge, as a pass into a
 * narrow place runs, has its loops on the inner side), the largest that fit; else null.
 */
function loopsAlong(
  spec: SlotSpec,
  points: readonly Vec2[],
  stretch: Stretch,
): ReturnType<typeof trochoidLoops> | null {
  const { radius } = spec;
  const diameter = 2 * radius;
  const largest = MAX_LOOP_D * diameter;
  const reach = lineFrom(points, stretch, largest);
  const near = clipToRect(spec.allowed, expandRect(bounds([pathOf(reach)]), 2 * largest + 1));
  for (const share of LOOP_SIZES) {
    const loop = share * largest;
    if (loop < MIN_LOOP_D * diameter) break;
    for (const side of [0, 1, -1]) {
      // the loops start a loop's radius behind the stretch, where the tool has cut its envelope
      const line = beside(lineFrom(points, stretch, loop), side * (loop + 2 * LOOP_MARGIN_MM));
      if (!fits(line, near, loop)) continue;
      const advance = loopAdvance(radius, loop, spec.engagement);
      if (advance < MIN_ADVANCE_D * diameter) return null;
      return trochoidLoops({
        from: points[stretch.from] as Vec2,
        line,
        to: points[stretch.to] as Vec2,
        loop,
        advance,
        z: spec.z,
        feed: spec.feed,
      });
    }
  }
  return null;
}

/** loop radii tried, as shares of the largest (MAX_LOOP_D of the diameter) */
const LOOP_SIZES = [1, 0.7, 0.5, 0.35, 0.25];

/** Every point of the line (and between, a tenth of the loop apart) at least `loop` inside the region. */
function fits(line: readonly Vec2[], region: Paths64, loop: number): boolean {
  for (const p of resample(line, Math.max(0.01, loop / 10)).points) {
    if (!contains(region, p) || distanceToBoundary(region, p) < loop + LOOP_MARGIN_MM) return false;
  }
  return true;
}

/** The line moved `by` mm to its left (negative: right), each point along its own normal. */
function beside(line: readonly Vec2[], by: number): Vec2[] {
  if (by === 0) return [...line];
  return line.map((p, k) => {
    const a = line[Math.max(0, k - 1)] as Vec2;
    const b = line[Math.min(line.length - 1, k + 1)] as Vec2;
    const length = Math.hypot(b[0] - a[0], b[1] - a[1]);
    if (length === 0) return p;
    return [p[0] - ((b[1] - a[1]) / length) * by, p[1] + ((b[0] - a[0]) / length) * by];
  });
}

/** The stretch's points, begun `back` mm behind its first along the path before it (or at the path's start). */
function lineFrom(points: readonly Vec2[], stretch: Stretch, back: number): Vec2[] {
  const line = points.slice(stretch.from, stretch.to + 1);
  let left = back;
  for (let k = stretch.from; k > 0 && left > 0; k -= 1) {
    const a = points[k] as Vec2;
    const b = points[k - 1] as Vec2;
    const d = Math.hypot(b[0] - a[0], b[1] - a[1]);
    if (d >= left) {
      line.unshift([a[0] + ((b[0] - a[0]) * left) / d, a[1] + ((b[1] - a[1]) * left) / d]);
      break;
    }
    line.unshift(b);
    left -= d;
  }
  return line;
}

/** How deep the stretch cuts: from the material's top over what it sweeps down to the level, at most the level's depth. */
function stretchDepth(spec: SlotSpec, points: readonly Vec2[], stretch: Stretch): number {
  const line = points.slice(stretch.from, stretch.to + 1);
  return Math.min(spec.depth, spec.heights.over(sweepCoarse([pathOf(line)], spec.radius)) - spec.z);
}

/**
 * The stretch in runs at most SLOT_DEPTH_D of the diameter deep: from its start (where the tool
 * is, at the level), up to the first run's height, along, back through what it cut, down to the
 * next, ..., the last at the level.
 */
function shallowerRuns(spec: SlotSpec, points: readonly Vec2[], stretch: Stretch, depth: number): Move[] {
  const { z, feed, radius } = spec;
  const line = points.slice(stretch.from, stretch.to + 1);
  const runs = Math.ceil(depth / (SLOT_DEPTH_D * 2 * radius) - 1e-9);
  const start = line[0] as Vec2;
  const moves: Move[] = [];
  for (let k = 1; k <= runs; k += 1) {
    const height = z + (depth * (runs - k)) / runs;
    moves.push({ kind: "linear", to: [start[0], start[1], height], feed });
    for (const p of line.slice(1)) moves.push({ kind: "linear", to: [p[0], p[1], height], feed });
    if (k === runs) break;
    for (const p of line.slice(0, -1).reverse()) moves.push({ kind: "linear", to: [p[0], p[1], height], feed });
  }
  return moves;
}

function polylineLength(points: readonly Vec2[]): number {
  let length = 0;
  for (let k = 1; k < points.length; k += 1)
    length += Math.hypot(
      (points[k] as Vec2)[0] - (points[k - 1] as Vec2)[0],
      (points[k] as Vec2)[1] - (points[k - 1] as Vec2)[1],
    );
  return length;
}

function movesLength(moves: readonly Move[], start: Vec2, z: number): number {
  let at: [number, number, number] = [start[0], start[1], z];
  let length = 0;
  for (const move of moves) {
    if (move.kind === "drill") continue;
    length += Math.hypot(move.to[0] - at[0], move.to[1] - at[1], move.to[2] - at[2]);
    at = [move.to[0], move.to[1], move.to[2]];
  }
  return length;
}

/** Linear moves at one height and feed that go on in a straight line merged (resample's points). */
function withoutCollinear(moves: readonly Move[], start: Vec2, z: number): Move[] {
  const out: Move[] = [];
  let before: [number, number, number] = [start[0], start[1], z];
  for (const move of moves) {
    const last = out[out.length - 1];
    if (move.kind === "linear" && last?.kind === "linear" && last.feed === move.feed && last.to[2] === move.to[2]) {
      const [ax, ay] = before;
      const [bx, by] = last.to;
      const [cx, cy] = move.to;
      const cross = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
      const forward = (bx - ax) * (cx - bx) + (by - ay) * (cy - by);
      const length = Math.hypot(cx - ax, cy - ay);
      if (before[2] === move.to[2] && forward > 0 && Math.abs(cross) <= 1e-6 * length) {
        out[out.length - 1] = move;
        continue;
      }
    }
    if (last !== undefined && last.kind !== "drill") before = [last.to[0], last.to[1], last.to[2]];
    out.push(move);
  }
  return out;
}
